//! Prompt formats: how a conversation is written into Gemma's token stream.
//!
//! The base Gemma 3 270M GGUF carries no chat template, so the backend renders turns itself.
//! Two formats exist:
//! - [`PromptFormat::GemmaJson`] ([`gemma`]): Gemma's `<start_of_turn>`/`<end_of_turn>` turns;
//!   instructions and compact tool signatures open the first user turn (Gemma has no system
//!   role); the model answers with one grammar-constrained JSON object; tool results go back
//!   as a user turn.
//! - [`PromptFormat::FunctionGemma`] ([`function_gemma`]): the format FunctionGemma was trained
//!   on, chosen when the vocabulary has its control tokens.
//!
//! A rendered turn is a [`Prompt`]: a list of pieces that are either *control* text written by
//! the backend (tokenized with special tokens parsed) or *content* (user text, tool results,
//! descriptions) tokenized as plain text, so a user typing `<start_of_turn>` cannot forge a
//! turn.

pub(crate) mod function_gemma;
pub(crate) mod gemma;

use crate::llm::{ChatConfig, ToolResponse};

/// The prompt format a session uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PromptFormat {
    /// Gemma chat turns with grammar-constrained JSON replies
    /// (`{"tool_calls":[…]}` or `{"response":"…"}`).
    GemmaJson,
    /// FunctionGemma's own format (`<start_function_call>call:name{…}<end_function_call>`).
    FunctionGemma,
}

/// The control tokens whose presence in the vocabulary marks a FunctionGemma model.
pub(crate) const FUNCTION_GEMMA_TOKENS: [&str; 7] = [
    function_gemma::START_DECLARATION,
    function_gemma::END_DECLARATION,
    function_gemma::START_CALL,
    function_gemma::END_CALL,
    function_gemma::START_RESPONSE,
    function_gemma::END_RESPONSE,
    function_gemma::ESCAPE,
];

/// What a turn sends to the model.
#[derive(Debug, Clone)]
pub(crate) enum TurnInput {
    /// A user message.
    User(String),
    /// The results of the previous model turn's calls.
    ToolResults(Vec<ToolResponse>),
    /// Results recorded without asking the model for a turn (the agent loop stopped at its
    /// turn limit): they close the exchange and no model turn is opened after them.
    RecordedResults(Vec<ToolResponse>),
}

/// Where the conversation stands when a new input is rendered.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct RenderState {
    /// Nothing has been sent yet: the instructions and declarations go first.
    pub(crate) first: bool,
    /// A model turn was generated and not closed yet.
    pub(crate) model_turn_open: bool,
    /// That model turn ended by asking for tool calls.
    pub(crate) after_calls: bool,
}

impl PromptFormat {
    /// Renders one input, including whatever closes the previous model turn and opens the
    /// model's next one.
    pub(crate) fn render_turn(
        self,
        config: &ChatConfig,
        state: RenderState,
        input: &TurnInput,
    ) -> Prompt {
        match self {
            PromptFormat::GemmaJson => gemma::render_turn(config, state, input),
            PromptFormat::FunctionGemma => function_gemma::render_turn(config, state, input),
        }
    }

    /// Renders only the instructions and tool declarations, to measure what they cost.
    pub(crate) fn render_preamble(self, config: &ChatConfig) -> Prompt {
        match self {
            PromptFormat::GemmaJson => {
                let mut prompt = Prompt::default();
                prompt.text(&gemma::preamble(config));
                prompt
            }
            PromptFormat::FunctionGemma => function_gemma::developer_content(config),
        }
    }
}

/// One piece of a rendered prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Piece {
    /// Written by the backend; special tokens in it are parsed.
    Control(String),
    /// Content; tokenized as plain text.
    Text(String),
}

/// A rendered prompt: control and content pieces in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Prompt {
    pieces: Vec<Piece>,
}

impl Prompt {
    /// Appends backend-written text in which special tokens are parsed.
    pub(crate) fn control(&mut self, text: &str) -> &mut Self {
        match self.pieces.last_mut() {
            Some(Piece::Control(last)) => last.push_str(text),
            _ => self.pieces.push(Piece::Control(text.to_owned())),
        }
        self
    }

    /// Appends content, tokenized as plain text.
    pub(crate) fn text(&mut self, text: &str) -> &mut Self {
        if text.is_empty() {
            return self;
        }
        match self.pieces.last_mut() {
            Some(Piece::Text(last)) => last.push_str(text),
            _ => self.pieces.push(Piece::Text(text.to_owned())),
        }
        self
    }

    /// The pieces in order.
    pub(crate) fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// Whether nothing was rendered.
    pub(crate) fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// The prompt as one string (for golden tests).
    #[cfg(test)]
    pub(crate) fn as_string(&self) -> String {
        self.pieces
            .iter()
            .map(|piece| match piece {
                Piece::Control(text) | Piece::Text(text) => text.as_str(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjacent_pieces_of_one_kind_are_merged() {
        let mut prompt = Prompt::default();
        prompt
            .control("<a>")
            .control("<b>")
            .text("x")
            .text("")
            .text("y")
            .control("<c>");
        assert_eq!(
            prompt.pieces(),
            [
                Piece::Control("<a><b>".into()),
                Piece::Text("xy".into()),
                Piece::Control("<c>".into())
            ]
        );
        assert_eq!(prompt.as_string(), "<a><b>xy<c>");
    }
}
