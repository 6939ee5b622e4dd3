//! [`RawMessage`]: the framing of any JSON-RPC 2.0 message, the rest left raw.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserializer, Error as _, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde_json::value::RawValue;
use serde_json::Value;

use super::{DecodeError, DecodeErrorKind};
use crate::__private::codec::{Version, MEMBERS};
use crate::__private::{integer_value, Key};

/// Any JSON-RPC 2.0 message, with `params`, `result` and `error` left as raw JSON: for extension
/// methods (`com.example/frobnicate`) and for routing before decoding. Borrows from the text.
///
/// ```
/// use mcp_typed::jsonrpc::RawMessage;
///
/// let text = r#"{"jsonrpc":"2.0","id":7,"method":"com.example/frobnicate","params":{"level":11}}"#;
/// let raw = RawMessage::parse(text).unwrap();
/// assert_eq!(raw.method.as_deref(), Some("com.example/frobnicate"));
/// assert_eq!(raw.id, Some(serde_json::json!(7)));
/// // Decode the params into the extension's own type (here a `Value`).
/// let params: serde_json::Value = serde_json::from_str(raw.params.unwrap().get()).unwrap();
/// assert_eq!(params["level"], 11);
/// assert_eq!(serde_json::to_string(&raw).unwrap(), text);
/// ```
#[derive(Debug, Clone, Default)]
pub struct RawMessage<'a> {
    /// The `id`: a string or an integer (`null` only on error responses).
    pub id: Option<Value>,
    /// The `method`.
    pub method: Option<std::borrow::Cow<'a, str>>,
    /// The `params`, unparsed.
    pub params: Option<&'a RawValue>,
    /// The `result`, unparsed.
    pub result: Option<&'a RawValue>,
    /// The `error`, unparsed.
    pub error: Option<&'a RawValue>,
}

impl<'a> RawMessage<'a> {
    /// Reads the framing of a message: `jsonrpc` must be `"2.0"`, `id` a string, an integer or
    /// `null`, and nothing else may be at the top level; the rest is left raw.
    pub fn parse(text: &'a str) -> Result<Self, DecodeError> {
        serde_json::from_str(text).map_err(|e| {
            let kind = if e.is_syntax() || e.is_eof() {
                DecodeErrorKind::Parse
            } else {
                DecodeErrorKind::InvalidRequest
            };
            DecodeError::new(kind, e.to_string())
        })
    }
}

impl<'de: 'a, 'a> de::Deserialize<'de> for RawMessage<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct RawVisitor<'a>(PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for RawVisitor<'a> {
            type Value = RawMessage<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON-RPC 2.0 message object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawMessage<'a>, A::Error> {
                let mut out = RawMessage::default();
                let mut version = Version::default();
                while let Some(key) = map.next_key::<Key<'de>>()? {
                    match key.as_str() {
                        "jsonrpc" => version.read(&mut map)?,
                        "id" => {
                            let mut id: Value = map.next_value()?;
                            // An integer written `1.0` is that integer, as a typed message's
                            // `RequestId` reads it (JSON Schema's `integer`).
                            if let Some(integer) = integer_value(&id) {
                                id = Value::from(integer);
                            }
                            if !(id.is_string() || id.is_i64() || id.is_null()) || out.id.is_some()
                            {
                                return Err(A::Error::custom(
                                    "`id` must be a string, an integer or null (once)",
                                ));
                            }
                            out.id = Some(id);
                        }
                        "method" => out.method = Some(map.next_value::<Key<'de>>()?.0),
                        "params" => out.params = Some(map.next_value()?),
                        "result" => out.result = Some(map.next_value()?),
                        "error" => out.error = Some(map.next_value()?),
                        other => return Err(A::Error::unknown_field(other, MEMBERS)),
                    }
                }
                version.finish()?;
                Ok(out)
            }
        }
        deserializer.deserialize_map(RawVisitor(PhantomData))
    }
}

impl serde::Serialize for RawMessage<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("jsonrpc", "2.0")?;
        if let Some(id) = &self.id {
            map.serialize_entry("id", id)?;
        }
        if let Some(method) = &self.method {
            map.serialize_entry("method", method)?;
        }
        for (key, value) in [
            ("params", self.params),
            ("result", self.result),
            ("error", self.error),
        ] {
            if let Some(value) = value {
                map.serialize_entry(key, value)?;
            }
        }
        map.end()
    }
}
