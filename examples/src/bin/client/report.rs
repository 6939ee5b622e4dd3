//! What the client prints: a line on stdout for each tool, resource and prompt that completes,
//! and a count of what completed and what failed ([`Tally`]); on stderr, what the server says
//! while it works (log messages, progress).

use std::fmt;

use serde::Serialize;
use serde_json::{Number, Value};

use crate::catalog::{preview, Contents};

/// What became of the tools, resources and prompts: each completed one is printed as it ends.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    tools: usize,
    resources: usize,
    prompts: usize,
    pub(crate) skipped: usize,
    /// What failed, each named as its failure message names it.
    pub(crate) failed: Vec<String>,
}

impl Tally {
    /// A tool that returned a result. A result with `isError` is the tool saying it failed: it
    /// is printed like any other, and counted as a failure.
    pub(crate) fn tool(&mut self, tool: &str, text: &str, is_error: bool) {
        println!("{tool}: {}", one_line(text));
        if is_error {
            self.failed(tool, "the result has isError: true");
        } else {
            self.tools += 1;
        }
    }

    /// A resource that was read: its first contents are shown.
    pub(crate) fn resource(&mut self, uri: &str, contents: &[Contents]) {
        match preview(contents) {
            Ok(preview) => {
                println!("resource {uri}: {preview}");
                self.resources += 1;
            }
            Err(why) => self.failed(&format!("resource {uri}"), why),
        }
    }

    /// A prompt that was got, with the number of its messages.
    pub(crate) fn prompt(&mut self, name: &str, messages: usize) {
        println!("prompt {name}: {}", counted(messages, "message"));
        self.prompts += 1;
    }

    /// A request that did not complete (an error response, too many rounds), or whose result
    /// says it failed.
    pub(crate) fn failed(&mut self, what: &str, why: impl fmt::Display) {
        eprintln!("client: `{what}` failed: {why}");
        self.failed.push(what.to_owned());
    }

    /// A tool this client must not call (it is neither a success nor a failure).
    pub(crate) fn skipped(&mut self, tool: &str, why: &str) {
        eprintln!("client: `{tool}` skipped: {why}");
        self.skipped += 1;
    }

    /// `3 tools, 2 resources, 1 prompt`: what completed.
    pub(crate) fn completed(&self) -> String {
        [
            (self.tools, "tool"),
            (self.resources, "resource"),
            (self.prompts, "prompt"),
        ]
        .map(|(n, what)| counted(n, what))
        .join(", ")
    }
}

/// `1 message`, `2 messages`.
fn counted(n: usize, what: &str) -> String {
    match n {
        1 => format!("1 {what}"),
        n => format!("{n} {what}s"),
    }
}

/// A text on one line, whatever it holds (pretty-printed JSON, lists): line breaks are written
/// as `\r` and `\n`.
pub(crate) fn one_line(text: &str) -> String {
    text.replace('\r', "\\r").replace('\n', "\\n")
}

// ---- Log messages and progress, the same in both eras

/// Shows what the server says while it works (log messages, progress) on stderr.
pub(crate) fn show_log(level: &str, logger: Option<&str>, data: &Value) {
    let text = data
        .as_str()
        .map_or_else(|| data.to_string(), str::to_owned);
    match logger {
        Some(logger) => eprintln!("client: server log [{level}] {logger}: {text}"),
        None => eprintln!("client: server log [{level}] {text}"),
    }
}

pub(crate) fn show_progress(progress: &Number, total: Option<&Number>, message: Option<&str>) {
    let total = total.map(|total| format!("/{total}")).unwrap_or_default();
    let message = message.map(|m| format!(" {m}")).unwrap_or_default();
    eprintln!("client: progress {progress}{total}{message}");
}

/// After a tool call: how many `notifications/progress` came for it (nothing when none came).
pub(crate) fn show_progress_count(tool: &str, received: usize) {
    if received > 0 {
        eprintln!(
            "client: `{tool}` sent {}",
            counted(received, "progress notification")
        );
    }
}

/// Counts a `notifications/progress` for the request in flight, whose token (when it asked for
/// progress) is its id. Either era's `ProgressToken` is a string or an integer.
pub(crate) fn count_progress(token: &impl Serialize, pending: i64, progress: &mut usize) {
    let token = serde_json::to_value(token).unwrap_or_default();
    if token == pending {
        *progress += 1;
    } else {
        // Late, or for a request this client never made: worth a word, not a failure.
        eprintln!("client: progress for token {token}, not the pending request's ({pending})");
    }
}
