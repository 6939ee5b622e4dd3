//! `mcp-check proxy`: the checker between a live client and server, in both transports.
//!
//! - [`stdio`] (`mcp-check proxy -- SERVER…`): the proxy starts the server and sits between
//!   its own standard input and output and the server's.
//! - [`http`] (`mcp-check proxy --listen ADDR --upstream URL`): a reverse proxy between a
//!   Streamable HTTP client and server; with `--forward` instead of `--upstream`, a forward
//!   proxy (the client's `HTTP_PROXY`) between clients and any plain `http://` servers.
//!
//! Both forward every byte unchanged and never wait on the checking: copies go over a channel
//! to a thread of their own, which checks them with a [`Checker`] per conversation and writes
//! a report as each message is checked. A check that panics is reported and skipped; the
//! session goes on.
//!
//! Both are bounded whatever the peers send ([`Limits`]): a message is forwarded as its bytes
//! arrive, and the checker keeps at most [`Limits::max_message_bytes`] of it (past that, the
//! message is reported too large, not checked); the HTTP proxy times out a request head that
//! does not come and keeps the conversations of at most [`Limits::max_sessions`] sessions.
//!
//! A JSON report line is [`report::json`]'s, plus the message's JSON-RPC `id` (when it has one)
//! and, for an error response, its `error` code: what a tool needs to tell which request was
//! refused. A line about the proxy itself is `{"file", "line", "note"}`.

pub mod http;
pub mod stdio;

use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::report::{self, Summary};
use crate::session::{Checker, Verdict};
use crate::traffic::Entry;

pub use stdio::{run, Proxy};

/// What the proxies keep at most, whatever the peers send. The defaults are what a proxy gets
/// without flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest message the checker reads (`--max-message-bytes`, 16 MiB): a larger one is
    /// forwarded all the same, as it arrives, but reported too large instead of checked.
    pub max_message_bytes: usize,
    /// The sessions whose conversations the HTTP proxy follows at once (4,096): past it, the
    /// session used least recently is forgotten (reported), and its next message is checked
    /// as traffic without `initialize`.
    pub max_sessions: usize,
    /// How long the HTTP proxy waits for a request's head (30 s) before it closes the
    /// connection.
    pub header_timeout: std::time::Duration,
    /// How many connections the HTTP proxy keeps open at once (4,096, leaving descriptors for
    /// its connections upstream): at the cap it accepts no more until one closes, and new ones
    /// wait in the listen backlog.
    pub max_connections: usize,
    /// How many connections the kernel holds for the HTTP proxy before it accepts them (1,024,
    /// capped by the kernel at `net.core.somaxconn`; a listener bound by the standard library
    /// holds 128). Past it a client's connection waits for a SYN retry, a second or more.
    pub listen_backlog: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_message_bytes: 16 << 20,
            max_sessions: 4096,
            header_timeout: std::time::Duration::from_secs(30),
            max_connections: 4096,
            listen_backlog: 1024,
        }
    }
}

/// Why a message was not checked: it is larger than `limit` (`bytes` of it went by).
pub(crate) fn too_large(bytes: usize, limit: usize) -> String {
    format!(
        "a message of {bytes} bytes was forwarded but not checked: it is larger than \
         --max-message-bytes ({limit})"
    )
}

/// The bytes of one message as a proxy saw them go by, for its checker: kept up to the limit,
/// past it let go and only counted (the message is then reported too large, not checked).
#[derive(Debug, Default)]
pub(crate) struct Capped {
    kept: Vec<u8>,
    length: usize,
    limit: usize,
}

impl Capped {
    pub(crate) fn new(limit: usize) -> Capped {
        Capped {
            limit,
            ..Capped::default()
        }
    }

    /// Adds bytes that went by.
    pub(crate) fn push(&mut self, bytes: &[u8]) {
        self.length += bytes.len();
        if self.length <= self.limit {
            self.kept.extend_from_slice(bytes);
        } else {
            self.kept = Vec::new();
        }
    }

    /// How many bytes went by.
    pub(crate) fn len(&self) -> usize {
        self.length
    }

    /// The bytes, or `Err` with their count when they were more than the limit; empties it.
    pub(crate) fn take(&mut self) -> Result<Vec<u8>, usize> {
        let length = std::mem::take(&mut self.length);
        let kept = std::mem::take(&mut self.kept);
        if length > self.limit {
            Err(length)
        } else {
            Ok(kept)
        }
    }
}

/// Where the checker writes its reports.
pub type ReportSink = Box<dyn Write + Send>;

/// Writes the reports of a proxy as messages are checked (and, with `--record`, the traffic
/// as records: [`crate::traffic::Record`]), and keeps the totals.
pub(crate) struct Reporter {
    out: ReportSink,
    json: bool,
    record: Option<ReportSink>,
    check: bool,
    summary: Summary,
}

impl Reporter {
    pub(crate) fn new(
        out: ReportSink,
        json: bool,
        record: Option<ReportSink>,
        check: bool,
    ) -> Reporter {
        Reporter {
            out,
            json,
            record,
            check,
            summary: Summary::default(),
        }
    }

    /// Checks `entry` with `checker` and reports it under `file` (with checking off, records
    /// and counts it only).
    pub(crate) fn check(&mut self, checker: &mut Checker, file: &str, entry: &Entry) {
        if let (Some(record), Ok(message)) = (&mut self.record, &entry.message) {
            let line = crate::traffic::Record {
                conversation: entry.conversation.as_deref(),
                from: entry.from,
                header_version: entry.header_version.as_deref(),
                revision: checker.assumed(),
            }
            .line(message);
            // A record that cannot be written is lost, never the session.
            let _ = writeln!(record, "{line}").and_then(|()| record.flush());
        }
        if !self.check {
            self.summary.unchecked += 1;
            return;
        }
        // A bug of the checker must not end the checking of the rest, nor the session.
        let verdict = match catch_unwind(AssertUnwindSafe(|| checker.check(entry))) {
            Ok(verdict) => verdict,
            Err(_) => {
                self.note(
                    file,
                    entry.line,
                    "the checker panicked on this message; skipped",
                );
                return;
            }
        };
        self.summary.add(&verdict);
        self.write(file, &verdict);
    }

    fn write(&mut self, file: &str, verdict: &Verdict) {
        let text = if self.json {
            format!("{}\n", report::json(file, verdict))
        } else {
            report::text(file, verdict)
        };
        // A report that cannot be written is lost, never the session.
        let _ = self
            .out
            .write_all(text.as_bytes())
            .and_then(|()| self.out.flush());
    }

    /// A line about the proxy itself (not about a message): `file:line note: text`, or a JSON
    /// object `{"file", "line", "note"}`.
    pub(crate) fn note(&mut self, file: &str, line: usize, text: &str) {
        let out = if self.json {
            format!(
                "{}\n",
                serde_json::json!({"file": file, "line": line, "note": text})
            )
        } else {
            format!("{file}:{line} note: {text}\n")
        };
        let _ = self
            .out
            .write_all(out.as_bytes())
            .and_then(|()| self.out.flush());
    }

    /// The totals; in a text report, written last.
    pub(crate) fn finish(mut self) -> Summary {
        if !self.json {
            let _ = writeln!(self.out, "{}", self.summary).and_then(|()| self.out.flush());
        }
        self.summary
    }
}
