//! Recorded traffic: one message per line, as a peer sent it or wrapped in a record that says
//! who sent it.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::revision::Side;

/// One line of recorded traffic, borrowing the message's text from the line where it can.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry<'a> {
    /// Its line number in its file (from 1).
    pub line: usize,
    /// Who sent it, when the record says.
    pub from: Option<Side>,
    /// The `MCP-Protocol-Version` header it came with, when recorded.
    pub header_version: Option<String>,
    /// The message's text, as it came (a record's `message` member, byte for byte), or why the
    /// record holds none. The checker reads this text (and reports it when it is no JSON) with
    /// the generated types; it never goes through a `serde_json::Value`.
    pub message: Result<Cow<'a, str>, String>,
}

/// Reads recorded traffic: each non-empty line is a JSON-RPC message (an object, or a batch
/// array), or a record `{"from": "client"|"server", "message": …}` (with, optionally,
/// `"headers": {"mcp-protocol-version": …}`, names in any case).
pub fn read(text: &str) -> Vec<Entry<'_>> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(at, line)| entry(at + 1, line))
        .collect()
}

/// The members of a line that say whether it is a record, and those of a record; the rest is
/// skipped unparsed.
#[derive(Deserialize)]
struct Line<'a> {
    #[serde(borrow)]
    message: Option<&'a RawValue>,
    #[serde(borrow)]
    jsonrpc: Option<&'a RawValue>,
    #[serde(borrow)]
    from: Option<&'a RawValue>,
    #[serde(borrow)]
    headers: Option<&'a RawValue>,
}

/// One line of traffic (`line` is its number, from 1): a message, or a record of one.
pub fn entry(line: usize, text: &str) -> Entry<'_> {
    let mut entry = Entry {
        line,
        from: None,
        header_version: None,
        message: Err(String::new()),
    };
    // A line with a member `jsonrpc` is a message (a record has none), and so is a line without
    // a member `message` (which could also be written with an escape): checked by the
    // checker's own reading.
    let message =
        has_jsonrpc_at_an_end(text) || !(text.contains("\"message\"") || text.contains("\\u"));
    if message {
        entry.message = Ok(Cow::Borrowed(text));
        return entry;
    }
    // A line that may be a record: `Line` reads most; anything else (a batch, a member twice,
    // a line that is no JSON) is read as a value, for the same outcome and the parser's
    // message.
    let line: Line = match serde_json::from_str(text) {
        Ok(line) => line,
        Err(_) => {
            entry.message = match serde_json::from_str::<Value>(text) {
                Ok(Value::Object(record)) if is_record(&record) => {
                    return record_entry(entry, &Value::Object(record));
                }
                Ok(_) => Ok(Cow::Borrowed(text)),
                Err(e) => Err(format!("not JSON: {e}")),
            };
            return entry;
        }
    };
    match (line.message, line.jsonrpc) {
        (Some(message), None) => {
            entry.message = Ok(Cow::Borrowed(message.get()));
            let from = line.from.map(|from| serde_json::from_str(from.get()));
            entry.from = match from {
                None => None,
                Some(Ok(from)) => match side(&from) {
                    Ok(side) => side,
                    Err(why) => {
                        entry.message = Err(why);
                        return entry;
                    }
                },
                Some(Err(_)) => None,
            };
            let headers = line
                .headers
                .and_then(|h| serde_json::from_str(h.get()).ok());
            entry.header_version = headers.as_ref().and_then(protocol_version);
        }
        _ => entry.message = Ok(Cow::Borrowed(text)),
    }
    entry
}

/// Whether the object `text` has its member `jsonrpc` first or last, as peers write them:
/// `{"jsonrpc":"2.0",…`, `…,"jsonrpc":"2.0"}` or the TypeScript SDK's
/// `…,"jsonrpc":"2.0","id":ID}` (the last member's value, `}` after it, is a member of the
/// outermost object, and so is the one before it, whatever the text before holds). Seen
/// without reading the rest of a text that is JSON; one that is not is reported as the
/// checker reads it, as a record's reading would.
fn has_jsonrpc_at_an_end(text: &str) -> bool {
    let text = text.trim();
    text.starts_with("{\"jsonrpc\"")
        || text.ends_with(",\"jsonrpc\":\"2.0\"}")
        || split_jsonrpc_and_id(text).is_some()
}

/// An object's text cut before its last members as the TypeScript SDK writes them,
/// `,"jsonrpc":"2.0","id":ID}` (ID plain, see [`plain_id`]): what comes before them, and ID.
/// Looked for in the text's last bytes only (an id of up to 100 bytes), so that a text that
/// does not end so is not searched through.
pub(crate) fn split_jsonrpc_and_id(text: &str) -> Option<(&str, &str)> {
    const BEFORE_ID: &[u8] = b",\"jsonrpc\":\"2.0\",\"id\":";
    const LONGEST_ID: usize = 100;
    let body = text.strip_suffix('}')?;
    let bytes = body.as_bytes();
    let last = bytes.len().checked_sub(BEFORE_ID.len())?;
    let at = (last.saturating_sub(LONGEST_ID)..=last)
        .rev()
        .find(|&at| bytes[at..].starts_with(BEFORE_ID))?;
    // `at` is where an ASCII text begins: a character boundary.
    let id = &body[at + BEFORE_ID.len()..];
    plain_id(id).then(|| (&body[..at], id))
}

/// Whether `id` is the text of an integer, or of a string without quote or escape: a value
/// whose text says where it begins and ends.
pub(crate) fn plain_id(id: &str) -> bool {
    match id.as_bytes() {
        [b'"', inner @ .., b'"'] => !inner.iter().any(|b| matches!(b, b'"' | b'\\')),
        digits => !digits.is_empty() && digits.iter().all(|b| b.is_ascii_digit() || *b == b'-'),
    }
}

/// Whether a line's object is a record of a message rather than one.
fn is_record(object: &serde_json::Map<String, Value>) -> bool {
    object.contains_key("message") && !object.contains_key("jsonrpc")
}

/// A record read as a value (one [`Line`] could not read).
fn record_entry<'a>(mut entry: Entry<'a>, record: &Value) -> Entry<'a> {
    entry.from = match side(&record["from"]) {
        Ok(side) => side,
        Err(why) => {
            entry.message = Err(why);
            return entry;
        }
    };
    entry.header_version = protocol_version(&record["headers"]);
    entry.message = Ok(Cow::Owned(record["message"].to_string()));
    entry
}

/// A record's `from`: `None` where it states none (or not as a string).
fn side(from: &Value) -> Result<Option<Side>, String> {
    match from.as_str() {
        Some("client") => Ok(Some(Side::Client)),
        Some("server") => Ok(Some(Side::Server)),
        None => Ok(None),
        Some(other) => Err(format!(
            "a record's `from` is \"client\" or \"server\", not {other:?}"
        )),
    }
}

/// A record's `MCP-Protocol-Version` header (its name in any case).
fn protocol_version(headers: &Value) -> Option<String> {
    let headers = headers.as_object()?;
    let (_, version) =
        (headers.iter()).find(|(name, _)| name.eq_ignore_ascii_case("mcp-protocol-version"))?;
    version.as_str().map(str::to_owned)
}
