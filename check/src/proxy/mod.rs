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

/// Where the checker writes its reports.
pub type ReportSink = Box<dyn Write + Send>;

/// Writes the reports of a proxy as messages are checked, and keeps the totals.
pub(crate) struct Reporter {
    out: ReportSink,
    json: bool,
    summary: Summary,
}

impl Reporter {
    pub(crate) fn new(out: ReportSink, json: bool) -> Reporter {
        Reporter {
            out,
            json,
            summary: Summary::default(),
        }
    }

    /// Checks `entry` with `checker` and reports it under `file`.
    pub(crate) fn check(&mut self, checker: &mut Checker, file: &str, entry: &Entry) {
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
