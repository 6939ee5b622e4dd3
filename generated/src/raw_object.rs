//! [`RawObject`]: a free-form JSON object of a message, kept as its JSON text.

use std::fmt;
use std::str::FromStr;

use serde::de::{self, Deserialize, Deserializer, MapAccess, Unexpected, Visitor};
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use crate::__private::buffer::{raw_text, RAW_VALUE_TOKEN};

/// A JSON object that the schema leaves free-form: `_meta`, a tool call's `arguments`, the JSON
/// Schemas in a tool's `inputSchema.properties`, capability objects such as `experimental`.
///
/// It is kept as its JSON text. Decoding one from text checks that the value is an object and
/// copies its text: no map is built and nothing is allocated per member, so a `tools/list`
/// result with forty input schemas decodes at close to the speed of a bare JSON parse, and
/// encoding writes the text back as it is: numbers keep their spelling (`1.0e2`, integers beyond
/// `u64`) and members their order.
///
/// Read it into your own type with [`decode`](Self::decode) (a tool's typed arguments, straight
/// from the text), or into a map with [`to_map`](Self::to_map). Build one from a map, a
/// `serde_json::Value` object, text ([`FromStr`]), or anything that serializes to an object
/// ([`from_serialize`](Self::from_serialize)).
///
/// ```
/// use mcp_typed::RawObject;
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
/// What is kept, and where:
/// - An object written over several lines is compacted (`{\n  "a": 1\n}` becomes `{"a":1}`),
///   so a message always re-encodes on one line, as the stdio transport needs. Other text is
///   kept as it came, spaces included.
/// - The text is checked the way serde_json checks a value it skips: well-formed JSON, but
///   duplicate member names, numbers beyond `f64` and lone surrogate escapes pass, and reach
///   whoever reads the object ([`to_map`](Self::to_map) then fails or keeps the last duplicate).
/// - Decoding from other serde formats, and through serde's buffering (`#[serde(flatten)]`,
///   untagged enums), reads the object as a map and writes it as JSON text. Encoding writes the
///   text through serde_json's raw-value protocol: encode with serde_json (to text or to a
///   `Value`), as MCP does; another format would get the text wrapped in a one-field struct.
#[derive(Clone)]
pub struct RawObject(Box<str>);

impl RawObject {
    /// The empty object, `{}`.
    pub fn new() -> Self {
        Self("{}".into())
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
        Ok(Self::on_one_line(text))
    }

    /// The object's JSON text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether the object has no members.
    pub fn is_empty(&self) -> bool {
        self.0[1..self.0.len() - 1].trim().is_empty()
    }

    /// Decodes the object into `T`, straight from its text (borrowing from it where `T` does).
    pub fn decode<'a, T: Deserialize<'a>>(&'a self) -> Result<T, serde_json::Error> {
        serde_json::from_str(self.as_str())
    }

    /// The object as a map. Fails where `serde_json::Value` cannot hold a member (a number
    /// beyond the range of `f64`, nesting deeper than 128 levels); of duplicate members, the
    /// last is kept.
    pub fn to_map(&self) -> Result<Map<String, Value>, serde_json::Error> {
        self.decode()
    }

    /// Well-formed JSON text of an object (a borrowed one's), compacted if it has a line break.
    #[cfg(feature = "borrowed")]
    pub(crate) fn from_object_text(text: &str) -> Self {
        if has_line_break(text) {
            Self(compact(text).into())
        } else {
            Self(text.into())
        }
    }

    /// Text that is well-formed JSON and an object, compacted if it has a line break.
    fn on_one_line(text: String) -> Self {
        if has_line_break(&text) {
            Self(compact(&text).into())
        } else {
            Self(text.into())
        }
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
        // A map with string keys always serializes.
        Self(
            serde_json::to_string(map)
                .expect("a JSON map serializes")
                .into(),
        )
    }
}

impl TryFrom<Value> for RawObject {
    type Error = serde_json::Error;
    /// The object, or an error for any other JSON value.
    fn try_from(value: Value) -> Result<Self, Self::Error> {
        from_raw_text(value.to_string())
    }
}

impl FromStr for RawObject {
    type Err = serde_json::Error;
    /// The object that `text` holds, or an error if it is not JSON or not an object.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        serde_json::from_str(text)
    }
}

impl PartialEq for RawObject {
    /// The same text, or members that are equal as `serde_json::Map`s compare them (in any
    /// order; numbers as serde_json reads them, so integers beyond `u64` compare as `f64`).
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
            || matches!((self.to_map(), other.to_map()), (Ok(a), Ok(b)) if a == b)
    }
}

impl fmt::Debug for RawObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("RawObject")
            .field(&format_args!("{}", self.as_str()))
            .finish()
    }
}

impl fmt::Display for RawObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for RawObject {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_text(self.as_str(), serializer)
    }
}

/// Writes an object's JSON text through serde_json's raw-value protocol.
pub(crate) fn serialize_text<S: Serializer>(text: &str, serializer: S) -> Result<S::Ok, S::Error> {
    let mut raw = serializer.serialize_struct(RAW_VALUE_TOKEN, 1)?;
    raw.serialize_field(RAW_VALUE_TOKEN, text)?;
    raw.end()
}

impl<'de> Deserialize<'de> for RawObject {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_newtype_struct(RAW_VALUE_TOKEN, ObjectVisitor)
    }
}

struct ObjectVisitor;

impl<'de> Visitor<'de> for ObjectVisitor {
    type Value = RawObject;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    /// Deserializers without the raw-value protocol (a `Value` passed by reference, serde's
    /// buffering, other formats): the object's members, none of them taken for raw text.
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<RawObject, D::Error> {
        d.deserialize_map(MembersVisitor)
    }

    /// serde_json's raw text of the value, or an object of another format written as JSON.
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<RawObject, A::Error> {
        from_raw_text(raw_text(map)?.into_owned())
    }
}

/// An object read member by member, written as JSON.
struct MembersVisitor;

impl<'de> Visitor<'de> for MembersVisitor {
    type Value = RawObject;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawObject, A::Error> {
        let mut object = Map::new();
        while let Some((name, value)) = map.next_entry::<String, Value>()? {
            object.insert(name, value);
        }
        Ok(RawObject::from(object))
    }
}

/// Well-formed JSON text (serde_json's own), if it is an object; else the JSON kind it is.
fn from_raw_text<E: de::Error>(text: String) -> Result<RawObject, E> {
    check_object(&text)?;
    Ok(RawObject::on_one_line(text))
}

/// Whether well-formed JSON `text` is an object; else the error naming the JSON kind it is.
pub(crate) fn check_object<E: de::Error>(text: &str) -> Result<(), E> {
    if text.starts_with('{') {
        return Ok(());
    }
    let found = match text.as_bytes().first() {
        Some(b'[') => Unexpected::Seq,
        Some(b'"') => Unexpected::Other("string"),
        Some(b't' | b'f') => Unexpected::Other("boolean"),
        Some(b'n') => Unexpected::Unit,
        _ => Unexpected::Other("number"),
    };
    Err(E::invalid_type(found, &"a JSON object"))
}

/// Whether `text` has a line break, which in JSON text can only be whitespace between tokens.
pub(crate) fn has_line_break(text: &str) -> bool {
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
    fn emptiness_ignores_spaces() {
        for text in ["{}", "{ }", "{\t}", "{\n}"] {
            let object: RawObject = text.parse().unwrap();
            assert!(object.is_empty(), "{text}");
        }
        assert!(!RawObject::from_str(r#"{ "a": 1 }"#).unwrap().is_empty());
        assert!("[]".parse::<RawObject>().is_err());
        assert!("{} x".parse::<RawObject>().is_err(), "trailing text");
    }

    #[test]
    fn debug_shows_the_text() {
        let object: RawObject = r#"{"a":"b"}"#.parse().unwrap();
        assert_eq!(format!("{object:?}"), r#"RawObject({"a":"b"})"#);
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
