//! What following a conversation needs to know of a message (its shape, its id, the revision
//! it names, whether it asks for a task, …), read from its text without decoding it: the
//! JSON-RPC framing by `jsonrpc::RawMessage`, then, only when asked, the few members needed
//! from `params` or `result`, skipped over unparsed but for those. The generated types decode
//! the message once, afterwards, in the revision these facts settle.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::sync::LazyLock;

use memchr::memmem::Finder;

use mcp_typed::__private::Key;
use mcp_typed::jsonrpc::RawMessage;
use serde::de::{DeserializeSeed, Error as _, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use serde_json::Value;

/// The `_meta` member by which a 2026-07-28 request names its protocol version.
const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";

/// What a message is, by its members (`method`, `id`, `error`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// A request of `method`.
    Request(String),
    /// A notification of `method`.
    Notification(String),
    /// A result response (or what is none of the others).
    Response,
    /// An error response.
    Error,
}

/// What a message says of itself, as far as following the conversation goes.
#[derive(Debug, Clone)]
pub struct Facts<'a> {
    /// Request, notification, result or error.
    pub shape: Shape,
    /// Its `id`, as it came.
    pub id: Option<Value>,
    /// Whether its framing is that of a JSON-RPC response whose `result` is all that is left to
    /// check: `jsonrpc` `"2.0"`, a string or integer `id`, a `result`, no other member.
    pub framed_result: bool,
    /// The text of its `result`.
    pub result: Option<Cow<'a, str>>,
    /// An error's `code`, when an integer.
    pub error_code: Option<i64>,
    /// The text of its `params`.
    params: Option<&'a str>,
    /// What `params` and `result` hold, read on first use.
    of_params: OnceCell<Members>,
    of_result: OnceCell<Members>,
}

/// The members of `params` or `result` the conversation asks about.
#[derive(Debug, Clone, Default)]
struct Members {
    /// `_meta`'s protocol version (a 2026-07-28 request's).
    meta_version: Option<String>,
    /// `protocolVersion`: an `initialize` request's proposal, its response's agreement.
    protocol_version: Option<String>,
    /// Whether `task` is there (a task-augmented request, `CreateTaskResult`).
    task: bool,
    /// `resultType`: `None` when absent, `Some(None)` when not a string.
    result_type: Option<Option<String>>,
}

impl<'a> Facts<'a> {
    /// Reads the facts of the message `text`; `Err` says why it is no JSON.
    pub fn read(text: &'a str) -> Result<Facts<'a>, String> {
        match RawMessage::parse(text) {
            Ok(raw) => Ok(Facts::framed(raw)),
            // A framing the types will refuse (or a batch): read from the value, as slowly as
            // it is rare.
            Err(_) => serde_json::from_str(text)
                .map(|value| Facts::of_value(&value))
                .map_err(|e| format!("not JSON: {e}")),
        }
    }

    fn framed(raw: RawMessage<'a>) -> Facts<'a> {
        let shape = match (&raw.method, &raw.id) {
            (Some(method), Some(_)) => Shape::Request(method.to_string()),
            (Some(method), None) => Shape::Notification(method.to_string()),
            _ if raw.error.is_some() => Shape::Error,
            _ => Shape::Response,
        };
        let framed_result = shape == Shape::Response
            && raw.params.is_none()
            && raw.result.is_some()
            && raw.id.as_ref().is_some_and(|id| !id.is_null());
        let error_code = raw
            .error
            .and_then(|error| serde_json::from_str::<ErrorCode>(error.get()).ok())
            .and_then(|error| error.code)
            .and_then(|code| serde_json::from_str(code.get()).ok());
        Facts {
            shape,
            id: raw.id,
            framed_result,
            result: raw.result.map(|r| Cow::Borrowed(r.get())),
            error_code,
            params: raw.params.map(RawValue::get),
            of_params: OnceCell::new(),
            of_result: OnceCell::new(),
        }
    }

    /// The same facts, read from a value.
    pub fn of_value(message: &Value) -> Facts<'a> {
        let method = message.get("method").and_then(Value::as_str);
        let id = message.get("id");
        let shape = match (method, id) {
            (Some(method), Some(_)) => Shape::Request(method.to_owned()),
            (Some(method), None) => Shape::Notification(method.to_owned()),
            _ if message.get("error").is_some() => Shape::Error,
            _ => Shape::Response,
        };
        let text = |v: &Value| v.as_str().map(str::to_owned);
        let members = |v: &Value| Members {
            meta_version: text(&v["_meta"][META_PROTOCOL_VERSION]),
            protocol_version: text(&v["protocolVersion"]),
            task: v.get("task").is_some(),
            result_type: v.get("resultType").map(text),
        };
        Facts {
            shape,
            id: id.cloned(),
            framed_result: false,
            result: message.get("result").map(|r| Cow::Owned(r.to_string())),
            error_code: message["error"]["code"].as_i64(),
            params: None,
            of_params: OnceCell::from(members(&message["params"])),
            of_result: OnceCell::from(members(&message["result"])),
        }
    }

    /// The protocol version a 2026-07-28 request names in `params._meta`.
    pub fn stated_version(&self) -> Option<&str> {
        self.params().meta_version.as_deref()
    }

    /// `params.protocolVersion`: an `initialize` request's proposal.
    pub fn proposed_version(&self) -> Option<&str> {
        self.params().protocol_version.as_deref()
    }

    /// Whether `params` has `task` (2025-11-25's task-augmented requests).
    pub fn asks_for_task(&self) -> bool {
        self.params().task
    }

    /// `result.protocolVersion`: the version an `initialize` response agrees on.
    pub fn agreed_version(&self) -> Option<&str> {
        self.result_members().protocol_version.as_deref()
    }

    /// Whether `result` has `task` (`CreateTaskResult`).
    pub fn result_has_task(&self) -> bool {
        self.result_members().task
    }

    /// The result's `resultType`: `None` when absent, `Some(None)` when not a string.
    pub fn result_type(&self) -> Option<Option<&str>> {
        (self.result_members().result_type.as_ref()).map(Option::as_deref)
    }

    fn params(&self) -> &Members {
        (self.of_params).get_or_init(|| members(self.params, &["protocolVersion", "\"task\""]))
    }

    fn result_members(&self) -> &Members {
        self.of_result.get_or_init(|| {
            let names = ["protocolVersion", "\"task\"", "\"resultType\""];
            members(self.result.as_deref(), &names)
        })
    }
}

/// The `resultType` of the result whose text is `result` (top-level, wherever it is among the
/// members): `None` when absent, `Some(None)` when not a string. Read for itself where the
/// rest of a message needs no [`Facts`]: where peers write it, at an end of the text
/// (`result_type_at_an_end`), else from the members.
pub fn result_type(result: &str) -> Option<Option<Cow<'_, str>>> {
    if let Some(written) = result_type_at_an_end(result) {
        return Some(Some(Cow::Borrowed(written)));
    }
    let members = members(Some(result), &["\"resultType\""]);
    (members.result_type).map(|result_type| result_type.map(Cow::Owned))
}

/// A `resultType` string written as the first or the last member of the object `result`, as
/// peers write it (`{"resultType":"complete",…}`, `{…,"resultType":"complete"}`: the Python
/// SDK), compact and without an escape; `None` for any other text.
///
/// Exact for a text that is one JSON object whose members come once (what decoding takes;
/// what it refuses is read by the framing): with no escape in them, the quotes around the
/// value and the name are the strings' own, the name is that member's, and the member, first
/// after the opening brace or last before the closing one, is the object's own.
fn result_type_at_an_end(result: &str) -> Option<&str> {
    const NAME: &str = "\"resultType\":\"";
    let plain = |value: &str| !value.bytes().any(|b| matches!(b, b'"' | b'\\'));
    let first = (result.strip_prefix('{').and_then(|r| r.strip_prefix(NAME)))
        .and_then(|rest| rest.split_once("\","))
        .map(|(value, _)| value);
    if let Some(value) = first.filter(|value| plain(value)) {
        return Some(value);
    }
    let body = result.strip_suffix("\"}")?;
    let at = body.rfind(NAME)?;
    let value = &body[at + NAME.len()..];
    let before = body[..at].bytes().last();
    (plain(value) && matches!(before, Some(b',' | b'{'))).then_some(value)
}

/// Whether the result whose text is `result` has `task` (top-level): read for itself where the
/// rest of a message needs no [`Facts`].
pub fn result_has_task(result: &str) -> bool {
    members(Some(result), &["\"task\""]).task
}

/// What a request or notification says of its revision and of a task, read in one pass over
/// its text (the rest skipped): the quick reading of a request, where [`Facts`] would read the framing
/// and then `params` again.
#[derive(Debug, Default)]
pub struct Outline {
    /// Its `method`, when a string.
    pub method: Option<String>,
    /// The protocol version a 2026-07-28 request names in `params._meta`.
    pub stated_version: Option<String>,
    /// `params.protocolVersion` (an `initialize` request's proposal).
    pub proposed_version: Option<String>,
    /// Whether `params` has `task`.
    pub task: bool,
}

impl Outline {
    /// The outline of the message `text`; `None` when it has no `method` or is shaped otherwise
    /// than a request or notification's (`params` no object, a member twice, …): its framing
    /// then reads it.
    pub fn read(text: &str) -> Option<Outline> {
        let raw: RawOutline = serde_json::from_str(text).ok()?;
        let params = raw.params.map(Members::from_raw).unwrap_or_default();
        Some(Outline {
            method: Some(string(raw.method?)?),
            stated_version: params.meta_version,
            proposed_version: params.protocol_version,
            task: params.task,
        })
    }
}

/// The protocol version a 2026-07-28 request names in `params._meta` (an [`Outline`]'s
/// `stated_version`), read only as far as it: the members before `params`, and those of
/// `params` before `_meta`, skipped, and nothing after it read. For a message the verdict path
/// passed, whose members each come once.
pub fn stated_version(text: &str) -> Option<String> {
    let mut found = None;
    let path = &["params", "_meta", META_PROTOCOL_VERSION];
    // The reading stops once the version is read: serde_json's error for the unread rest is no
    // refusal of the message.
    let _ = serde_json::Deserializer::from_str(text).deserialize_map(Along {
        path,
        found: &mut found,
    });
    found
}

/// [`stated_version`] of a 2026-07-28 request that the verdict path passed, which holds the
/// member as a string (every request of that revision requires it: `check/tests/values.rs`
/// holds it): found in its text where the member's name is written once and nothing is
/// escaped (each quote then a string's own, the name the member's), else read as
/// [`stated_version`] reads it.
pub fn stated_version_of_passed(text: &str) -> Option<Cow<'_, str>> {
    static NAME: LazyLock<Finder> =
        LazyLock::new(|| Finder::new("\"io.modelcontextprotocol/protocolVersion\":\""));
    let at = NAME.find(text.as_bytes()).filter(|_| !has_escape(text));
    // The name is ASCII: `at` and the end of the name are character boundaries.
    if let Some(rest) = at.map(|at| &text[at + NAME.needle().len()..]) {
        let once = |(_, after): &(&str, &str)| NAME.find(after.as_bytes()).is_none();
        if let Some((value, _)) = rest.split_once('"').filter(once) {
            return Some(Cow::Borrowed(value));
        }
    }
    stated_version(text).map(Cow::Owned)
}

/// Whether `text` holds an escape (`\`), by which a name or a value can be written otherwise
/// than plainly.
fn has_escape(text: &str) -> bool {
    memchr::memchr(b'\\', text.as_bytes()).is_some()
}

/// The searches the quick reading of a request or notification makes of its text, each
/// searcher built once: whether it holds `protocolVersion`, `"task"`, `\u` or `"method"`.
pub(crate) fn holds(text: &str, name: Name) -> bool {
    static SEARCHERS: LazyLock<[Finder; 4]> =
        LazyLock::new(|| ["protocolVersion", "\"task\"", "\\u", "\"method\""].map(Finder::new));
    SEARCHERS[name as usize].find(text.as_bytes()).is_some()
}

/// What [`holds`] looks for.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Name {
    /// `protocolVersion`: a version stated (`_meta`) or proposed (`initialize`).
    ProtocolVersion,
    /// `"task"`: a task asked for.
    Task,
    /// `\u`: an escape by which any name can be written otherwise.
    UnicodeEscape,
    /// `"method"`: a request or notification.
    Method,
}

/// Reads the member `path[0]` of an object, and within it the rest of `path`: the last one's
/// string into `found`.
struct Along<'a> {
    path: &'static [&'static str],
    found: &'a mut Option<String>,
}

impl<'de> DeserializeSeed<'de> for Along<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Along<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let [name, rest @ ..] = self.path else {
            return Ok(());
        };
        while let Some(key) = map.next_key::<Key<'de>>()? {
            if key.as_str() != *name {
                map.next_value::<IgnoredAny>()?;
            } else if rest.is_empty() {
                *self.found = map.next_value::<String>().ok();
                return Err(A::Error::custom("read"));
            } else {
                let found = self.found;
                map.next_value_seed(Along { path: rest, found })?;
                return Err(A::Error::custom("read"));
            }
        }
        Ok(())
    }
}

/// A message's `method` and the members of its `params` an [`Outline`] reads.
#[derive(Deserialize)]
struct RawOutline<'a> {
    #[serde(borrow, default, deserialize_with = "present")]
    method: Option<&'a RawValue>,
    #[serde(borrow, default)]
    params: Option<RawMembers<'a>>,
}

/// What an object's text holds of the members sought. Skipping over a large `params` or
/// `result` costs as much as a good part of decoding it: it is read only when its text holds
/// one of `names` (or an escape, by which a name can also be written).
fn members(text: Option<&str>, names: &[&str]) -> Members {
    let Some(text) = text.filter(|t| t.contains("\\u") || names.iter().any(|n| t.contains(n)))
    else {
        return Members::default();
    };
    (serde_json::from_str::<RawMembers>(text))
        .map(Members::from_raw)
        .unwrap_or_default()
}

impl Members {
    fn from_raw(raw: RawMembers) -> Members {
        let meta = (raw.meta).and_then(|meta| serde_json::from_str::<Meta>(meta.get()).ok());
        Members {
            meta_version: meta.and_then(|meta| meta.version).and_then(string),
            protocol_version: raw.protocol_version.and_then(string),
            task: raw.task.is_some(),
            result_type: raw.result_type.map(string),
        }
    }
}

/// The members of `params` or `result` sought, each kept raw (`null` included: a member present
/// as `null` is present); the others are skipped.
#[derive(Deserialize, Default)]
#[serde(default)]
struct RawMembers<'a> {
    #[serde(rename = "_meta", borrow, deserialize_with = "present")]
    meta: Option<&'a RawValue>,
    #[serde(borrow, deserialize_with = "present")]
    task: Option<&'a RawValue>,
    #[serde(rename = "protocolVersion", borrow, deserialize_with = "present")]
    protocol_version: Option<&'a RawValue>,
    #[serde(rename = "resultType", borrow, deserialize_with = "present")]
    result_type: Option<&'a RawValue>,
}

/// An error's `code`.
#[derive(Deserialize)]
struct ErrorCode<'a> {
    #[serde(borrow, default, deserialize_with = "present")]
    code: Option<&'a RawValue>,
}

/// `params._meta`'s protocol version.
#[derive(Deserialize)]
struct Meta<'a> {
    #[serde(rename = "io.modelcontextprotocol/protocolVersion", borrow, default)]
    #[serde(deserialize_with = "present")]
    version: Option<&'a RawValue>,
}

/// A member that is there, whatever its value (`null` too).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(d).map(Some)
}

/// A raw member's string, when it is one.
fn string(raw: &RawValue) -> Option<String> {
    serde_json::from_str(raw.get()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`result_type`] reads what the result holds, at an end of its text or elsewhere: the
    /// object's own member only, strings only, escapes read.
    #[test]
    fn the_result_type_is_read_where_it_is_written() {
        let cases = [
            (
                r#"{"resultType":"complete","content":[]}"#,
                Some(Some("complete")),
            ),
            (
                r#"{"content":[],"resultType":"input_required"}"#,
                Some(Some("input_required")),
            ),
            (r#"{"resultType":"complete"}"#, Some(Some("complete"))),
            (r#"{"a":1,"resultType":"task","b":2}"#, Some(Some("task"))),
            (r#"{"a":{"resultType":"complete"}}"#, None),
            (r#"{"a":"x\",\"resultType\":\"complete"}"#, None),
            (
                r#"{"a":"{\"resultType\":\"complete\",","resultType":"task"}"#,
                Some(Some("task")),
            ),
            (r#"{"resultType":"a\"b","c":1}"#, Some(Some("a\"b"))),
            (r#"{"c":1,"resultType":"a\u0062"}"#, Some(Some("ab"))),
            (
                r#"{"c":1,"result\u0054ype":"complete"}"#,
                Some(Some("complete")),
            ),
            (r#"{"c":1,"resultType":7}"#, Some(None)),
            (r#"{"resultType":null,"c":1}"#, Some(None)),
            (r#"{"c":1}"#, None),
        ];
        for (text, expected) in cases {
            assert_eq!(
                result_type(text).as_ref().map(|t| t.as_deref()),
                expected,
                "{text}"
            );
        }
    }

    /// [`stated_version`] reads what an [`Outline`] reads as the stated version: the member of
    /// `params._meta` only (not one of the same name elsewhere), a string only, escapes read.
    #[test]
    fn the_stated_version_is_read_as_the_outline_reads_it() {
        let cases = [
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#,
                Some("2026-07-28"),
            ),
            (
                r#"{"params":{"cursor":"c","_meta":{"x":{"io.modelcontextprotocol/protocolVersion":"no"},"io.modelcontextprotocol\/protocolVersion":"2025-11-25"}},"method":"tools/list","id":1,"jsonrpc":"2.0"}"#,
                Some("2025-11-25"),
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#,
                None,
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":7}}}"#,
                None,
            ),
            (r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, None),
        ];
        for (text, expected) in cases {
            let outlined = Outline::read(text).expect("an outline").stated_version;
            assert_eq!(outlined.as_deref(), expected, "{text}");
            assert_eq!(stated_version(text).as_deref(), expected, "{text}");
        }
        // Requests that hold the member (as every 2026-07-28 request the verdict path passes
        // does): read where it is written, or as `stated_version` reads it.
        for (text, expected) in &cases[..2] {
            let read = stated_version_of_passed(text);
            assert_eq!(read.as_deref(), *expected, "{text}");
        }
        let twice = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"io.modelcontextprotocol/protocolVersion":"x"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
        assert_eq!(
            stated_version_of_passed(twice).as_deref(),
            Some("2026-07-28")
        );
    }
}
