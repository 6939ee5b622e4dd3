//! Recorded traffic: one message per line, as a peer sent it or wrapped in a record that says
//! who sent it.

use serde_json::Value;

use crate::revision::Side;

/// One line of recorded traffic.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Its line number in its file (from 1).
    pub line: usize,
    /// Who sent it, when the record says.
    pub from: Option<Side>,
    /// The `MCP-Protocol-Version` header it came with, when recorded.
    pub header_version: Option<String>,
    /// The message, or why the line is not one.
    pub message: Result<Value, String>,
    /// The message's text as it came, when the line is the message itself: the generated
    /// types decode it, where a message without it is first written back out from `message`.
    pub text: Option<String>,
}

/// Reads recorded traffic: each non-empty line is a JSON-RPC message (an object, or a batch
/// array), or a record `{"from": "client"|"server", "message": …}` (with, optionally,
/// `"headers": {"mcp-protocol-version": …}`, names in any case).
pub fn read(text: &str) -> Vec<Entry> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(at, line)| entry(at + 1, line))
        .collect()
}

/// One line of traffic (`line` is its number, from 1): a message, or a record of one.
pub fn entry(line: usize, text: &str) -> Entry {
    let mut entry = Entry {
        line,
        from: None,
        header_version: None,
        message: Err(String::new()),
        text: None,
    };
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => {
            entry.message = Err(format!("not JSON: {e}"));
            return entry;
        }
    };
    let is_record = value.get("message").is_some() && value.get("jsonrpc").is_none();
    if !is_record {
        entry.message = Ok(value);
        entry.text = Some(text.to_owned());
        return entry;
    }
    entry.from = match value.get("from").and_then(Value::as_str) {
        Some("client") => Some(Side::Client),
        Some("server") => Some(Side::Server),
        None => None,
        Some(other) => {
            entry.message = Err(format!(
                "a record's `from` is \"client\" or \"server\", not {other:?}"
            ));
            return entry;
        }
    };
    entry.header_version = value
        .get("headers")
        .and_then(Value::as_object)
        .and_then(|headers| {
            headers
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case("mcp-protocol-version"))
        })
        .and_then(|(_, v)| v.as_str())
        .map(str::to_owned);
    entry.message = Ok(value["message"].clone());
    entry
}
