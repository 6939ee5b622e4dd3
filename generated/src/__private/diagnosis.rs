//! The diagnosis of a refused message: says in JSON-RPC terms ([`DecodeErrorKind`], with the
//! JSON pointer of the first bad member) why a text is not a message of a direction. It runs
//! only after the codec refused a message, and asks the direction's types through a [`Probe`],
//! so that it is compiled once, not once per direction.
//!
//! Runtime, beside the codec that calls it: what it builds is the public
//! `crate::jsonrpc::DecodeError`; [`path_error`] is public as `crate::json_pointer::decode`.

use serde_json::de::StrRead;
use serde_json::value::RawValue;
use serde_json::Value;

use super::buffer::without_position;
use super::codec::MEMBERS;
use super::integer_value;
use crate::json_pointer::escape;
use crate::jsonrpc::{DecodeError, DecodeErrorKind};

pub(super) const BATCH_UNSUPPORTED: &str =
    "not a JSON-RPC message: a batch (array); only revision 2025-03-26 has batches";
pub(super) const BATCH_EMPTY: &str = "an empty batch (JSON-RPC 2.0 requires at least one message)";
pub(super) const BATCH_MIXED: &str =
    "a batch holds requests and notifications, or responses, not both (2025-03-26 `JSONRPCBatchRequest` / `JSONRPCBatchResponse`)";

/// Why an array is not a batch of the direction `probe` stands for: the first member that is
/// not a message, with the member's index prefixed to its path (`/2/params/name`) and its `id`.
fn diagnose_batch(probe: &dyn Probe, text: &str, items: &[Value], fallback: &str) -> DecodeError {
    let invalid = |message: &str, path: Option<String>| DecodeError {
        path,
        ..DecodeError::new(DecodeErrorKind::InvalidRequest, message)
    };
    if !probe.batches() {
        return invalid(BATCH_UNSUPPORTED, None);
    }
    if items.is_empty() {
        return invalid(BATCH_EMPTY, None);
    }
    // The text of each member, for the decoder; `items` are the same members, parsed.
    let texts: Vec<&RawValue> = match serde_json::from_str(text) {
        Ok(texts) => texts,
        Err(error) => return invalid(&without_position(&error), None),
    };
    for (index, (item, text)) in items.iter().zip(texts).enumerate() {
        if item.is_array() {
            return invalid("a batch cannot hold a batch", Some(format!("/{index}")));
        }
        if let Err(error) = probe.check_message(text.get()) {
            let mut error = diagnose(probe, text.get(), item, &error);
            error.path = Some(format!("/{index}{}", error.path.as_deref().unwrap_or("")));
            // The whole batch is refused, and a batch of calls is answered even when the
            // member at fault is a notification (a batch of responses is not answered).
            error.notification = false;
            return error;
        }
    }
    if fallback.contains(BATCH_MIXED) {
        return invalid(BATCH_MIXED, None);
    }
    invalid(fallback, None)
}

/// What the diagnosis asks of a direction's types. The diagnosis itself is compiled once, not
/// once per direction: only these probes are.
pub(super) trait Probe {
    /// Whether a batch (an array of messages) is a message of the direction.
    fn batches(&self) -> bool;
    /// Decodes one message (text): the error, without its position.
    fn check_message(&self, text: &str) -> Result<(), String>;
    /// Whether the direction sends responses.
    fn responds(&self) -> bool;
    /// Whether `method` names a request.
    fn is_request(&self, method: &str) -> bool;
    /// Whether `method` names a notification.
    fn is_notification(&self, method: &str) -> bool;
    /// Decodes the `params` (text) of the request or notification `method`: the error's
    /// message and the pointer below `params`.
    fn check_params(
        &self,
        request: bool,
        method: &str,
        params: Option<&str>,
    ) -> Result<(), (String, String)>;
    /// Decodes a `result`, as a message's result is decoded.
    fn check_result(&self, result: &str) -> Result<(), (String, String)>;
    /// Decodes an `error` object.
    fn check_error(&self, error: &str) -> Result<(), (String, String)>;
}

/// Says in JSON-RPC terms why `text` (parsed: `value`) is not a message of the direction that
/// `probe` stands for (`fallback`: what the decoder said, for a problem the checks below do not
/// name).
pub(super) fn diagnose(
    probe: &dyn Probe,
    text: &str,
    value: &Value,
    fallback: &str,
) -> DecodeError {
    use DecodeErrorKind::*;
    if let Value::Array(items) = value {
        return diagnose_batch(probe, text, items, fallback);
    }
    let Some(object) = value.as_object() else {
        return DecodeError::new(InvalidRequest, "not a JSON-RPC message: not an object");
    };
    // An integer id written `1.0` is the integer its request decoded as (`RequestId`).
    let id = object.get("id").and_then(|id| match integer_value(id) {
        Some(integer) => Some(Value::from(integer)),
        None => id.is_string().then(|| id.clone()),
    });
    let method = object
        .get("method")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let error = |kind, message: String, path: Option<String>| DecodeError {
        kind,
        message,
        id: id.clone(),
        method: method.clone(),
        path,
        notification: false,
        response: false,
    };
    let invalid = |message: &str| error(InvalidRequest, message.to_owned(), None);
    // A `result` or `error` (`member`) that its type refused with `message` at `path`.
    let invalid_response = |what: &str, member: &str, (message, path): (String, String)| {
        error(
            InvalidResponse,
            format!("invalid {what}: {message}"),
            Some(format!("/{member}{path}")),
        )
    };
    if object.get("jsonrpc") != Some(&Value::from("2.0")) {
        return error(
            InvalidRequest,
            "`jsonrpc` must be \"2.0\"".into(),
            Some("/jsonrpc".into()),
        );
    }
    if let Some(bad) = object
        .get("id")
        .filter(|v| !(v.is_string() || integer_value(v).is_some() || v.is_null()))
    {
        // Integer ids are `i64`, as in every other MCP SDK: JavaScript peers cannot even
        // write integers past 2^53 exactly.
        let message = if bad.is_u64() {
            format!("an integer `id` must fit in 64 bits, signed (at most 2^63 - 1), found {bad}")
        } else {
            format!("`id` must be a string or an integer, found {bad}")
        };
        return error(InvalidRequest, message, Some("/id".into()));
    }
    if let Some(key) = object.keys().find(|k| !MEMBERS.contains(&k.as_str())) {
        return error(
            InvalidRequest,
            format!("unknown member `{key}`"),
            Some(format!("/{}", escape(key))),
        );
    }
    let present = |k: &str| object.contains_key(k);
    // The members' text, for the decoder (of a member twice, the last, as in `object`).
    let members: std::collections::BTreeMap<String, &RawValue> =
        serde_json::from_str(text).unwrap_or_default();
    let member = |k: &str| members.get(k).map(|raw| raw.get());
    let mut refused = match (present("method"), present("result"), present("error")) {
        (true, false, false) => {
            let Some(name) = method.as_deref() else {
                return error(
                    InvalidRequest,
                    "`method` must be a string".into(),
                    Some("/method".into()),
                );
            };
            let has_id = present("id");
            // Everything refused from here on was framed as a request or, without an `id`
            // member, as a notification, which JSON-RPC never answers.
            let diagnose_call = || {
                let is_request = probe.is_request(name);
                let is_notification = probe.is_notification(name);
                if has_id && object["id"].is_null() {
                    return error(
                        InvalidRequest,
                        "a request `id` must not be null".into(),
                        Some("/id".into()),
                    );
                }
                if (has_id && !is_request) || (!has_id && !is_notification) {
                    if is_request || is_notification {
                        let (needs, kind) = if is_request {
                            ("needs an `id`", "request")
                        } else {
                            ("has no `id`", "notification")
                        };
                        return error(
                            InvalidRequest,
                            format!("`{name}` is a {kind}: it {needs}"),
                            Some("/id".into()),
                        );
                    }
                    return error(
                        MethodNotFound,
                        format!("method not found: `{name}`"),
                        Some("/method".into()),
                    );
                }
                match probe.check_params(is_request, name, member("params")) {
                    Err((message, path)) => error(
                        InvalidParams,
                        format!("invalid params for `{name}`: {message}"),
                        Some(format!("/params{path}")),
                    ),
                    Ok(()) => invalid(fallback),
                }
            };
            let mut refused = diagnose_call();
            refused.notification = !has_id;
            refused
        }
        (false, true, false) if probe.responds() => {
            match member("result").map(|r| probe.check_result(r)) {
                Some(Err(refused)) => invalid_response("result", "result", refused),
                _ if !present("id") || object["id"].is_null() => error(
                    InvalidRequest,
                    "a response needs the `id` of its request".into(),
                    Some("/id".into()),
                ),
                _ => invalid(fallback),
            }
        }
        (false, false, true) if probe.responds() => {
            match member("error").map(|e| probe.check_error(e)) {
                Some(Err(refused)) => invalid_response("error object", "error", refused),
                _ => invalid(fallback),
            }
        }
        (false, true, true) => invalid("a response has either `result` or `error`, not both"),
        (false, false, false) => invalid("no `method`, `result` or `error`"),
        (false, _, _) => invalid("this side sends no responses in this revision"),
        (true, _, _) => invalid("a message with `method` has no `result` or `error`"),
    };
    // Framed as a response: answering it could start two peers answering each other's errors.
    refused.response = !present("method") && (present("result") || present("error"));
    refused
}

/// Runs a decode of `text` with path tracking: the error message and the JSON pointer (below
/// `text`'s value) of the member it stopped at.
pub fn path_error<'a, T>(
    decode: impl FnOnce(&mut serde_json::Deserializer<StrRead<'a>>) -> Result<T, serde_json::Error>,
    text: &'a str,
) -> Result<T, (String, String)> {
    let mut de = serde_json::Deserializer::from_str(text);
    super::error_path::tracked(|| decode(&mut de))
        .map_err(|(error, pointer)| (without_position(&error), pointer))
}

#[cfg(all(test, feature = "v2026_07_28"))]
mod tests {
    use crate::jsonrpc::INVALID_REQUEST;
    use crate::v2026_07_28::ClientMessage;

    #[test]
    fn an_unknown_member_is_pointed_at_by_its_escaped_name() {
        let text = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","a/b~c":0}"#;
        let error = text.parse::<ClientMessage>().unwrap_err();
        assert_eq!(error.code(), INVALID_REQUEST);
        assert_eq!(error.message(), "unknown member `a/b~c`");
        assert_eq!(error.path(), Some("/a~1b~0c"));
    }
}
