//! Shows what the agent loop reports: the model's answer as it streams (`🤖 …`), each tool call
//! with its Korean label (`🔧 습관 검색 …`) and a one-line result (`✓ 3개 찾음: …`), notices.
//! Raw JSON of arguments and results, and timings, only with `--verbose`.
//!
//! Errors and the turn limit are not printed here: [`Agent::send`](agent_core::Agent::send)
//! returns them, and the chat loop prints each once.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use agent_core::{AgentEvent, EventSink};

use crate::outcome::{self, Kind};
use crate::ui::{Style, Ui, one_line};

/// Prefix of the model's answer.
pub(crate) const MODEL_PREFIX: &str = "🤖 ";

/// Renders [`AgentEvent`]s; shared between the agent (as its sink) and the chat loop.
#[derive(Debug)]
pub(crate) struct Renderer {
    ui: Arc<Ui>,
    verbose: bool,
    turn: Mutex<Turn>,
}

/// What the renderer tracks within one user turn.
#[derive(Debug, Default)]
struct Turn {
    /// An answer is being streamed (its prefix is printed).
    answer_open: bool,
    started: Option<Instant>,
    first_text: Option<Duration>,
}

/// Timings of the last user turn.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TurnTimes {
    /// From the message to the first visible character of the answer.
    pub(crate) first_text: Option<Duration>,
    /// From the message to now.
    pub(crate) total: Duration,
}

impl Renderer {
    /// A renderer printing through `ui`.
    pub(crate) fn new(ui: Arc<Ui>, verbose: bool) -> Self {
        Self {
            ui,
            verbose,
            turn: Mutex::new(Turn::default()),
        }
    }

    /// The sink to give the agent.
    pub(crate) fn sink(self: &Arc<Self>) -> impl EventSink {
        let renderer = Arc::clone(self);
        move |event| renderer.render(event)
    }

    /// Starts the clock of a new user turn.
    pub(crate) fn begin_turn(&self) {
        *self.lock() = Turn {
            started: Some(Instant::now()),
            ..Turn::default()
        };
    }

    /// Timings of the current turn so far.
    pub(crate) fn times(&self) -> TurnTimes {
        let turn = self.lock();
        TurnTimes {
            first_text: turn.first_text,
            total: turn.started.map_or(Duration::ZERO, |s| s.elapsed()),
        }
    }

    /// Prints one event.
    pub(crate) fn render(&self, event: AgentEvent) {
        match event {
            AgentEvent::TextDelta(delta) => self.text(&delta),
            AgentEvent::ToolCallRequested {
                label, name, args, ..
            } => {
                self.close_answer();
                // An unknown tool's "label" is the name the model wrote: clipped.
                let mut line = format!("🔧 {} …", agent_core::inert::clip(&label, 40));
                if self.verbose {
                    line.push_str(&format!(" {name} {args}"));
                }
                self.ui.line(Style::Tool, &line);
            }
            AgentEvent::ToolResult {
                name,
                result,
                sent,
                truncated,
                ..
            } => {
                let (kind, mut text) = outcome::summarize(&name, &result);
                if truncated {
                    text.push_str(" (모델에는 줄여서 전달)");
                }
                let (mark, style) = match kind {
                    Kind::Ok => ("✓", Style::Good),
                    Kind::Error => ("✗", Style::Bad),
                    Kind::Cancelled => ("⊘", Style::Warn),
                };
                self.ui.line(style, &format!("   {mark} {text}"));
                if self.verbose {
                    self.ui.line(Style::Dim, &format!("   → 모델에게: {sent}"));
                }
            }
            AgentEvent::Notice(text) => {
                self.close_answer();
                self.ui.line(Style::Warn, &format!("ℹ {text}"));
            }
            AgentEvent::Finished { text } => {
                let open = self.close_answer();
                if !open && text.trim().is_empty() {
                    self.ui
                        .line(Style::Dim, &format!("{MODEL_PREFIX}(빈 답변)"));
                }
                if self.verbose {
                    let times = self.times();
                    let first = times
                        .first_text
                        .map_or_else(|| "-".to_owned(), |d| format!("{:.1}초", d.as_secs_f64()));
                    self.ui.line(
                        Style::Dim,
                        &format!(
                            "   (첫 글자 {first} · 전체 {:.1}초)",
                            times.total.as_secs_f64()
                        ),
                    );
                }
            }
            AgentEvent::Planned(decision) if self.verbose => {
                let plan = if decision.plan.is_empty() {
                    "말로 답하기".to_owned()
                } else {
                    decision.plan.join(" → ")
                };
                self.ui.line(Style::Dim, &format!("   (계획: {plan})"));
            }
            AgentEvent::Planned(_)
            | AgentEvent::ConfirmationRequested { .. }
            | AgentEvent::ConfirmationResolved { .. }
            | AgentEvent::TurnLimitReached { .. }
            | AgentEvent::DefaultAnswer { .. }
            | AgentEvent::Error { .. } => {}
            // Events added to agent-core later are not shown until the demo learns them.
            _ => {}
        }
    }

    /// Streams answer text; leading whitespace of an answer is dropped so it starts right
    /// after the prefix.
    fn text(&self, delta: &str) {
        let mut turn = self.lock();
        let shown = if turn.answer_open {
            delta
        } else {
            let trimmed = delta.trim_start();
            if trimmed.is_empty() {
                return;
            }
            turn.answer_open = true;
            if let Some(started) = turn.started {
                turn.first_text.get_or_insert_with(|| started.elapsed());
            }
            self.ui.end_stream();
            self.ui.stream(Style::Bold, MODEL_PREFIX);
            trimmed
        };
        self.ui.stream(Style::Plain, shown);
    }

    /// Ends an answer being streamed; returns whether one was.
    fn close_answer(&self) -> bool {
        let mut turn = self.lock();
        let was_open = std::mem::take(&mut turn.answer_open);
        if was_open {
            self.ui.end_stream();
        }
        was_open
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Turn> {
        // Only layout state; usable even after a panic elsewhere.
        self.turn.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A one-line, shortened form of an error message for the chat.
pub(crate) fn error_line(message: &str) -> String {
    one_line(message, 200)
}
