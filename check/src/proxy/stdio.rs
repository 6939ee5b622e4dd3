//! `mcp-check proxy -- SERVER…`: sits between a stdio client (this process's standard input
//! and output) and the server it starts, forwards every byte unchanged, and checks a copy of
//! each line as it passes.
//!
//! The forwarding never waits on the checking: each direction is a thread that copies a line
//! and flushes it before handing a copy over a channel to the checker's thread, so a slow or
//! failing check cannot stall or end the session. The proxy exits with the server's status.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread;

use super::{ReportSink, Reporter};
use crate::report::Summary;
use crate::revision::{Revision, Side};
use crate::session::Checker;
use crate::traffic::Entry;

/// What [`run`] needs: the server's command, the revision of traffic without `initialize`,
/// where to report, and whether as JSON lines.
pub struct Proxy {
    /// The server's program and arguments.
    pub command: Vec<String>,
    /// The revision assumed before any `initialize` (`--revision`).
    pub revision: Option<Revision>,
    /// Where the reports go (a file, or standard error).
    pub report: ReportSink,
    /// A JSON line per message instead of a line per violation.
    pub json: bool,
}

impl std::fmt::Debug for Proxy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Proxy")
            .field("command", &self.command)
            .field("revision", &self.revision)
            .field("json", &self.json)
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
    let to_server = child.stdin.take().expect("piped");
    let from_server = child.stdout.take().expect("piped");
    let (lines, received) = mpsc::channel::<(Side, Vec<u8>)>();
    let client_lines = lines.clone();
    // Client → server: ends when the client closes its side, which closes the server's input.
    let upstream = thread::spawn(move || {
        forward(
            std::io::stdin().lock(),
            to_server,
            Side::Client,
            &client_lines,
        )
    });
    let downstream =
        thread::spawn(move || forward(from_server, std::io::stdout(), Side::Server, &lines));
    let checker =
        thread::spawn(move || check_all(received, proxy.revision, proxy.report, proxy.json));
    let status = child.wait()?;
    // The server is gone: what it wrote is all read. The client's side may still be open (it
    // is this process's standard input); the checker ends once the server's side has.
    let _ = downstream.join();
    drop(upstream);
    let summary = checker.join().unwrap_or_default();
    Ok((status, summary))
}

/// Copies `from` to `to` a line at a time, flushing each, and sends a copy of each line.
fn forward(
    from: impl Read,
    mut to: impl Write,
    side: Side,
    copies: &mpsc::Sender<(Side, Vec<u8>)>,
) -> std::io::Result<()> {
    let mut from = BufReader::new(from);
    let mut line = Vec::new();
    loop {
        line.clear();
        if from.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        to.write_all(&line)?;
        to.flush()?;
        // The checker may be gone (it never ends first, but the copy is never worth an error).
        let _ = copies.send((side, line.clone()));
    }
}

/// Checks each line in the order it passed; reports as it goes, and the totals at the end.
fn check_all(
    lines: mpsc::Receiver<(Side, Vec<u8>)>,
    revision: Option<Revision>,
    out: ReportSink,
    json: bool,
) -> Summary {
    let mut checker = Checker::new(revision);
    let mut reporter = Reporter::new(out, json);
    let mut number = 0;
    for (side, bytes) in lines {
        let text = String::from_utf8_lossy(&bytes);
        if text.trim().is_empty() {
            continue;
        }
        number += 1;
        // A line is a message here, never a record of one.
        let entry = Entry {
            line: number,
            from: Some(side),
            header_version: None,
            message: Ok(text.trim_end().into()),
        };
        reporter.check(&mut checker, "stdio", &entry);
    }
    reporter.finish()
}
