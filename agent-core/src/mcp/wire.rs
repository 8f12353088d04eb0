//! The connection's wire: newline-delimited JSON-RPC on a pair of byte streams, as the `rmcp`
//! [`Transport`] of the server — one that answers what it cannot read instead of dropping it.
//!
//! `rmcp`'s own stream transport ignores a line that is not JSON and answers a message of the
//! wrong shape with an `Invalid Request` that has no id, dropping the message. A client then
//! waits for its own timeout, and a confirmation whose answer came malformed waits for the
//! whole confirmation time limit. Here every line gets the answer JSON-RPC 2.0 asks for:
//!
//! | line | answer |
//! |---|---|
//! | not JSON (including invalid UTF-8 and nesting deeper than 128 levels) | `-32700` Parse error, id `null` |
//! | JSON that is not one message object (a batch, a number, …) | `-32600` Invalid Request, id `null` |
//! | longer than [`MAX_LINE`] bytes | `-32600` Invalid Request, id `null`; the line is skipped |
//! | a request whose params do not fit its method | `-32602` Invalid params, with the request's id |
//! | a request whose id or method is not readable | `-32600` Invalid Request, id `null` |
//! | a notification that does not fit | nothing: a notification is never answered |
//! | an answer to the server's own request that is not readable, or that carries both `result` and `error` | delivered to the server as an error answer to that request, so what waits for it (a confirmation) ends now, as a no |
//!
//! Replies and the server's own messages go out through one writer task, in order, one line
//! each, so a reply never lands inside another message.

use std::time::Duration;

use rmcp::RoleServer;
use rmcp::model::{ErrorData, RequestId};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::Value;
use tokio::io::{
    AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader,
};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// The longest line read, in bytes (as `rmcp`'s own transport): a longer one is answered
/// and skipped without being kept in memory.
pub(super) const MAX_LINE: usize = 16 * 1024 * 1024;

/// How many messages wait in each direction before the other side is made to wait.
const QUEUE: usize = 64;

/// How long closing waits for the messages still queued to be written.
const DRAIN: Duration = Duration::from_secs(5);

type Incoming = RxJsonRpcMessage<RoleServer>;
type Outgoing = TxJsonRpcMessage<RoleServer>;

/// Why a message could not be sent.
#[derive(Debug, thiserror::Error)]
pub(super) enum WireError {
    /// The writing side has ended: the client closed its end, or writing failed.
    #[error("the connection to the MCP client is closed")]
    Closed,
}

/// The server's transport over `read` and `write`; see the module docs.
pub(super) struct LineTransport {
    incoming: mpsc::Receiver<Incoming>,
    outgoing: Option<mpsc::Sender<Outgoing>>,
    reader: JoinHandle<()>,
    writer: Option<JoinHandle<()>>,
}

impl LineTransport {
    /// Starts reading `read` and writing `write` on the current Tokio runtime.
    pub(super) fn new<R, W>(read: R, write: W) -> Self
    where
        R: AsyncRead + Send + Unpin + 'static,
        W: AsyncWrite + Send + Unpin + 'static,
    {
        let (to_server, incoming) = mpsc::channel(QUEUE);
        let (outgoing, to_client) = mpsc::channel(QUEUE);
        let reader = tokio::spawn(read_lines(
            BufReader::new(read),
            to_server,
            outgoing.clone(),
        ));
        let writer = tokio::spawn(write_lines(write, to_client));
        Self {
            incoming,
            outgoing: Some(outgoing),
            reader,
            writer: Some(writer),
        }
    }
}

impl Transport<RoleServer> for LineTransport {
    type Error = WireError;

    fn send(
        &mut self,
        item: Outgoing,
    ) -> impl Future<Output = Result<(), WireError>> + Send + 'static {
        let outgoing = self.outgoing.clone();
        async move {
            match outgoing {
                Some(outgoing) => outgoing.send(item).await.map_err(|_| WireError::Closed),
                None => Err(WireError::Closed),
            }
        }
    }

    fn receive(&mut self) -> impl Future<Output = Option<Incoming>> + Send {
        self.incoming.recv()
    }

    /// Stops reading, then lets the writer finish what is queued (for at most [`DRAIN`]).
    async fn close(&mut self) -> Result<(), WireError> {
        self.reader.abort();
        let _ = (&mut self.reader).await;
        self.outgoing = None;
        if let Some(writer) = self.writer.take() {
            let _ = tokio::time::timeout(DRAIN, writer).await;
        }
        Ok(())
    }
}

impl Drop for LineTransport {
    fn drop(&mut self) {
        self.reader.abort();
    }
}

/// Reads lines until the client closes its end (or the server stops listening), passing
/// messages to the server and answering the rest.
async fn read_lines<R: AsyncBufRead + Unpin>(
    mut read: R,
    to_server: mpsc::Sender<Incoming>,
    replies: mpsc::Sender<Outgoing>,
) {
    let mut line = Vec::new();
    loop {
        let read_line = match next_line(&mut read, &mut line).await {
            Ok(Line::End) | Err(_) => return,
            Ok(Line::TooLong) => Read::Reply(invalid_request(&format!(
                "a message longer than {MAX_LINE} bytes"
            ))),
            Ok(Line::Whole) => read_message(&line),
        };
        let delivered = match read_line {
            Read::Message(message) => to_server.send(message).await.is_ok(),
            Read::Reply(reply) => replies.send(reply).await.is_ok(),
            Read::Nothing => true,
        };
        if !delivered {
            return;
        }
    }
}

/// Writes each message as one line until every sender is gone or writing fails.
async fn write_lines<W: AsyncWrite + Unpin>(mut write: W, mut to_client: mpsc::Receiver<Outgoing>) {
    while let Some(message) = to_client.recv().await {
        // The protocol's own types always serialize; a message that did not would be skipped
        // rather than end the connection.
        let Ok(mut message) = serde_json::to_value(&message) else {
            continue;
        };
        // JSON-RPC 2.0: an error answer to a request whose id could not be read has
        // `"id": null`; `rmcp` leaves the member out.
        if let Value::Object(object) = &mut message
            && object.contains_key("error")
        {
            object.entry("id").or_insert(Value::Null);
        }
        let Ok(mut line) = serde_json::to_vec(&message) else {
            continue;
        };
        line.push(b'\n');
        if write.write_all(&line).await.is_err() || write.flush().await.is_err() {
            return;
        }
    }
}

/// What [`next_line`] found.
#[derive(Debug, PartialEq)]
enum Line {
    /// A line is in the buffer (its newline, if it had one, included).
    Whole,
    /// The line was longer than [`MAX_LINE`]; it was skipped.
    TooLong,
    /// The stream ended.
    End,
}

/// Reads the next line into `line` (cleared first), never keeping more than [`MAX_LINE`]
/// bytes of it.
async fn next_line<R: AsyncBufRead + Unpin>(
    read: &mut R,
    line: &mut Vec<u8>,
) -> std::io::Result<Line> {
    line.clear();
    let bound = u64::try_from(MAX_LINE)
        .unwrap_or(u64::MAX)
        .saturating_add(1);
    if (&mut *read).take(bound).read_until(b'\n', line).await? == 0 {
        return Ok(Line::End);
    }
    if line.last() == Some(&b'\n') || line.len() <= MAX_LINE {
        return Ok(Line::Whole);
    }
    // Skip the rest of the oversized line, a bounded piece at a time.
    loop {
        line.clear();
        let read_now = (&mut *read).take(64 * 1024).read_until(b'\n', line).await?;
        if read_now == 0 || line.last() == Some(&b'\n') {
            line.clear();
            return Ok(Line::TooLong);
        }
    }
}

/// What one line means to the server.
#[derive(Debug)]
enum Read {
    /// A message for the server.
    Message(Incoming),
    /// An answer the wire gives itself.
    Reply(Outgoing),
    /// Nothing to do: a blank line, or a notification that does not fit.
    Nothing,
}

/// Reads one line; see the module docs for what each kind of line gets.
fn read_message(line: &[u8]) -> Read {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Read::Nothing;
    }
    let value: Value = match serde_json::from_slice(line) {
        Ok(value) => value,
        Err(error) => {
            return Read::Reply(Outgoing::error(
                ErrorData::parse_error(format!("Parse error: {error}"), None),
                None,
            ));
        }
    };
    let Value::Object(object) = value else {
        return Read::Reply(invalid_request(
            "a message must be one JSON-RPC object (MCP has no batches)",
        ));
    };
    let id = object
        .get("id")
        .and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok());
    let method = object.get("method").map(Value::is_string);
    if method.is_none() && object.contains_key("result") && object.contains_key("error") {
        return answer_not_readable(id, "the answer carried both a result and an error");
    }
    let error = match serde_json::from_value::<Incoming>(Value::Object(object.clone())) {
        Ok(message) => return Read::Message(message),
        Err(error) => error,
    };
    match (method, id, object.contains_key("id")) {
        // A notification is never answered, not even when it does not fit.
        (Some(_), None, false) => Read::Nothing,
        (Some(true), Some(id), _) => {
            let method = object
                .get("method")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let method: String = method.chars().take(64).collect();
            Read::Reply(Outgoing::error(
                ErrorData::invalid_params(
                    format!("Invalid params: not the params of `{method}` ({error})"),
                    None,
                ),
                Some(id),
            ))
        }
        (None, id, _) => answer_not_readable(id, &format!("the answer could not be read: {error}")),
        _ => Read::Reply(invalid_request(&format!("Invalid Request: {error}"))),
    }
}

/// An answer to one of the server's requests that cannot stand as it is: delivered as an
/// error answer to that request, or, without a readable id, answered as invalid.
fn answer_not_readable(id: Option<RequestId>, why: &str) -> Read {
    match id {
        Some(id) => Read::Message(Incoming::error(
            ErrorData::invalid_request(format!("Invalid answer: {why}"), None),
            Some(id),
        )),
        None => Read::Reply(invalid_request(why)),
    }
}

/// An `Invalid Request` without an id.
fn invalid_request(why: &str) -> Outgoing {
    Outgoing::error(ErrorData::invalid_request(why.to_owned(), None), None)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_line_over_the_bound_is_skipped_and_the_next_one_read() {
        let mut bytes = vec![b'x'; 3 * MAX_LINE];
        bytes.extend_from_slice(b"\n{\"a\":1}\nlast");
        let mut read = BufReader::new(&bytes[..]);
        let mut line = Vec::new();
        assert_eq!(
            next_line(&mut read, &mut line).await.unwrap(),
            Line::TooLong
        );
        // At most the bound is kept (the buffer's doubling aside), not the line.
        assert!(line.capacity() <= 2 * (MAX_LINE + 1), "never kept whole");
        assert_eq!(next_line(&mut read, &mut line).await.unwrap(), Line::Whole);
        assert_eq!(line, b"{\"a\":1}\n");
        // A last line without its newline is still a line.
        assert_eq!(next_line(&mut read, &mut line).await.unwrap(), Line::Whole);
        assert_eq!(line, b"last");
        assert_eq!(next_line(&mut read, &mut line).await.unwrap(), Line::End);
    }

    #[test]
    fn a_line_exactly_at_the_bound_is_read() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let bytes = vec![b' '; MAX_LINE];
        let mut read = BufReader::new(&bytes[..]);
        let mut line = Vec::new();
        let found = runtime.block_on(next_line(&mut read, &mut line)).unwrap();
        assert_eq!(found, Line::Whole);
        assert!(matches!(read_message(&line), Read::Nothing));
    }

    #[test]
    fn an_answer_with_both_parts_is_an_error_answer_to_its_request() {
        let line = br#"{"jsonrpc":"2.0","id":3,"result":{},"error":{"code":1,"message":"m"}}"#;
        let Read::Message(message) = read_message(line) else {
            panic!("delivered to the server");
        };
        let wire = serde_json::to_value(&message).unwrap();
        assert_eq!(wire["id"], 3, "{wire}");
        assert_eq!(wire["error"]["code"], -32600, "{wire}");
        assert!(wire.get("result").is_none(), "{wire}");
    }
}
