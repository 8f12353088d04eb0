//! The chat loop: read a line, run a command or give the message to the agent, print what
//! happens, repeat until `/quit` or end of input.
//!
//! Ctrl-C (see [`crate::interrupt`]): at the terminal chat prompt it shows how to leave; with
//! piped input it leaves (exit status 130). While the model is answering it interrupts the
//! turn: the agent stops at its next safe point — never in the middle of a write the person
//! already approved — and reports which calls ran, so the screen says truthfully what was
//! saved. Then a new conversation starts: the stopped turn may have left half a reply or
//! unanswered calls in the model's context, and a clean start is the only state known to be
//! sound.

use std::sync::Arc;

use agent_core::llm::gemma::GemmaBackend;
use agent_core::{Agent, AgentError, ChatSession, Messages, ToolResult};
use habit_tools::Coach;

use crate::commands::{self, Command};
use crate::input::{History, Line, LineSource};
use crate::interrupt::{Interrupts, Level};
use crate::render::{Renderer, error_line};
use crate::ui::{Style, Ui};

/// The chat prompt.
pub(crate) const PROMPT: &str = "나> ";

/// How the chat ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Exit {
    /// `/quit` or end of input.
    Done,
    /// Ctrl-C at a piped prompt.
    Interrupted,
}

/// Everything the loop needs.
pub(crate) struct Chat<S> {
    /// The agent driving the model.
    pub(crate) agent: Agent<S>,
    /// Whether tool choice has learned from the model's reading of the declared examples
    /// (see [`Chat::read`]).
    pub(crate) prepared: bool,
    /// The loaded model, whose cache repairs are reported before each prompt (none for a
    /// scripted session).
    pub(crate) cache: Option<GemmaBackend>,
    /// The habit coach, for `/habits`.
    pub(crate) coach: Coach,
    /// Where lines come from.
    pub(crate) input: LineSource,
    /// Prints events.
    pub(crate) renderer: Arc<Renderer>,
    /// Prints everything else.
    pub(crate) ui: Arc<Ui>,
    /// Ctrl-C presses outside the line editor.
    pub(crate) interrupts: Interrupts,
}

impl<S: ChatSession> Chat<S> {
    /// Runs until `/quit`, end of input, or Ctrl-C at a piped prompt.
    pub(crate) async fn run(mut self) -> Exit {
        loop {
            let text = match self.read().await {
                Line::Text(text) => text,
                Line::TooLong { bytes } => {
                    self.ui.error(&format!(
                        "입력이 너무 깁니다({bytes}바이트). 한 줄은 {}바이트까지 보낼 수 있어요.",
                        crate::input::MAX_LINE_BYTES
                    ));
                    continue;
                }
                Line::Eof => {
                    self.ui.line(Style::Dim, "안녕히 가세요.");
                    return Exit::Done;
                }
                Line::Interrupted if self.input.is_terminal() => {
                    self.ui.line(Style::Dim, "(나가려면 /quit 또는 Ctrl-D)");
                    continue;
                }
                Line::Interrupted => return Exit::Interrupted,
            };
            let text = text.trim();
            if text.is_empty() {
                continue;
            }
            match commands::parse(text) {
                Some(Command::Quit) => {
                    self.ui.line(Style::Dim, "안녕히 가세요.");
                    return Exit::Done;
                }
                Some(command) => self.command(command),
                None => self.turn(text).await,
            }
        }
    }

    /// The next line, read while — until it has finished — tool choice learns from the
    /// model's reading of the declared examples: on a model's first start that is seconds
    /// behind the session's own start (see `model.rs`), which the person spends typing. A
    /// line that comes first leaves the rest to its turn, whose choice waits for it.
    async fn read(&mut self) -> Line {
        if let Some(backend) = &self.cache {
            crate::model::report_repairs(&self.ui, backend);
        }
        let input = &self.input;
        let interrupts = &self.interrupts;
        let line = async {
            if input.is_terminal() {
                // The editor owns the terminal in raw mode: Ctrl-C arrives as a key, not a
                // signal.
                input.read_line(PROMPT, History::Keep).await
            } else {
                tokio::select! {
                    line = input.read_line(PROMPT, History::Keep) => line,
                    () = interrupts.next(Level::Prompt) => Line::Interrupted,
                }
            }
        };
        let mut line = std::pin::pin!(line);
        if !self.prepared {
            // The reading is dropped when the line wins (a dropped request is skipped or
            // its vectors kept); the line is never dropped, as an edit in progress would be.
            tokio::select! {
                biased;
                line = &mut line => return line,
                prepared = self.agent.prepare() => self.prepared = prepared.is_ok(),
            }
        }
        line.await
    }

    fn command(&mut self, command: Command) {
        match command {
            Command::New => {
                self.agent.clear();
                self.ui.line(
                    Style::Good,
                    "새 대화를 시작합니다. (대화 기록만 비웠고, 저장된 습관은 그대로예요)",
                );
            }
            Command::Tools => commands::print_tools(&self.ui, self.agent.registry()),
            Command::Habits => commands::print_habits(&self.ui, &self.coach),
            Command::History => commands::print_history(&self.ui, self.agent.registry()),
            Command::Help => commands::print_help(&self.ui),
            Command::Unknown(word) => {
                self.ui.line(Style::Warn, &commands::unknown_line(&word));
            }
            Command::Quit => {}
        }
    }

    /// One user message: the agent's turn, interruptible by Ctrl-C.
    async fn turn(&mut self, text: &str) {
        self.renderer.begin_turn();
        let interrupts = self.interrupts.clone();
        let interrupter = self.agent.interrupter();
        let outcome = {
            let send = self.agent.send(text);
            tokio::pin!(send);
            loop {
                tokio::select! {
                    result = &mut send => break result,
                    // The turn keeps running to its next safe point and says what ran.
                    () = interrupts.next(Level::Turn) => interrupter.interrupt(),
                }
            }
        };
        self.ui.end_stream();
        match outcome {
            Ok(_) => {}
            Err(AgentError::TurnLimit { max_turns }) => self.ui.line(
                Style::Warn,
                &format!(
                    "⚠ {} (모델 턴 {max_turns}번; --max-turns로 바꿀 수 있어요)",
                    Messages::default().turn_limit
                ),
            ),
            Err(AgentError::Interrupted { completed }) => {
                self.agent.clear();
                // On a terminal the key echoed as `^C`; the line is written over it.
                if self.input.is_terminal() {
                    self.ui.over_echo();
                }
                self.ui
                    .line(Style::Warn, "⏹ 답변을 중단했습니다. 새 대화로 시작합니다.");
                self.ui.line(Style::Dim, &interrupted_line(&completed));
            }
            Err(error) => self.ui.error(&turn_error(&error)),
        }
    }
}

/// What an interrupted turn had already done, in one line: a write that started was finished
/// and is saved, whatever the screen showed while it ran.
fn interrupted_line(completed: &[agent_core::CompletedCall]) -> String {
    let done: Vec<String> = completed
        .iter()
        .map(|call| {
            let what = match &call.result {
                ToolResult::Ok { .. } => "완료",
                ToolResult::Cancelled { .. } => "취소됨",
                ToolResult::Error(_) => "실패",
            };
            format!("{} {what}", crate::ui::one_line(&call.label, 40))
        })
        .collect();
    if done.is_empty() {
        "   (실행된 작업은 없어요. 저장된 습관은 그대로예요)".to_owned()
    } else {
        format!(
            "   (중단 전에 끝난 작업: {} — 결과는 저장된 그대로예요)",
            done.join(", ")
        )
    }
}

/// The one line for a failed turn, with what to do next where there is something to do.
fn turn_error(error: &AgentError) -> String {
    let hint = match error.code() {
        // The session must start over: its context is full, or unusable after a failed step.
        "context_full" | "inference" => " — /new로 새 대화를 시작하세요",
        "prompt_too_long" => " — 더 짧게 써 주세요",
        "turn_too_long" | "invalid_output" => " — 다시 말해 보세요",
        _ => "",
    };
    format!(
        "모델이 답하지 못했습니다 ({}): {}{hint}",
        error.code(),
        error_line(&error.to_string())
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use agent_core::LlmError;

    #[test]
    fn turn_errors_carry_a_hint() {
        let line = turn_error(&AgentError::Llm(LlmError::ContextFull { capacity: 4096 }));
        assert!(line.contains("context_full"), "{line}");
        assert!(line.contains("/new"), "{line}");
        assert!(!line.contains('\n'));
    }
}
