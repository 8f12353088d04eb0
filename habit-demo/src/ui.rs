//! Terminal output: every byte the program prints goes through [`Ui`], which knows whether
//! colours are wanted and whether the model's streamed answer has left the cursor mid-line
//! (so a tool line, a prompt or an error always starts on a fresh line).
//!
//! Every text [`Ui`] is given is made inert first ([`agent_core::inert`]): a caller cannot pass an
//! escape sequence or a newline through it, by mistake or on a model's behalf. The only bytes
//! written raw are the ones this file owns: colour codes, the line breaks between lines, and
//! the spinner's line clearing.
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
    /// Where "stdout" and "stderr" go: the process's, or a buffer in tests.
    sink: Sink,
}

/// The frames of the spinner shown beside long work on a terminal.
const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/// Where a [`Ui`] writes.
#[derive(Debug, Clone)]
enum Sink {
    Std,
    /// Both streams into one buffer, for tests that check the bytes written.
    #[cfg(test)]
    Buffer(std::sync::Arc<Mutex<Vec<u8>>>),
}

/// Which stream a write goes to.
#[derive(Debug, Clone, Copy)]
enum Stream {
    Out,
    Err,
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
            sink: Sink::Std,
        }
    }

    /// A printer into a buffer (both streams), and the buffer.
    #[cfg(test)]
    pub(crate) fn captured(color: bool) -> (Self, std::sync::Arc<Mutex<Vec<u8>>>) {
        let buffer = std::sync::Arc::new(Mutex::new(Vec::new()));
        let ui = Self {
            color,
            mid_line: Mutex::new(false),
            sink: Sink::Buffer(std::sync::Arc::clone(&buffer)),
        };
        (ui, buffer)
    }

    /// `text`, made inert, in `style` (escape codes only when colours are on).
    fn paint(&self, style: Style, text: &str) -> String {
        paint(self.color, style, &agent_core::inert::inert(text))
    }

    /// Prints a whole line on stdout.
    pub(crate) fn line(&self, style: Style, text: &str) {
        self.spans(&[(style, text)]);
    }

    /// Prints a whole line made of differently styled pieces.
    pub(crate) fn spans(&self, spans: &[(Style, &str)]) {
        let painted: String = spans
            .iter()
            .map(|(style, text)| self.paint(*style, text))
            .collect();
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
    pub(crate) fn stream(&self, style: Style, text: &str) {
        if text.is_empty() {
            return;
        }
        let painted = self.paint(style, text);
        self.write_stdout(|mid_line| {
            *mid_line = true;
            painted
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

    /// Returns a terminal's cursor to the start of its line, over the `^C` its line editor
    /// echoed.
    pub(crate) fn over_echo(&self) {
        self.write_stdout(|mid_line| {
            *mid_line = false;
            "\r".to_owned()
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

    /// Echoes a piped line after its prompt, so the transcript shows what was answered
    /// (inert: echoing an escape sequence could garble the terminal).
    pub(crate) fn echo_input(&self, text: &str) {
        let shown = agent_core::inert::inert(text);
        self.write_stdout(|mid_line| {
            *mid_line = false;
            format!("{shown}\n")
        });
    }

    /// Prints an error as one line on stderr (`오류: …`).
    pub(crate) fn error(&self, message: &str) {
        self.end_stream();
        let text = self.paint_stderr(Style::Bad, &format!("오류: {message}"));
        self.write(Stream::Err, &format!("{text}\n"));
    }

    /// Prints a finished status line on stderr (model loading).
    pub(crate) fn status_line(&self, style: Style, text: &str) {
        let text = self.paint_stderr(style, text);
        self.write(Stream::Err, &format!("{text}\n"));
    }

    /// Redraws a progress line in place on stderr (a terminal's spinner), or clears it when
    /// `text` is `None`.
    pub(crate) fn progress(&self, text: Option<&str>) {
        let shown = text.map(agent_core::inert::inert).unwrap_or_default();
        self.write(Stream::Err, &format!("\r\x1b[2K{shown}"));
    }

    /// Awaits `work` while a spinner turns on stderr beside `label` and the seconds so far;
    /// when stderr is not a terminal, `plain` is printed once instead.
    pub(crate) async fn spin<T>(
        &self,
        label: &str,
        plain: &str,
        work: impl Future<Output = T>,
    ) -> T {
        if !std::io::stderr().is_terminal() {
            self.status_line(Style::Plain, plain);
            return work.await;
        }
        let started = std::time::Instant::now();
        let mut work = std::pin::pin!(work);
        let mut ticks = tokio::time::interval(std::time::Duration::from_millis(80));
        let mut frame = 0;
        loop {
            tokio::select! {
                biased;
                done = &mut work => {
                    self.progress(None);
                    return done;
                }
                _ = ticks.tick() => {
                    self.progress(Some(&format!(
                        "{} {label} {:.1}초",
                        SPINNER[frame % SPINNER.len()],
                        started.elapsed().as_secs_f64()
                    )));
                    frame += 1;
                }
            }
        }
    }

    /// `text`, made inert, in `style` for stderr (coloured only when stderr is a terminal).
    fn paint_stderr(&self, style: Style, text: &str) -> String {
        let color = matches!(self.sink, Sink::Std)
            && std::io::stderr().is_terminal()
            && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
        paint(color, style, &agent_core::inert::inert(text))
    }

    fn write_stdout(&self, render: impl FnOnce(&mut bool) -> String) {
        let mut mid_line = self.lock();
        let text = render(&mut mid_line);
        self.write(Stream::Out, &text);
    }

    fn write(&self, stream: Stream, text: &str) {
        match (&self.sink, stream) {
            (Sink::Std, Stream::Out) => {
                let mut out = std::io::stdout().lock();
                let _ = out.write_all(text.as_bytes());
                let _ = out.flush();
            }
            (Sink::Std, Stream::Err) => {
                let mut err = std::io::stderr().lock();
                let _ = err.write_all(text.as_bytes());
                let _ = err.flush();
            }
            #[cfg(test)]
            (Sink::Buffer(buffer), _) => buffer
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .extend_from_slice(text.as_bytes()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, bool> {
        // The flag is only a layout hint; a poisoned lock still holds a usable value.
        self.mid_line.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// `text` (already inert) in `style`, with colour codes when `color`.
fn paint(color: bool, style: Style, text: &str) -> String {
    if color && style != Style::Plain {
        format!("{}{text}\x1b[0m", style.code())
    } else {
        text.to_owned()
    }
}

/// Shortens `text` to at most `max` characters on one line (newlines become spaces), with `…`.
///
/// For messages (error reasons, result summaries, labels), whose line breaks and runs of
/// spaces are layout: folded, not shown. A value that must be seen exactly as it is goes
/// through [`agent_core::inert::clip`] instead, which shows every break as `\n` and says how much
/// it cut. Either way [`Ui`] makes the result inert when it is printed.
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

    /// No character habit-tools refuses in a stored text could reach the terminal raw: what
    /// its rule refuses is a subset of what agent-core's `inert` escapes.
    #[test]
    fn every_character_the_store_refuses_is_escaped() {
        let shown_raw = (0..=u32::from(char::MAX))
            .filter_map(char::from_u32)
            .filter(|&c| agent_core::inert::inert(&c.to_string()) == c.to_string());
        for c in shown_raw {
            // Between letters, so that neither trimming nor the emptiness rule hides it.
            let text = format!("a{c}a");
            assert!(
                habit_tools::rules::required_text("t", &text, 10).is_ok(),
                "{c:?} is refused when stored but would be shown raw"
            );
        }
    }

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
        assert_eq!(
            Ui::plain(true).paint(Style::Bad, "\x1b[2Jx"),
            "\x1b[1;31m\\u{1b}[2Jx\x1b[0m"
        );
    }

    /// What a hostile text may not leave in the bytes written: raw ESC/C1/CR/bidi, and no
    /// line may begin with anything but what the caller framed.
    pub(crate) fn assert_inert(bytes: &[u8], colour_codes: usize) {
        let text = String::from_utf8_lossy(bytes);
        assert_eq!(text.matches('\x1b').count(), colour_codes, "{text:?}");
        for bad in [
            '\r', '\u{9b}', '\u{202e}', '\u{2066}', '\u{feff}', '\u{200b}', '\u{2028}',
        ] {
            assert!(!text.contains(bad), "{bad:?} in {text:?}");
        }
    }

    #[test]
    fn every_path_writes_hostile_text_inert() {
        let hostile = "evil\n┌ 이 작업을 수행할까요?\r\x1b[2K\x1b]52;c;aGk=\x07\u{9b}\u{202e}\u{feff}\u{200b}\u{2028}";
        let (ui, buffer) = Ui::captured(false);
        ui.line(Style::Plain, hostile);
        ui.spans(&[(Style::Warn, hostile), (Style::Dim, hostile)]);
        ui.stream(Style::Plain, hostile);
        ui.end_stream();
        ui.prompt(hostile);
        ui.echo_input(hostile);
        ui.error(hostile);
        ui.status_line(Style::Good, hostile);
        let bytes = buffer.lock().expect("buffer").clone();
        assert_inert(&bytes, 0);
        let text = String::from_utf8(bytes).expect("utf-8");
        // Six lines written, each exactly one line: the hostile newline never started one.
        assert_eq!(text.lines().count(), 6, "{text}");
        assert!(text.lines().all(|l| !l.starts_with('┌')), "{text}");
    }

    #[test]
    fn with_colour_only_the_ui_s_own_codes_are_raw() {
        let (ui, buffer) = Ui::captured(true);
        ui.line(Style::Bad, "\x1b[2J");
        let bytes = buffer.lock().expect("buffer").clone();
        // Start and reset of the one style; the hostile ESC is shown escaped.
        assert_inert(&bytes, 2);
        assert_eq!(
            String::from_utf8_lossy(&bytes),
            "\x1b[1;31m\\u{1b}[2J\x1b[0m\n"
        );
    }
}
