//! Where typed lines come from: one [`LineSource`] shared by the chat loop and the confirmation
//! prompt, so chat messages and `[y/N]` answers are read from one stream, in order.
//!
//! On a terminal the lines come from a `rustyline` editor (history, cursor keys, wide Korean
//! characters). The editor blocks, so it lives on its own thread and the async side asks it
//! for one line at a time — the prompt is only shown when a line is wanted. Anything else
//! (a pipe, a file) is read by a thread that forwards every line as soon as it arrives;
//! the prompt and the line are then echoed to stdout so the output reads like a transcript.
//! Bytes that are not UTF-8 are replaced rather than refused: nothing typed may end the program.
//!
//! A line is at most [`MAX_LINE_BYTES`] long. A longer one is not read into memory whole (a
//! 50 MB line from a pipe would be): its first bytes are kept only to be thrown away, the rest
//! is skipped up to its end, and the reader gets [`Line::TooLong`] — the chat says so, and a
//! confirmation counts it as no.

use std::io::{BufRead, IsTerminal};
use std::sync::{Arc, mpsc};

use rustyline::error::ReadlineError;
use tokio::sync::{Mutex, oneshot};

use crate::ui::Ui;

/// One read from the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Line {
    /// A line, without its line ending.
    Text(String),
    /// A line longer than [`MAX_LINE_BYTES`], dropped unread.
    TooLong {
        /// Its length in bytes (without the line ending).
        bytes: usize,
    },
    /// Ctrl-C at the prompt (terminal only).
    Interrupted,
    /// End of input: Ctrl-D, a closed pipe, or a read error.
    Eof,
}

/// The longest line read, in bytes: far more than any chat message or answer needs (the
/// model's context holds about 8,000 tokens in all).
pub(crate) const MAX_LINE_BYTES: usize = 4096;

/// Whether a line read should go into the editor's history (chat messages do, `y`/`n` don't).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum History {
    /// Remember the line for the up-arrow.
    Keep,
    /// Don't.
    Skip,
}

/// The shared source of typed lines; cheap to clone.
#[derive(Clone)]
pub(crate) struct LineSource {
    inner: Arc<Inner>,
}

enum Inner {
    Terminal {
        requests: mpsc::Sender<Request>,
    },
    Piped {
        lines: Mutex<tokio::sync::mpsc::UnboundedReceiver<Line>>,
        ui: Arc<Ui>,
    },
}

struct Request {
    prompt: String,
    history: History,
    reply: oneshot::Sender<Line>,
}

impl LineSource {
    /// A source over this process's stdin: the line editor when stdin is a terminal, plain
    /// lines otherwise.
    ///
    /// # Errors
    /// When the terminal cannot be set up for line editing.
    pub(crate) fn stdin(ui: Arc<Ui>) -> Result<Self, ReadlineError> {
        if std::io::stdin().is_terminal() {
            Self::terminal()
        } else {
            Ok(Self::piped(std::io::BufReader::new(std::io::stdin()), ui))
        }
    }

    /// `true` when lines come from the interactive line editor.
    pub(crate) fn is_terminal(&self) -> bool {
        matches!(*self.inner, Inner::Terminal { .. })
    }

    fn terminal() -> Result<Self, ReadlineError> {
        let mut editor = rustyline::DefaultEditor::new()?;
        let (requests, receiver) = mpsc::channel::<Request>();
        std::thread::Builder::new()
            .name("line-editor".to_owned())
            .spawn(move || {
                for request in receiver {
                    let line = match editor.readline(&request.prompt) {
                        Ok(text) if text.len() > MAX_LINE_BYTES => {
                            Line::TooLong { bytes: text.len() }
                        }
                        Ok(text) => {
                            if request.history == History::Keep && !text.trim().is_empty() {
                                // History is a convenience; failing to record is harmless.
                                let _ = editor.add_history_entry(text.as_str());
                            }
                            Line::Text(text)
                        }
                        Err(ReadlineError::Interrupted) => Line::Interrupted,
                        Err(_) => Line::Eof,
                    };
                    // The asker may have gone (its turn was cancelled); the line is dropped.
                    let _ = request.reply.send(line);
                }
            })
            .map_err(ReadlineError::Io)?;
        Ok(Self {
            inner: Arc::new(Inner::Terminal { requests }),
        })
    }

    /// A source reading `reader` line by line on a background thread (stdin when it is not a
    /// terminal; any reader in tests).
    pub(crate) fn piped(reader: impl BufRead + Send + 'static, ui: Arc<Ui>) -> Self {
        let (sender, receiver) = tokio::sync::mpsc::unbounded_channel();
        // The thread ends at end of input; it is not joined because a blocked read on stdin
        // cannot be interrupted, and the process may leave while it waits. If it cannot be
        // started, the sender is dropped with the closure and the source reports end of input
        // at once: the program leaves cleanly instead of hanging.
        let _detached = std::thread::Builder::new()
            .name("stdin-lines".to_owned())
            .spawn(move || forward_lines(reader, &sender));
        Self {
            inner: Arc::new(Inner::Piped {
                lines: Mutex::new(receiver),
                ui,
            }),
        }
    }

    /// Shows `prompt` and reads one line.
    pub(crate) async fn read_line(&self, prompt: &str, history: History) -> Line {
        match &*self.inner {
            Inner::Terminal { requests } => {
                let (reply, answer) = oneshot::channel();
                let request = Request {
                    prompt: prompt.to_owned(),
                    history,
                    reply,
                };
                if requests.send(request).is_err() {
                    return Line::Eof;
                }
                answer.await.unwrap_or(Line::Eof)
            }
            Inner::Piped { lines, ui } => {
                ui.prompt(prompt);
                match lines.lock().await.recv().await {
                    Some(Line::Text(text)) => {
                        ui.echo_input(&text);
                        Line::Text(text)
                    }
                    Some(other) => {
                        ui.echo_input("…");
                        other
                    }
                    None => {
                        ui.echo_input("");
                        Line::Eof
                    }
                }
            }
        }
    }
}

/// Sends every line of `reader` (lossily decoded, line ending removed) until end of input, a
/// read error, or the receiver going away; a line over [`MAX_LINE_BYTES`] is skipped to its
/// end without being kept, and sent as [`Line::TooLong`].
fn forward_lines(mut reader: impl BufRead, sender: &tokio::sync::mpsc::UnboundedSender<Line>) {
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        // One byte more than allowed (plus CR LF) tells a long line from one that fits.
        let limit = (MAX_LINE_BYTES + 3) as u64;
        match std::io::Read::take(&mut reader, limit).read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                let ended = buffer.last() == Some(&b'\n');
                while matches!(buffer.last(), Some(b'\n' | b'\r')) {
                    buffer.pop();
                }
                let line = if !ended && buffer.len() > MAX_LINE_BYTES {
                    match skip_line(&mut reader) {
                        Some(rest) => Line::TooLong {
                            bytes: buffer.len() + rest,
                        },
                        None => return,
                    }
                } else if buffer.len() > MAX_LINE_BYTES {
                    Line::TooLong {
                        bytes: buffer.len(),
                    }
                } else {
                    Line::Text(String::from_utf8_lossy(&buffer).into_owned())
                };
                if sender.send(line).is_err() {
                    return;
                }
            }
        }
    }
}

/// Consumes `reader` up to and including the next newline without keeping it; returns how
/// many bytes the line still had (without its ending), or `None` on a read error.
fn skip_line(reader: &mut impl BufRead) -> Option<usize> {
    let mut skipped = 0;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if chunk.is_empty() {
            return Some(skipped);
        }
        if let Some(at) = chunk.iter().position(|b| *b == b'\n') {
            let line_part = if at > 0 && chunk[at - 1] == b'\r' {
                at - 1
            } else {
                at
            };
            skipped += line_part;
            reader.consume(at + 1);
            return Some(skipped);
        }
        let n = chunk.len();
        skipped += n;
        reader.consume(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(bytes: &'static [u8]) -> LineSource {
        LineSource::piped(std::io::Cursor::new(bytes), Arc::new(Ui::plain(false)))
    }

    #[tokio::test]
    async fn piped_lines_come_in_order_then_eof_forever() {
        let lines = source(b"first\r\nsecond\n\nlast");
        let mut read = Vec::new();
        for _ in 0..6 {
            read.push(lines.read_line("> ", History::Keep).await);
        }
        let text = |s: &str| Line::Text(s.to_owned());
        assert_eq!(
            read,
            [
                text("first"),
                text("second"),
                text(""),
                text("last"),
                Line::Eof,
                Line::Eof
            ]
        );
    }

    #[tokio::test]
    async fn invalid_utf8_is_replaced_not_fatal() {
        let lines = source(b"\xff\xfe\xea\xb0\x80\n");
        assert_eq!(
            lines.read_line("> ", History::Skip).await,
            Line::Text("\u{fffd}\u{fffd}가".to_owned())
        );
    }

    #[tokio::test]
    async fn a_line_over_the_limit_is_dropped_and_reported() {
        let mut input = vec![b'a'; 10 * MAX_LINE_BYTES];
        input.extend_from_slice(b"\r\nnext\n");
        input.extend(std::iter::repeat_n(b'b', MAX_LINE_BYTES));
        input.extend_from_slice(b"\n");
        input.extend(std::iter::repeat_n(b'c', MAX_LINE_BYTES + 1));
        let lines = source(Box::leak(input.into_boxed_slice()));
        let mut read = Vec::new();
        for _ in 0..5 {
            read.push(lines.read_line("> ", History::Keep).await);
        }
        assert_eq!(
            read,
            [
                Line::TooLong {
                    bytes: 10 * MAX_LINE_BYTES
                },
                Line::Text("next".into()),
                Line::Text("b".repeat(MAX_LINE_BYTES)),
                Line::TooLong {
                    bytes: MAX_LINE_BYTES + 1
                },
                Line::Eof,
            ]
        );
    }

    #[tokio::test]
    async fn clones_share_one_stream() {
        let lines = source(b"a\nb\n");
        let other = lines.clone();
        assert_eq!(
            lines.read_line("", History::Keep).await,
            Line::Text("a".into())
        );
        assert_eq!(
            other.read_line("", History::Skip).await,
            Line::Text("b".into())
        );
        assert!(!lines.is_terminal());
    }
}
