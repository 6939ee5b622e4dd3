//! The wire, checked strictly: newline-delimited JSON-RPC over the server's stdio, where every
//! line the server writes is numbered ([`Line`]), decoded as the revision's `ServerMessage` and
//! encoded back to the same JSON ([`decode_message`]), and every response's `result` is decoded
//! as the result type of the request it answers ([`decode_result`]). Anything else is a
//! [`ProtocolError`] that names the line and says why.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::str::FromStr;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use mcp_typed::jsonrpc::{DecodeError, RawMessage, Request};
use mcp_wire_check::Side;
use serde::Serialize;
use serde_json::Value;

/// How long the client waits for the response to one request.
pub(crate) const RESPONSE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a server has to exit once its stdin is closed, before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(5);

// ---- Errors

/// Why the run stopped: the server broke the protocol, or could not be talked to.
#[derive(Debug)]
pub(crate) struct ProtocolError(String);

impl ProtocolError {
    pub(crate) fn new(message: impl Into<String>) -> Self {
        Self(message.into())
    }
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

pub(crate) type Outcome<T> = Result<T, ProtocolError>;

// ---- The connection: newline-delimited JSON-RPC over the server's stdio

/// A line the server wrote, numbered from 1 so that a failed check can say which.
#[derive(Debug)]
pub(crate) struct Line {
    pub(crate) number: usize,
    pub(crate) text: String,
}

/// What reading the server's stdout gave.
#[derive(Debug)]
enum Received {
    Line(Line),
    /// Nothing before the deadline.
    Timeout,
    /// The server closed its stdout (it exited, or is exiting).
    Closed,
}

#[derive(Debug)]
pub(crate) struct Connection {
    child: Child,
    /// `None` once closed (the signal for the server to exit).
    stdin: Option<ChildStdin>,
    /// The server's stdout, line by line, read on a thread so that waiting can time out.
    lines: Receiver<io::Result<String>>,
    received: usize,
    log: Option<File>,
    next_id: i64,
    exited: bool,
}

impl Connection {
    pub(crate) fn spawn(command: &[String], log: Option<&Path>) -> io::Result<Self> {
        let log = log
            .map(|path| OpenOptions::new().create(true).append(true).open(path))
            .transpose()?;
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            // The server's diagnostics go straight to the user.
            .stderr(Stdio::inherit())
            .spawn()?;
        let stdout = child.stdout.take().ok_or(io::ErrorKind::BrokenPipe)?;
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let failed = line.is_err();
                if sender.send(line).is_err() || failed {
                    break;
                }
            }
        });
        Ok(Self {
            stdin: child.stdin.take(),
            child,
            lines,
            received: 0,
            log,
            next_id: 0,
            exited: false,
        })
    }

    /// A fresh JSON-RPC id: every request gets its own, retries included.
    pub(crate) fn next_id(&mut self) -> i64 {
        self.next_id += 1;
        self.next_id
    }

    pub(crate) fn send(&mut self, message: &impl Serialize) -> Outcome<()> {
        let text = serde_json::to_string(message)
            .map_err(|e| ProtocolError::new(format!("cannot encode a message: {e}")))?;
        self.log(Side::Client, &text)?;
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| ProtocolError::new("the server's stdin is closed"))?;
        writeln!(stdin, "{text}")
            .and_then(|()| stdin.flush())
            .map_err(|e| ProtocolError::new(format!("cannot write to the server: {e}")))
    }

    /// The next line the server writes before `deadline`.
    fn read(&mut self, deadline: Instant) -> Outcome<Received> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(Ok(text)) => {
                self.received += 1;
                self.log(Side::Server, &text)?;
                Ok(Received::Line(Line {
                    number: self.received,
                    text,
                }))
            }
            Ok(Err(error)) => Err(ProtocolError::new(format!(
                "line {}: cannot read it: {error}",
                self.received + 1
            ))),
            Err(RecvTimeoutError::Timeout) => Ok(Received::Timeout),
            Err(RecvTimeoutError::Disconnected) => Ok(Received::Closed),
        }
    }

    /// The next line while the response to `method` is awaited: nothing before `deadline`, or
    /// a server that stops writing, is an error.
    pub(crate) fn receive_for(&mut self, method: &str, deadline: Instant) -> Outcome<Line> {
        match self.read(deadline)? {
            Received::Line(line) => Ok(line),
            Received::Timeout => Err(ProtocolError::new(format!(
                "no response to `{method}` within {} s",
                RESPONSE_TIMEOUT.as_secs()
            ))),
            Received::Closed => Err(ProtocolError::new(format!(
                "the server closed its stdout before answering `{method}` ({})",
                self.exit_status()
            ))),
        }
    }

    /// Closes the server's stdin, checks what it still writes (late notifications) with
    /// `check`, and waits for it to exit.
    pub(crate) fn finish(&mut self, mut check: impl FnMut(&Line) -> Outcome<()>) -> Outcome<()> {
        drop(self.stdin.take());
        let deadline = Instant::now() + EXIT_GRACE;
        // A server that exits closes its stdout; one that does not is killed by `stop`.
        while let Received::Line(line) = self.read(deadline)? {
            check(&line)?;
        }
        self.stop(deadline);
        Ok(())
    }

    /// Waits for the server until `deadline`, then kills it.
    fn stop(&mut self, deadline: Instant) {
        drop(self.stdin.take());
        while !self.exited && Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => self.exited = true,
                Ok(None) => thread::sleep(Duration::from_millis(20)),
            }
        }
        if !self.exited {
            eprintln!(
                "client: the server did not exit within {} s; killing it",
                EXIT_GRACE.as_secs()
            );
            let _ = self.child.kill();
            let _ = self.child.wait();
            self.exited = true;
        }
    }

    /// How the server ended, for the message about a closed stdout.
    fn exit_status(&mut self) -> String {
        // Its stdout closes a moment before the process is gone.
        for _ in 0..50 {
            if let Ok(Some(status)) = self.child.try_wait() {
                self.exited = true;
                return format!("it exited: {status}");
            }
            thread::sleep(Duration::from_millis(20));
        }
        "it is still running".to_owned()
    }

    /// Appends `text`, a line `from` sent, to the log: a record of `mcp-check`'s format
    /// (`mcp_wire_check::traffic`), the conversation named after this process so that the
    /// runs appended to one file stay apart; a line that is no JSON goes under `text`.
    fn log(&mut self, from: Side, text: &str) -> Outcome<()> {
        let Some(file) = &mut self.log else {
            return Ok(());
        };
        let conversation = format!("client {}", std::process::id());
        let record = mcp_wire_check::traffic::Record {
            conversation: Some(&conversation),
            from: Some(from),
            ..Default::default()
        };
        let record = record.line(text);
        writeln!(file, "{record}")
            .map_err(|e| ProtocolError::new(format!("cannot write the log: {e}")))
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.stop(Instant::now() + EXIT_GRACE);
    }
}

// ---- Strict checks of what the server sends

/// Decodes a line as `M`, the `ServerMessage` of the revision spoken, and checks that the
/// typed message encodes back to the same JSON: nothing the server sent was dropped or changed.
pub(crate) fn decode_message<M>(line: &Line) -> Outcome<M>
where
    M: FromStr<Err = DecodeError> + Serialize,
{
    let message: M = line.text.parse().map_err(|error: DecodeError| {
        ProtocolError::new(format!(
            "line {}: not a valid server message: {error}\n  line: {}",
            line.number, line.text
        ))
    })?;
    same_json(line, "the message", &line.text, &message)?;
    Ok(message)
}

/// Decodes the `result` of a response as the result type `R` pairs with: the type the request
/// that was sent promises, rather than whatever type a result with these members could be.
pub(crate) fn decode_result<R: Request>(line: &Line) -> Outcome<R::Result> {
    let raw = RawMessage::parse(&line.text)
        .map_err(|e| ProtocolError::new(format!("line {}: {e}", line.number)))?;
    let result = raw.result.ok_or_else(|| {
        ProtocolError::new(format!("line {}: a response without `result`", line.number))
    })?;
    let typed: R::Result = serde_json::from_str(result.get()).map_err(|error| {
        ProtocolError::new(format!(
            "line {}: the result of `{}` does not decode as its result type: {error}\n  result: {}",
            line.number,
            R::METHOD,
            result.get()
        ))
    })?;
    let what = format!("the result of `{}`", R::METHOD);
    same_json(line, &what, result.get(), &typed)?;
    Ok(typed)
}

/// `decoded` must encode to the JSON of `received`, compared as JSON values (a peer may order
/// members or space its text differently; numbers must stay as written: `2.0` is not `2`).
fn same_json(line: &Line, what: &str, received: &str, decoded: &impl Serialize) -> Outcome<()> {
    let received: Value = serde_json::from_str(received)
        .map_err(|e| ProtocolError::new(format!("line {}: not JSON: {e}", line.number)))?;
    let encoded = serde_json::to_value(decoded).map_err(|e| {
        ProtocolError::new(format!(
            "line {}: {what} cannot be encoded again: {e}",
            line.number
        ))
    })?;
    match first_difference(&received, &encoded, String::new()) {
        None => Ok(()),
        Some((pointer, was, became)) => Err(ProtocolError::new(format!(
            "line {}: {what} does not encode back to what was received: at `{pointer}` the server \
             sent {was}, the decoded value writes {became}\n  line: {}",
            line.number, line.text
        ))),
    }
}

/// Where two JSON values first differ: a JSON pointer and both sides (`absent` for a member
/// one side lacks).
fn first_difference(a: &Value, b: &Value, pointer: String) -> Option<(String, String, String)> {
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => {
            for key in a.keys().chain(b.keys()) {
                let here = format!("{pointer}/{}", mcp_typed::json_pointer::escape(key));
                match (a.get(key), b.get(key)) {
                    (Some(x), Some(y)) => {
                        if let Some(found) = first_difference(x, y, here) {
                            return Some(found);
                        }
                    }
                    (x, y) => return Some((here, shown(x), shown(y))),
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (x, y))| first_difference(x, y, format!("{pointer}/{i}"))),
        _ if a == b => None,
        _ => Some((pointer, a.to_string(), b.to_string())),
    }
}

fn shown(value: Option<&Value>) -> String {
    value.map_or_else(|| "absent".to_owned(), Value::to_string)
}

/// The error response to one of our requests, as a message.
pub(crate) fn error_text(method: &str, code: i64, message: &str) -> String {
    format!("the server answered `{method}` with error {code}: {message}")
}
