//! Terminal output: every byte the program prints goes through [`Ui`], which knows whether
//! colours are wanted and whether the model's streamed answer has left the cursor mid-line
//! (so a tool line, a prompt or an error always starts on a fresh line).
//!
//! Write errors (a closed pipe, a full disk) are ignored on purpose: losing output must not
//! end a conversation or lose the answer to a confirmation.

use std::io::{IsTerminal, Write};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// How a piece of text is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    /// As is.
    Plain,
    /// Secondary information.
    Dim,
    /// Titles.
    Bold,
    /// Tool activity.
    Tool,
    /// Success.
    Good,
    /// Needs attention.
    Warn,
    /// Failure.
    Bad,
}

impl Style {
    fn code(self) -> &'static str {
        match self {
            Style::Plain => "",
            Style::Dim => "\x1b[2m",
            Style::Bold => "\x1b[1m",
            Style::Tool => "\x1b[36m",
            Style::Good => "\x1b[32m",
            Style::Warn => "\x1b[1;33m",
            Style::Bad => "\x1b[1;31m",
        }
    }
}

/// The terminal printer shared by the chat loop, the event renderer and the confirmer.
#[derive(Debug)]
pub(crate) struct Ui {
    color: bool,
    /// `true` while stdout's cursor is after streamed text with no newline yet.
    mid_line: Mutex<bool>,
}

impl Ui {
    /// Colours when stdout is a terminal and `NO_COLOR` is not set.
    pub(crate) fn for_stdout() -> Self {
        let color = std::io::stdout().is_terminal()
            && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
        Self::plain(color)
    }

    /// A printer with colours on or off.
    pub(crate) fn plain(color: bool) -> Self {
        Self {
            color,
            mid_line: Mutex::new(false),
        }
    }

    /// `text` in `style` (escape codes only when colours are on).
    pub(crate) fn paint(&self, style: Style, text: &str) -> String {
        if self.color && style != Style::Plain {
            format!("{}{text}\x1b[0m", style.code())
        } else {
            text.to_owned()
        }
    }

    /// Prints a whole line on stdout.
    pub(crate) fn line(&self, style: Style, text: &str) {
        let painted = self.paint(style, text);
        self.write_stdout(|mid_line| {
            let mut out = String::new();
            if *mid_line {
                out.push('\n');
            }
            out.push_str(&painted);
            out.push('\n');
            *mid_line = false;
            out
        });
    }

    /// Prints an empty line.
    pub(crate) fn blank(&self) {
        self.line(Style::Plain, "");
    }

    /// Streams a piece of the model's answer: no newline, flushed at once.
    pub(crate) fn stream(&self, text: &str) {
        if text.is_empty() {
            return;
        }
        self.write_stdout(|mid_line| {
            *mid_line = !text.ends_with('\n');
            text.to_owned()
        });
    }

    /// Ends a streamed answer with a newline if it needs one.
    pub(crate) fn end_stream(&self) {
        self.write_stdout(|mid_line| {
            let out = if *mid_line { "\n" } else { "" };
            *mid_line = false;
            out.to_owned()
        });
    }

    /// Shows a prompt for a piped read (on a terminal the line editor draws its own).
    pub(crate) fn prompt(&self, prompt: &str) {
        let painted = self.paint(Style::Bold, prompt);
        self.write_stdout(|mid_line| {
            let out = if *mid_line {
                format!("\n{painted}")
            } else {
                painted
            };
            *mid_line = true;
            out
        });
    }

    /// Echoes a piped line after its prompt, so the transcript shows what was answered.
    /// Control characters are replaced: echoing an escape sequence could garble the terminal.
    pub(crate) fn echo_input(&self, text: &str) {
        let shown: String = text
            .chars()
            .map(|c| if c.is_control() { '\u{fffd}' } else { c })
            .collect();
        self.write_stdout(|mid_line| {
            *mid_line = false;
            format!("{shown}\n")
        });
    }

    /// Prints an error as one line on stderr (`오류: …`).
    pub(crate) fn error(&self, message: &str) {
        self.end_stream();
        let text = self.paint_stderr(Style::Bad, &format!("오류: {message}"));
        let mut err = std::io::stderr().lock();
        let _ = writeln!(err, "{text}");
        let _ = err.flush();
    }

    /// Prints a progress or status line on stderr (model loading).
    pub(crate) fn status(&self, text: &str) {
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "{text}");
        let _ = err.flush();
    }

    /// `text` in `style` for stderr (coloured only when stderr is a terminal).
    pub(crate) fn paint_stderr(&self, style: Style, text: &str) -> String {
        if std::io::stderr().is_terminal()
            && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            && style != Style::Plain
        {
            format!("{}{text}\x1b[0m", style.code())
        } else {
            text.to_owned()
        }
    }

    fn write_stdout(&self, render: impl FnOnce(&mut bool) -> String) {
        let mut mid_line = self.lock();
        let text = render(&mut mid_line);
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
    }

    fn lock(&self) -> MutexGuard<'_, bool> {
        // The flag is only a layout hint; a poisoned lock still holds a usable value.
        self.mid_line.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Shortens `text` to at most `max` characters on one line (newlines become spaces), with `…`.
pub(crate) fn one_line(text: &str, max: usize) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let flat = flat.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        flat
    } else {
        let mut cut: String = flat.chars().take(max.saturating_sub(1)).collect();
        cut.push('…');
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_flattens_and_shortens() {
        assert_eq!(one_line("가\n나\t다  라", 20), "가 나 다 라");
        assert_eq!(one_line("abcdef", 4), "abc…");
        assert_eq!(one_line("", 4), "");
    }

    #[test]
    fn paint_adds_codes_only_with_colour() {
        assert_eq!(Ui::plain(false).paint(Style::Bad, "x"), "x");
        assert_eq!(Ui::plain(true).paint(Style::Bad, "x"), "\x1b[1;31mx\x1b[0m");
        assert_eq!(Ui::plain(true).paint(Style::Plain, "x"), "x");
    }
}
