//! Recorded traffic: one message per line, as a peer sent it or wrapped in a record that says
//! who sent it, and in which conversation.
//!
//! The record format, which every recorder of this repository writes (`mcp-check proxy
//! --record`, everything-server's `EVERYTHING_SERVER_RECORD`, the stdio client's `--log`, the
//! Python tests' `tap.py`) and
//! [`Record::line`] writes: a JSON object per line,
//!
//! ```text
//! {"conversation": "s-1", "from": "client", "headers": {"mcp-protocol-version": "2025-11-25"}, "message": {…}}
//! ```
//!
//! with `message` the message as sent (or `text`, a string, for what was sent that is not
//! JSON), and `conversation` (a session, a connection: any string), `from` (`client` or
//! `server`), `headers` and `revision` (the revision the recorder was told the conversation is
//! in, `--revision`: that of traffic without its `initialize`) optional. A file holding several conversations is checked
//! conversation by conversation.
//!
//! Recordings of the formats this repository wrote before convert with one command each:
//! everything-server's `{"conv", "dir", "msg"}` lines with `jq -c '{conversation: .conv, from:
//! (if .dir == "client->server" then "client" else "server" end), message: .msg}'`, the stdio
//! client's `> `/`< ` lines with `sed -E 's/^> (.*)$/{"from":"client","message":\1}/; s/^< (.*)$/{"from":"server","message":\1}/'`.

use std::borrow::Cow;
use std::fmt;

use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::revision::{Revision, Side};

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
    /// The revision the recorder was told the conversation is in, when recorded: that of
    /// traffic without its `initialize`, where the checker is told none (`--revision`).
    pub revision: Option<Revision>,
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
/// skipped unparsed. A member written twice is kept once, and named in `twice` (a record's is
/// refused; a message's `jsonrpc` twice is the checker's to judge).
#[derive(Default)]
struct Line<'a> {
    message: Option<&'a RawValue>,
    jsonrpc: Option<&'a RawValue>,
    from: Option<&'a RawValue>,
    headers: Option<&'a RawValue>,
    conversation: Option<&'a RawValue>,
    text: Option<&'a RawValue>,
    revision: Option<&'a RawValue>,
    /// The first of these members written twice.
    twice: Option<Member>,
}

/// The name of a member of a line, as [`Line`] reads it.
#[derive(Deserialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[serde(field_identifier, rename_all = "lowercase")]
enum Member {
    Message,
    Jsonrpc,
    From,
    Headers,
    Conversation,
    Text,
    Revision,
    #[serde(other)]
    Other,
}

impl Member {
    /// Every member [`Line`] keeps.
    #[cfg(test)]
    const KEPT: [Member; 7] = [
        Member::Message,
        Member::Jsonrpc,
        Member::From,
        Member::Headers,
        Member::Conversation,
        Member::Text,
        Member::Revision,
    ];

    /// Its name in a line: what serde's `rename_all` reads (a test holds them together).
    fn name(self) -> &'static str {
        match self {
            Member::Message => "message",
            Member::Jsonrpc => "jsonrpc",
            Member::From => "from",
            Member::Headers => "headers",
            Member::Conversation => "conversation",
            Member::Text => "text",
            Member::Revision => "revision",
            Member::Other => "another member",
        }
    }
}

impl<'de> Deserialize<'de> for Line<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Members;
        impl<'de> Visitor<'de> for Members {
            type Value = Line<'de>;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Line<'de>, A::Error> {
                let mut line = Line::default();
                // One bit per member of `Member` (fewer than eight).
                let mut seen = 0u8;
                while let Some(member) = map.next_key::<Member>()? {
                    let slot = match member {
                        Member::Message => &mut line.message,
                        Member::Jsonrpc => &mut line.jsonrpc,
                        Member::From => &mut line.from,
                        Member::Headers => &mut line.headers,
                        Member::Conversation => &mut line.conversation,
                        Member::Text => &mut line.text,
                        Member::Revision => &mut line.revision,
                        Member::Other => {
                            map.next_value::<IgnoredAny>()?;
                            continue;
                        }
                    };
                    // A member present as `null` is absent, as `Option` reads it; seen
                    // twice all the same.
                    *slot = map.next_value()?;
                    let bit = 1u8 << member as u8;
                    if seen & bit != 0 {
                        line.twice.get_or_insert(member);
                    }
                    seen |= bit;
                }
                Ok(line)
            }
        }
        deserializer.deserialize_map(Members)
    }
}

/// One line of traffic (`line` is its number, from 1): a message, or a record of one.
pub fn entry(line: usize, text: &str) -> Entry<'_> {
    let mut entry = Entry {
        line,
        from: None,
        conversation: None,
        header_version: None,
        revision: None,
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
    // A line that may be a record, read once: `Line` keeps the members that say so.
    let line: Line = match serde_json::from_str(text) {
        Ok(line) => line,
        Err(e) if e.is_syntax() || e.is_eof() => {
            entry.message = Err(format!("not JSON: {e}"));
            return entry;
        }
        // Not an object (a batch, a scalar): a message, as the checker reads it.
        Err(_) => {
            entry.message = Ok(Cow::Borrowed(text));
            return entry;
        }
    };
    // A message (its `jsonrpc` there, or twice: the checker says what is wrong with it).
    if line.jsonrpc.is_some() {
        entry.message = Ok(Cow::Borrowed(text));
        return entry;
    }
    if let Some(member) = line.twice {
        let name = member.name();
        entry.message = Err(format!("a record with a member twice: `{name}`"));
        return entry;
    }
    let sent = match (line.message, line.text) {
        (Some(message), _) => Ok(Cow::Borrowed(message.get())),
        (None, Some(text)) => serde_json::from_str::<String>(text.get())
            .map(Cow::Owned)
            .map_err(|_| "a record's `text` is a string".to_owned()),
        // Neither a record nor a message's `jsonrpc`: the checker says what it lacks.
        (None, None) => {
            entry.message = Ok(Cow::Borrowed(text));
            return entry;
        }
    };
    entry.message = sent;
    entry.conversation = line.conversation.map(conversation);
    entry.from = match line.from.map(side).transpose() {
        Ok(from) => from.flatten(),
        Err(why) => {
            entry.message = Err(why);
            return entry;
        }
    };
    entry.header_version = line.headers.and_then(protocol_version);
    entry.revision = match line.revision.map(revision).transpose() {
        Ok(revision) => revision,
        Err(why) => {
            entry.message = Err(why);
            return entry;
        }
    };
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

/// What a record says beside its message (see the [module](self)); [`Record::line`] writes it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Record<'a> {
    /// The conversation (a session, a connection).
    pub conversation: Option<&'a str>,
    /// Who sent the message.
    pub from: Option<Side>,
    /// The `MCP-Protocol-Version` header it came with.
    pub header_version: Option<&'a str>,
    /// The revision the recorder was told the conversation is in (`--revision`), for traffic
    /// without its `initialize`.
    pub revision: Option<Revision>,
}

impl Record<'_> {
    /// The record line of `message`, without its newline: `message` as it was sent when it is
    /// JSON (byte for byte), else under `text`.
    pub fn line(&self, message: &str) -> String {
        let mut line = String::from("{");
        if let Some(conversation) = self.conversation {
            line.push_str(&format!("\"conversation\":{},", Value::from(conversation)));
        }
        if let Some(from) = self.from {
            line.push_str(&format!("\"from\":\"{}\",", from.name()));
        }
        if let Some(version) = self.header_version {
            let headers = serde_json::json!({ "mcp-protocol-version": version });
            line.push_str(&format!("\"headers\":{headers},"));
        }
        if let Some(revision) = self.revision {
            line.push_str(&format!("\"revision\":\"{}\",", revision.version()));
        }
        // A message is written as it came when it is one JSON value on one line, written on
        // one line when it spans several, and kept as text when it is no JSON.
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
}

/// A record's `conversation`: a string as itself, any other value by its JSON text.
fn conversation(value: &RawValue) -> String {
    serde_json::from_str(value.get()).unwrap_or_else(|_| value.get().to_owned())
}

/// A record's `from`: `client` or `server`; `null` states none.
fn side(from: &RawValue) -> Result<Option<Side>, String> {
    let name: Result<Option<String>, _> = serde_json::from_str(from.get());
    match name.as_ref().map(Option::as_deref) {
        Ok(Some("client")) => Ok(Some(Side::Client)),
        Ok(Some("server")) => Ok(Some(Side::Server)),
        Ok(None) => Ok(None),
        _ => Err(format!(
            "a record's `from` is \"client\" or \"server\", not {}",
            from.get()
        )),
    }
}

/// A record's `revision`: one of the known revisions' versions.
fn revision(version: &RawValue) -> Result<Revision, String> {
    let named: Option<String> = serde_json::from_str(version.get()).ok();
    named
        .as_deref()
        .and_then(Revision::from_version)
        .ok_or_else(|| {
            format!(
                "a record's `revision` is one of {}, not {}",
                Revision::ALL.map(|r| r.version()).join(", "),
                version.get()
            )
        })
}

/// A record's `MCP-Protocol-Version` header (its name in any case).
fn protocol_version(headers: &RawValue) -> Option<String> {
    let headers: serde_json::Map<String, Value> = serde_json::from_str(headers.get()).ok()?;
    let (_, version) =
        (headers.iter()).find(|(name, _)| name.eq_ignore_ascii_case("mcp-protocol-version"))?;
    version.as_str().map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::Member;

    #[test]
    fn each_member_is_read_by_the_name_it_is_reported_by() {
        for member in Member::KEPT {
            let read: Member = serde_json::from_value(member.name().into()).unwrap();
            assert_eq!(read, member, "{}", member.name());
        }
        let other: Member = serde_json::from_value("id".into()).unwrap();
        assert_eq!(other, Member::Other);
    }
}
