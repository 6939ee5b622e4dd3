//! Recorded traffic: one message per line, as a peer sent it or wrapped in a record that says
//! who sent it, and in which conversation.
//!
//! The record format, which every recorder of this repository writes (`mcp-check proxy
//! --record`, everything-server's `EVERYTHING_SERVER_RECORD`, the stdio client's `--log`) and
//! [`record`] writes: a JSON object per line,
//!
//! ```text
//! {"conversation": "s-1", "from": "client", "headers": {"mcp-protocol-version": "2025-11-25"}, "message": {…}}
//! ```
//!
//! with `message` the message as sent (or `text`, a string, for what was sent that is not
//! JSON), and `conversation` (a session, a connection: any string), `from` (`client` or
//! `server`) and `headers` optional. A file holding several conversations is checked
//! conversation by conversation.
//!
//! Recordings of the formats this repository wrote before convert with one command each:
//! everything-server's `{"conv", "dir", "msg"}` lines with `jq -c '{conversation: .conv, from:
//! (if .dir == "client->server" then "client" else "server" end), message: .msg}'`, the stdio
//! client's `> `/`< ` lines with `sed -E 's/^> (.*)$/{"from":"client","message":\1}/; s/^< (.*)$/{"from":"server","message":\1}/'`.

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
    /// The conversation it belongs to, when the record says.
    pub conversation: Option<String>,
    /// The `MCP-Protocol-Version` header it came with, when recorded.
    pub header_version: Option<String>,
    /// The message's text, as it came (a record's `message` member, byte for byte), or why the
    /// record holds none. The checker reads this text (and reports it when it is no JSON) with
    /// the generated types; it never goes through a `serde_json::Value`.
    pub message: Result<Cow<'a, str>, String>,
}

/// Reads recorded traffic: each non-empty line is a JSON-RPC message (an object, or a batch
/// array), or a record (see the [module](self)).
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
    #[serde(borrow)]
    conversation: Option<&'a RawValue>,
    #[serde(borrow)]
    text: Option<&'a RawValue>,
}

/// One line of traffic (`line` is its number, from 1): a message, or a record of one.
pub fn entry(line: usize, text: &str) -> Entry<'_> {
    let mut entry = Entry {
        line,
        from: None,
        conversation: None,
        header_version: None,
        message: Err(String::new()),
    };
    // A line with a member `jsonrpc` is a message (a record has none), and so is a line without
    // a member `message` (which could also be written with an escape): checked by the
    // checker's own reading.
    let message = has_jsonrpc_at_an_end(text)
        || !(text.contains("\"message\"") || text.contains("\"text\"") || text.contains("\\u"));
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
    let sent = match (line.message, line.text) {
        (Some(message), _) => Some(Ok(Cow::Borrowed(message.get()))),
        (None, Some(text)) => Some(
            serde_json::from_str::<String>(text.get())
                .map(Cow::Owned)
                .map_err(|_| "a record's `text` is a string".to_owned()),
        ),
        (None, None) => None,
    };
    match (sent, line.jsonrpc) {
        (Some(message), None) => {
            entry.message = message;
            entry.conversation = line
                .conversation
                .and_then(|c| serde_json::from_str(c.get()).ok());
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
    (object.contains_key("message") || object.contains_key("text"))
        && !object.contains_key("jsonrpc")
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
    entry.conversation = record["conversation"].as_str().map(str::to_owned);
    entry.message = match (record.get("message"), &record["text"]) {
        (Some(message), _) => Ok(Cow::Owned(message.to_string())),
        (None, Value::String(text)) => Ok(Cow::Owned(text.clone())),
        (None, _) => Err("a record's `text` is a string".to_owned()),
    };
    entry
}

/// A record line (see the [module](self)), without its newline: `message` as it was sent
/// when it is JSON (byte for byte), else under `text`.
pub fn record(
    conversation: Option<&str>,
    from: Option<Side>,
    header_version: Option<&str>,
    message: &str,
) -> String {
    let mut line = String::from("{");
    if let Some(conversation) = conversation {
        line.push_str(&format!("\"conversation\":{},", Value::from(conversation)));
    }
    if let Some(from) = from {
        line.push_str(&format!("\"from\":\"{}\",", from.name()));
    }
    if let Some(version) = header_version {
        let headers = serde_json::json!({ "mcp-protocol-version": version });
        line.push_str(&format!("\"headers\":{headers},"));
    }
    // A message is written as it came when it is one JSON value on one line, written on one
    // line when it spans several, and kept as text when it is no JSON.
    let trimmed = message.trim();
    match serde_json::from_str::<&RawValue>(trimmed) {
        Ok(_) if !trimmed.contains(['\n', '\r']) => {
            line.push_str(&format!("\"message\":{trimmed}}}"));
        }
        Ok(_) => {
            let value: Value = serde_json::from_str(trimmed).unwrap_or_default();
            line.push_str(&format!("\"message\":{value}}}"));
        }
        Err(_) => line.push_str(&format!("\"text\":{}}}", Value::from(message))),
    }
    line
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
