//! The terminal confirmation for destructive tools: the reference spec's dialog as text —
//! title "이 작업을 수행할까요?", the tool's description, the call's summary — then `[y/N]`.
//!
//! Only an explicit yes (`y`, `yes`, `예`, `네`, any case, surrounding spaces ignored) runs the
//! tool. Enter, `n`, anything else, end of input and Ctrl-C all cancel; agent-core then answers
//! the model `{"status":"cancelled",…}`. With `--yes` the dialog is still printed, followed by
//! a loud note that it was approved without asking.

use std::sync::Arc;

use agent_core::{BoxFuture, ConfirmRequest, Confirmation, Confirmer};

use crate::input::{History, Line, LineSource};
use crate::interrupt::{Interrupts, Level};
use crate::ui::{Style, Ui};
use agent_core::inert::wrap;

/// The dialog's title, as in the reference spec.
pub(crate) const TITLE: &str = "이 작업을 수행할까요?";
/// The prompt after the dialog.
pub(crate) const PROMPT: &str = "   └ [y/N] ";
/// Columns of text per dialog row: with its frame, a row fits an 80-column terminal.
const ROW_COLUMNS: usize = 68;

/// Asks on the shared line source (or approves everything, with `--yes`).
pub(crate) struct TerminalConfirmer {
    input: LineSource,
    ui: Arc<Ui>,
    interrupts: Interrupts,
    auto_yes: bool,
}

impl TerminalConfirmer {
    /// A confirmer reading answers from `input` (a Ctrl-C press from `interrupts` cancels);
    /// `auto_yes` approves without reading.
    pub(crate) fn new(
        input: LineSource,
        ui: Arc<Ui>,
        interrupts: Interrupts,
        auto_yes: bool,
    ) -> Self {
        Self {
            input,
            ui,
            interrupts,
            auto_yes,
        }
    }

    fn show(&self, request: &ConfirmRequest) {
        // The lines agent-core makes of the call for every confirmer: inert, each value
        // clipped. Each is wrapped so that every row on the terminal starts with the dialog's
        // frame: no value can draw a line of its own.
        let shown = request.lines();
        self.ui
            .line(Style::Bold, &format!("   ┌ {TITLE} ({})", shown.label));
        for line in &shown.description {
            self.framed(Style::Plain, "   │ ", "   │ ", line);
        }
        self.framed(Style::Bold, "   │ ▶ ", "   │   ", &shown.summary);
        for argument in &shown.arguments {
            self.framed(Style::Plain, "   │   · ", "   │     ", argument);
        }
    }

    /// Prints `text` after `first`, continuing on rows that start with `rest`.
    fn framed(&self, style: Style, first: &str, rest: &str, text: &str) {
        for (i, row) in wrap(text, ROW_COLUMNS).iter().enumerate() {
            let frame = if i == 0 { first } else { rest };
            self.ui.spans(&[(Style::Plain, frame), (style, row)]);
        }
    }

    async fn ask(&self, request: ConfirmRequest) -> Confirmation {
        self.show(&request);
        if self.auto_yes {
            self.ui
                .line(Style::Warn, "   └ [y/N] y   ⚠ --yes: 묻지 않고 수행합니다");
            return Confirmation::Approve;
        }
        let answer = tokio::select! {
            line = self.input.read_line(PROMPT, History::Skip) => line,
            () = self.interrupts.next(Level::Confirmation) => {
                self.ui.end_stream();
                Line::Interrupted
            }
        };
        match answer {
            Line::Text(answer) if is_yes(&answer) => Confirmation::Approve,
            Line::Text(_) | Line::TooLong { .. } | Line::Interrupted | Line::Eof => {
                Confirmation::deny()
            }
        }
    }
}

impl Confirmer for TerminalConfirmer {
    fn confirm(&self, request: ConfirmRequest) -> BoxFuture<'_, Confirmation> {
        Box::pin(self.ask(request))
    }
}

/// Whether `answer` is an explicit yes.
pub(crate) fn is_yes(answer: &str) -> bool {
    matches!(
        answer.trim().to_lowercase().as_str(),
        "y" | "yes" | "예" | "네"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_an_explicit_yes_is_yes() {
        for yes in ["y", "Y", " yes ", "YES", "예", "네"] {
            assert!(is_yes(yes), "{yes:?}");
        }
        for no in [
            "",
            "n",
            "no",
            "아니요",
            "ㅇ",
            "yes please",
            "y y",
            "네네",
            "1",
            "\u{3000}",
        ] {
            assert!(!is_yes(no), "{no:?}");
        }
    }

    fn request() -> ConfirmRequest {
        ConfirmRequest {
            tool: "add_habit".into(),
            label: "습관 추가".into(),
            description: "습관을 추가합니다.".into(),
            summary: "'걷기' 습관을 추가합니다".into(),
            arguments: Vec::new(),
            args: json!({}),
            undo_of: None,
        }
    }

    fn confirmer(input: &'static [u8], auto_yes: bool) -> TerminalConfirmer {
        let ui = Arc::new(Ui::plain(false));
        let lines = LineSource::piped(std::io::Cursor::new(input), Arc::clone(&ui));
        TerminalConfirmer::new(lines, ui, Interrupts::default(), auto_yes)
    }

    #[tokio::test]
    async fn answers_are_read_in_order_and_eof_cancels() {
        let confirmer = confirmer(b"y\n\nn\n", false);
        let mut answers = Vec::new();
        for _ in 0..4 {
            answers.push(confirmer.confirm(request()).await.is_approved());
        }
        assert_eq!(answers, [true, false, false, false]);
    }

    #[tokio::test]
    async fn ctrl_c_at_the_prompt_cancels() {
        let (reader, _writer) = std::io::pipe().expect("pipe");
        let ui = Arc::new(Ui::plain(false));
        let lines = LineSource::piped(std::io::BufReader::new(reader), Arc::clone(&ui));
        let interrupts = Interrupts::default();
        let confirmer = TerminalConfirmer::new(lines, ui, interrupts.clone(), false);
        let presser = tokio::spawn(async move {
            while !interrupts.press() {
                tokio::time::sleep(std::time::Duration::from_millis(5)).await;
            }
        });
        assert_eq!(confirmer.confirm(request()).await, Confirmation::deny());
        presser.await.expect("joined");
    }

    #[tokio::test]
    async fn auto_yes_approves_without_reading() {
        let confirmer = confirmer(b"n\n", true);
        assert!(confirmer.confirm(request()).await.is_approved());
        assert_eq!(
            confirmer.input.read_line("", History::Skip).await,
            Line::Text("n".into())
        );
    }
}
