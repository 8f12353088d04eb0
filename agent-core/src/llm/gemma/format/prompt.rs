//! What every format is built from: which formats there are ([`PromptFormat`]), what one
//! does differently ([`Format`]), a rendered prompt ([`Prompt`]: control and content pieces),
//! Gemma's turn markers, and the one-line renderings of declarations and texts.

use serde_json::Value;

use crate::llm::gemma::constrain::schema::ArgStyle;
use crate::session::ResultMessage;
use crate::tool::ToolDeclaration;

/// The prompt format a session uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PromptFormat {
    /// Calls as one JSON object, `{"name":…,"arguments":{…}}`.
    Json,
    /// Calls as a Python call in brackets, `[name(key="value")]`.
    Python,
    /// FunctionGemma's own format (its control tokens where the vocabulary has them, the same
    /// text otherwise).
    FunctionGemma,
}

impl PromptFormat {
    /// Every format, in the order evaluations list them.
    pub const ALL: [PromptFormat; 3] = [Self::Json, Self::Python, Self::FunctionGemma];

    /// A short name (`json`, `python`, `function_gemma`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Json => "json",
            Self::Python => "python",
            Self::FunctionGemma => "function_gemma",
        }
    }
}

pub(crate) const START_USER: &str = "<start_of_turn>user\n";
pub(crate) const START_MODEL: &str = "<start_of_turn>model\n";
pub(crate) const END_TURN: &str = "<end_of_turn>\n";

/// Where the conversation stands when the next input is rendered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct State {
    /// A model turn was generated and not closed yet.
    pub(crate) model_turn_open: bool,
    /// That model turn ended with a call.
    pub(crate) after_call: bool,
}

/// What one format does differently; see the module doc.
pub(crate) trait Format: Send + Sync {
    /// Which format this is.
    fn kind(&self) -> PromptFormat;

    /// The syntax of an argument list.
    fn style(&self) -> &'static ArgStyle;

    /// The text before and after the argument list of a call of `tool`.
    fn call_frame(&self, tool: &str) -> (String, String);

    /// The tool declarations and how to call, in this format's words.
    fn declarations(&self, tools: &[ToolDeclaration], prompt: &mut Prompt);

    /// Renders results of calls. `state` tells whether the model turn that made them is open.
    fn results(&self, state: State, results: &[ResultMessage], prompt: &mut Prompt);

    /// Whether results are written inside the model turn that made the calls (FunctionGemma)
    /// rather than in a user turn.
    fn results_in_model_turn(&self) -> bool {
        false
    }

    /// Keys in the order the format's calls write them: the schema's by default.
    fn key_order(&self, parameters: &Value) -> Value {
        parameters.clone()
    }

    /// The header of a turn of its own for instructions and declarations (FunctionGemma's
    /// `developer` turn); `None` puts them at the start of the first user turn.
    fn system_turn(&self) -> Option<&'static str> {
        None
    }
}

/// `- name(a: type, b?: type): description`, then the parameters' own descriptions.
pub(crate) fn signature(tool: &ToolDeclaration) -> String {
    let properties = tool.parameters.get("properties").and_then(Value::as_object);
    let required: Vec<&str> = tool
        .parameters
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut params = Vec::new();
    let mut docs = Vec::new();
    for (name, schema) in properties.into_iter().flatten() {
        let optional = if required.contains(&name.as_str()) {
            ""
        } else {
            "?"
        };
        params.push(format!("{name}{optional}: {}", type_text(schema)));
        if let Some(doc) = schema.get("description").and_then(Value::as_str) {
            docs.push(format!("{name}: {}", one_line(doc)));
        }
    }
    let mut line = format!("- {}({})", tool.name, params.join(", "));
    let description = one_line(&tool.description);
    if !description.is_empty() {
        line.push_str(": ");
        line.push_str(&description);
    }
    if !docs.is_empty() {
        line.push_str("\n  ");
        line.push_str(&docs.join("; "));
    }
    line
}

/// A short type: `string`, `integer 1..10`, `"done"|"blank"`, `string[]`, `string (date)`.
fn type_text(schema: &Value) -> String {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return values
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join("|");
    }
    if let Some(value) = schema.get("const") {
        return value.to_string();
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(options) = schema.get(key).and_then(Value::as_array) {
            return options.iter().map(type_text).collect::<Vec<_>>().join("|");
        }
    }
    let ty = match schema.get("type") {
        Some(Value::String(ty)) => ty.clone(),
        Some(Value::Array(types)) => types
            .iter()
            .filter_map(Value::as_str)
            .filter(|t| *t != "null")
            .collect::<Vec<_>>()
            .join("|"),
        _ => "any".to_owned(),
    };
    match ty.as_str() {
        "integer" | "number" => {
            let min = schema.get("minimum").map(Value::to_string);
            let max = schema.get("maximum").map(Value::to_string);
            match (min, max) {
                (Some(min), Some(max)) => format!("{ty} {min}..{max}"),
                (Some(min), None) => format!("{ty} >={min}"),
                (None, Some(max)) => format!("{ty} <={max}"),
                (None, None) => ty,
            }
        }
        "array" => {
            let items = schema
                .get("items")
                .map_or_else(|| "any".to_owned(), type_text);
            format!("{items}[]")
        }
        "string" => match schema.get("format").and_then(Value::as_str) {
            Some(format) => format!("string ({format})"),
            None => ty,
        },
        _ => ty,
    }
}

/// Descriptions from doc comments may span lines; a signature must not.
pub(crate) fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
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
        if text.is_empty() {
            return self;
        }
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

    /// Appends call syntax: control text for FunctionGemma (its markers are tokens), plain
    /// text for the other formats (their syntax is ordinary characters the model writes).
    pub(crate) fn control_or_text(&mut self, format: &dyn Format, text: &str) -> &mut Self {
        if format.kind() == PromptFormat::FunctionGemma {
            self.control(text)
        } else {
            self.text(text)
        }
    }

    /// Appends another prompt's pieces.
    pub(crate) fn extend(&mut self, other: Prompt) -> &mut Self {
        for piece in other.pieces {
            match piece {
                Piece::Control(text) => self.control(&text),
                Piece::Text(text) => self.text(&text),
            };
        }
        self
    }

    /// The pieces in order.
    pub(crate) fn pieces(&self) -> &[Piece] {
        &self.pieces
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
