//! `mcp-check proxy -- SERVER…`: sits between a stdio client (this process's standard input
//! and output) and the server it starts, forwards every byte unchanged, and checks a copy of
//! each line as it passes.
//!
//! The forwarding never waits on the checking: each direction is a thread that passes bytes on
//! as they arrive (a line is never held back for its newline) and hands a copy of each whole
//! line over a channel to the checker's thread, so a slow or failing check cannot stall or end
//! the session. The copies are bounded ([`Limits`]): a line longer than the limit is not kept,
//! only counted, and reported too large; and while the checker is more than
//! [`BEHIND_BYTES`] behind, lines go by unchecked, each reported. The proxy exits with the
//! server's status.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;

use super::{too_large, Capped, Limits, ReportSink, Reporter};
use crate::report::Summary;
use crate::revision::Side;
use crate::session::Checker;
use crate::traffic::Entry;

/// What [`run`] needs: the server's command, the checker the conversation starts as, where to
/// report, and whether as JSON lines.
pub struct Proxy {
    /// The server's program and arguments.
    pub command: Vec<String>,
    /// The checker the conversation starts as: the revision assumed before any `initialize`
    /// (`--revision`), the extension schemas (`--extension`), … (`Checker::default()`: none).
    pub checker: Checker,
    /// Where the reports go (a file, or standard error).
    pub report: ReportSink,
    /// A JSON line per message instead of a line per violation.
    pub json: bool,
    /// What the proxy keeps at most.
    pub limits: Limits,
    /// Where to record the traffic (`--record`), as records of [`crate::traffic`].
    pub record: Option<ReportSink>,
    /// Check each message (`false`, `--no-check`: forward, and record, only; the summary
    /// counts the messages).
    pub check: bool,
}

/// How far the checker may fall behind (64 MiB of lines handed over and not yet checked)
/// before lines go by unchecked.
pub const BEHIND_BYTES: usize = 64 << 20;

/// What the forwarding hands the checker of one line.
enum Copy {
    /// The line, to check.
    Line(Vec<u8>),
    /// A line of this many bytes, longer than the limit.
    TooLarge(usize),
    /// A line of this many bytes that went by while the checker was behind.
    Behind(usize),
}

/// The copies one direction hands over, and the bytes of them not yet checked (both
/// directions share it).
#[derive(Clone)]
struct Copies {
    sender: mpsc::Sender<(Side, Copy)>,
    pending: Arc<AtomicUsize>,
}

impl std::fmt::Debug for Proxy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Proxy")
            .field("command", &self.command)
            .field("checker", &self.checker)
            .field("json", &self.json)
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

/// Runs the server behind the proxy until it exits; its exit status, and the checker's totals.
pub fn run(proxy: Proxy) -> std::io::Result<(ExitStatus, Summary)> {
    let (program, args) = proxy.command.split_first().ok_or_else(|| {
        std::io::Error::new(std::io::ErrorKind::InvalidInput, "no server command")
    })?;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()?;
    // Recorded as the conversation `stdio PID` (the server's), apart from other recordings.
    let conversation = format!("stdio {}", child.id());
    let to_server = child.stdin.take().expect("piped");
    let from_server = child.stdout.take().expect("piped");
    let (sender, received) = mpsc::channel();
    let pending = Arc::new(AtomicUsize::new(0));
    let copies = Copies {
        sender,
        pending: pending.clone(),
    };
    let client_copies = copies.clone();
    let limit = proxy.limits.max_message_bytes;
    // Client → server: ends when the client closes its side, which closes the server's input.
    let upstream = thread::spawn(move || {
        let client = std::io::stdin().lock();
        forward(client, to_server, Side::Client, &client_copies, limit)
    });
    let downstream = thread::spawn(move || {
        forward(from_server, std::io::stdout(), Side::Server, &copies, limit)
    });
    let reporter = Reporter::new(proxy.report, proxy.json, proxy.record, proxy.check);
    let template = proxy.checker;
    let checker = thread::spawn(move || {
        check_all(received, &pending, template, reporter, limit, conversation)
    });
    let status = child.wait()?;
    // The server is gone: what it wrote is all read. The client's side may still be open (it
    // is this process's standard input); the checker ends once the server's side has.
    let _ = downstream.join();
    drop(upstream);
    let summary = checker.join().unwrap_or_default();
    Ok((status, summary))
}

/// Copies `from` to `to` as the bytes arrive, flushing each read, and hands a copy of each
/// line over (a line past `limit` bytes only counted).
fn forward(
    from: impl Read,
    mut to: impl Write,
    side: Side,
    copies: &Copies,
    limit: usize,
) -> std::io::Result<()> {
    let mut from = BufReader::new(from);
    let mut line = Capped::new(limit);
    loop {
        let read = from.fill_buf()?;
        if read.is_empty() {
            // The last line, without its newline.
            if line.len() > 0 {
                copies.hand_over(side, line.take());
            }
            return Ok(());
        }
        let (part, ends) = match read.iter().position(|&b| b == b'\n') {
            Some(newline) => (&read[..=newline], true),
            None => (read, false),
        };
        line.push(part);
        // A whole line is handed over before its last bytes go on: the peer cannot answer it
        // before the checker has it, so the checker sees a request before its answer from the
        // other direction's thread.
        if ends {
            copies.hand_over(side, line.take());
        }
        to.write_all(part)?;
        to.flush()?;
        let used = part.len();
        from.consume(used);
    }
}

impl Copies {
    /// Hands over a line ([`Capped::take`]: its byte count when it was too large). The checker
    /// may be gone: it never ends first, and a copy is never worth an error.
    fn hand_over(&self, side: Side, line: Result<Vec<u8>, usize>) {
        let copy = match line {
            Err(length) => Copy::TooLarge(length),
            Ok(line) => {
                let length = line.len();
                if self.pending.fetch_add(length, Ordering::AcqRel) + length > BEHIND_BYTES {
                    self.pending.fetch_sub(length, Ordering::AcqRel);
                    Copy::Behind(length)
                } else {
                    Copy::Line(line)
                }
            }
        };
        let _ = self.sender.send((side, copy));
    }
}

/// Checks each line in the order it passed; reports as it goes, and the totals at the end.
fn check_all(
    copies: mpsc::Receiver<(Side, Copy)>,
    pending: &AtomicUsize,
    mut checker: Checker,
    mut reporter: Reporter,
    limit: usize,
    conversation: String,
) -> Summary {
    let mut number = 0;
    for (side, copy) in copies {
        let bytes = match copy {
            Copy::Line(bytes) => {
                pending.fetch_sub(bytes.len(), Ordering::AcqRel);
                bytes
            }
            Copy::TooLarge(length) => {
                number += 1;
                reporter.note("stdio", number, &too_large(length, limit));
                continue;
            }
            Copy::Behind(length) => {
                number += 1;
                let note = format!(
                    "a message of {length} bytes was forwarded but not checked: the checker \
                     was {BEHIND_BYTES} bytes behind"
                );
                reporter.note("stdio", number, &note);
                continue;
            }
        };
        let text = String::from_utf8_lossy(&bytes);
        if text.trim().is_empty() {
            continue;
        }
        number += 1;
        // A line is a message here, never a record of one.
        let entry = Entry {
            line: number,
            from: Some(side),
            conversation: Some(conversation.clone()),
            header_version: None,
            revision: None,
            message: Ok(text.trim_end().into()),
        };
        reporter.check(&mut checker, "stdio", &entry);
    }
    reporter.finish()
}
