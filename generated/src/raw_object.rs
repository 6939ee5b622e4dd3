//! [`RawObject`]: a free-form JSON object of a message, kept as its JSON text.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, Unexpected};
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// A JSON object that the schema leaves free-form: `_meta`, a tool call's `arguments`, the JSON
/// Schemas in a tool's `inputSchema.properties`, capability objects such as `sampling: {}`.
///
/// It is kept as its compact JSON text. Decoding one checks that the value is an object and
/// copies its text: no map is built and nothing is allocated per member, so a `tools/list`
/// result with forty input schemas decodes at close to the speed of a bare JSON parse, and
/// encoding writes the text back as it is. Numbers keep their exact spelling (`1.0e2`, integers
/// beyond `u64`), and members keep their order.
///
/// Read it into your own type with [`decode`](Self::decode) (a tool's typed arguments, straight
/// from the text), or into a map with [`to_map`](Self::to_map). Build one from a map, a
/// `serde_json::Value` object, or anything that serializes to an object
/// ([`from_serialize`](Self::from_serialize)).
///
/// ```
/// use mcp_schema::RawObject;
/// use serde_json::json;
///
/// #[derive(serde::Deserialize)]
/// struct AddArgs { a: i64, b: i64 }
///
/// let arguments = RawObject::try_from(json!({"a": 2, "b": 3})).unwrap();
/// let args: AddArgs = arguments.decode().unwrap();
/// assert_eq!(args.a + args.b, 5);
/// assert_eq!(arguments.as_str(), r#"{"a":2,"b":3}"#);
/// assert!(RawObject::try_from(json!([1, 2])).is_err(), "an array is not an object");
/// ```
///
/// An object written over several lines is compacted on decode (`{\n  "a": 1\n}` is kept as
/// `{"a":1}`), so a message always re-encodes on one line, as the stdio transport needs; other
/// text is kept as received. Equality compares the members, not the text. The text is written through serde_json's raw-value mechanism: encode messages
/// with `serde_json` (to text or to a `Value`), as MCP does.
#[derive(Clone)]
pub struct RawObject(Box<RawValue>);

impl RawObject {
    /// The empty object, `{}`.
    pub fn new() -> Self {
        Self::from_compact_text("{}".to_owned())
    }

    /// The object serialized from `value`, or an error if `value` does not serialize to a JSON
    /// object.
    pub fn from_serialize<T: Serialize + ?Sized>(value: &T) -> Result<Self, serde_json::Error> {
        let text = serde_json::to_string(value)?;
        if !text.starts_with('{') {
            return Err(<serde_json::Error as serde::ser::Error>::custom(
                "not a JSON object",
            ));
        }
        Ok(Self::from_compact_text(text))
    }

    /// The object's compact JSON text.
    pub fn as_str(&self) -> &str {
        self.0.get()
    }

    /// The object as serde_json's raw value.
    pub fn as_raw(&self) -> &RawValue {
        &self.0
    }

    /// Whether the object has no members.
    pub fn is_empty(&self) -> bool {
        self.as_str() == "{}"
    }

    /// Decodes the object into `T`, straight from its text (borrowing from it where `T` does).
    pub fn decode<'a, T: Deserialize<'a>>(&'a self) -> Result<T, serde_json::Error> {
        serde_json::from_str(self.as_str())
    }

    /// The object as a map. Fails only where `serde_json::Value` cannot hold a member: a number
    /// beyond the range of `f64`.
    pub fn to_map(&self) -> Result<Map<String, Value>, serde_json::Error> {
        self.decode()
    }

    /// Wraps text that serde_json wrote or checked: valid JSON, an object, no whitespace.
    fn from_compact_text(text: String) -> Self {
        Self(RawValue::from_string(text).expect("serde_json's own output or checked JSON"))
    }
}

impl Default for RawObject {
    fn default() -> Self {
        Self::new()
    }
}

impl From<Map<String, Value>> for RawObject {
    fn from(map: Map<String, Value>) -> Self {
        Self::from(&map)
    }
}

impl From<&Map<String, Value>> for RawObject {
    fn from(map: &Map<String, Value>) -> Self {
        // Writing a map of values to a string cannot fail.
        Self::from_compact_text(serde_json::to_string(map).unwrap_or_else(|_| "{}".to_owned()))
    }
}

impl TryFrom<Value> for RawObject {
    type Error = serde_json::Error;
    /// The object, or an error for any other JSON value.
    fn try_from(value: Value) -> Result<Self, Self::Error> {
        match value {
            Value::Object(map) => Ok(Self::from(&map)),
            other => Err(<serde_json::Error as de::Error>::invalid_type(
                unexpected(&other),
                &"a JSON object",
            )),
        }
    }
}

fn unexpected(value: &Value) -> Unexpected<'_> {
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(_) => Unexpected::Other("number"),
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

impl PartialEq for RawObject {
    /// Same members with equal values, in any order (as `serde_json::Map` compares).
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
            || matches!((self.to_map(), other.to_map()), (Ok(a), Ok(b)) if a == b)
    }
}

impl fmt::Debug for RawObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("RawObject").field(&self.as_str()).finish()
    }
}

impl fmt::Display for RawObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for RawObject {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for RawObject {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = Box::<RawValue>::deserialize(deserializer)?;
        let text = raw.get();
        if !text.starts_with('{') {
            let found = match text.as_bytes().first() {
                Some(b'[') => Unexpected::Seq,
                Some(b'"') => Unexpected::Other("string"),
                Some(b't' | b'f') => Unexpected::Other("boolean"),
                Some(b'n') => Unexpected::Unit,
                _ => Unexpected::Other("number"),
            };
            return Err(de::Error::invalid_type(found, &"a JSON object"));
        }
        Ok(if has_line_break(text) {
            Self::from_compact_text(compact(text))
        } else {
            Self(raw)
        })
    }
}

/// Whether `text` has a line break, which in JSON text can only be whitespace between tokens.
fn has_line_break(text: &str) -> bool {
    memchr::memchr2(b'\n', b'\r', text.as_bytes()).is_some()
}

/// `text` (valid JSON) without the whitespace between its tokens. JSON strings cannot hold a
/// raw control character, and a space inside one is kept.
fn compact(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in text.chars() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
        } else if matches!(c, ' ' | '\n' | '\r' | '\t') {
            continue;
        } else {
            in_string = c == '"';
        }
        out.push(c);
    }
    out
}

#[cfg(feature = "schemars")]
impl schemars::JsonSchema for RawObject {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "RawObject".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "object" })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_object_over_several_lines_is_compacted_but_not_inside_strings() {
        let object: RawObject =
            serde_json::from_str("{ \"a b\" :\n [1, \"x \\\" y\"],\t\"c\": {} }").unwrap();
        assert_eq!(object.as_str(), r#"{"a b":[1,"x \" y"],"c":{}}"#);
        let long = format!("{{\"k\": \"{}\",\r\n\"é\": 1}}", "v ".repeat(40));
        let object: RawObject = serde_json::from_str(&long).unwrap();
        assert_eq!(
            object.as_str(),
            format!("{{\"k\":\"{}\",\"é\":1}}", "v ".repeat(40))
        );
        // On one line, the text is kept as it came.
        let object: RawObject = serde_json::from_str(r#"{"a": "b c"}"#).unwrap();
        assert_eq!(object.as_str(), r#"{"a": "b c"}"#);
    }

    #[test]
    fn only_objects_decode() {
        for text in ["[]", "1", "\"{}\"", "null", "true"] {
            let error = serde_json::from_str::<RawObject>(text).unwrap_err();
            assert!(
                error.to_string().contains("expected a JSON object"),
                "{text}: {error}"
            );
        }
    }

    #[test]
    fn equality_is_by_members() {
        let a: RawObject = serde_json::from_str(r#"{"a":1,"b":2}"#).unwrap();
        let b: RawObject = serde_json::from_str(r#"{"b":2,"a":1}"#).unwrap();
        let c: RawObject = serde_json::from_str(r#"{"b":2,"a":1.0}"#).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn decodes_from_and_encodes_to_a_value() {
        let value = serde_json::json!({"a": [1, {"b": null}], "c": "d"});
        let owned: RawObject = serde_json::from_value(value.clone()).unwrap();
        let borrowed = RawObject::deserialize(&value).unwrap();
        assert_eq!(owned.as_str(), r#"{"a":[1,{"b":null}],"c":"d"}"#);
        assert_eq!(owned, borrowed);
        assert_eq!(serde_json::to_value(&owned).unwrap(), value);
        assert_eq!(owned.to_map().unwrap(), *value.as_object().unwrap());
        let error = serde_json::from_value::<RawObject>(serde_json::json!("x")).unwrap_err();
        assert!(
            error.to_string().contains("expected a JSON object"),
            "{error}"
        );
    }

    #[test]
    fn numbers_keep_their_spelling() {
        let text = r#"{"big":123456789012345678901234567890,"e":1.0e2}"#;
        let object: RawObject = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_string(&object).unwrap(), text);
    }
}
