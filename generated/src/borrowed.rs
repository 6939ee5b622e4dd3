//! The runtime of the borrowed message family (feature `borrowed`): the member types that
//! borrow from the JSON text a message is decoded from, [`IntoOwned`], which turns a borrowed
//! message into the owned one, and [`RequestRef`], which pairs a request type with its result's
//! borrowed form.
//!
//! Each revision module has a `borrowed` submodule generated from the same schema as the owned
//! types: `ClientMessageRef<'de>`, `ServerMessageRef<'de>` and every type they reach, with
//! - strings as [`Str<'de>`], borrowed from the input unless the string has an escape;
//! - free-form objects (`_meta`, a tool call's `arguments`) as [`RawObjectRef<'de>`], their text;
//! - values of any type as [`ValueRef<'de>`], their text;
//! - members the schema does not declare as [`ExtraRef<'de>`], their names and texts;
//! - numbers, booleans and string enums as the owned types have them (`i64`, `Role`).
//!
//! They decode with the same dispatch, the same spec rules and the same errors as the owned
//! types, from text input (`parse`, `serde_json::from_str`, `from_slice`): a reader or a
//! `serde_json::Value` lends no text, so decode the owned types from those. A borrowed value
//! encodes to the same text as its owned form.
//!
//! ```
//! # #[cfg(feature = "v2025_11_25")] {
//! use mcp_typed::borrowed::IntoOwned;
//! use mcp_typed::v2025_11_25::borrowed::{ClientMessageRef, ClientRequestRef};
//! use mcp_typed::v2025_11_25::ClientMessage;
//!
//! let text = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":2}}}"#;
//! let message = ClientMessageRef::parse(text)?;
//! let ClientMessageRef::Request { request: ClientRequestRef::CallTool(params), .. } = &message else {
//!     panic!("a tools/call request")
//! };
//! assert_eq!(params.name, "add");
//! assert!(params.name.is_borrowed(), "no copy of the name");
//! assert_eq!(params.arguments.as_ref().unwrap().as_str(), r#"{"a":2}"#);
//! // Encoding writes what the owned message writes; `into_owned` gives the owned message.
//! let owned: ClientMessage = text.parse()?;
//! assert_eq!(serde_json::to_string(&message).unwrap(), serde_json::to_string(&owned).unwrap());
//! assert_eq!(message.into_owned(), owned);
//! # }
//! # Ok::<(), mcp_typed::jsonrpc::DecodeError>(())
//! ```

use std::borrow::{Borrow, Cow};
use std::fmt;
use std::hash::Hash;
use std::ops::Deref;

use serde::de::{Deserialize, Deserializer, Error as _, MapAccess, Visitor};
use serde::{Serialize, Serializer};
use serde_json::{Map, Number, Value};

use crate::__private::buffer::{raw_text, Captured};
use crate::__private::{ExtraMap, Key};
use crate::jsonrpc::Request;
use crate::{IndexMap, RawObject};

/// A string member: borrowed from the input where the string has no escape, else owned.
/// Compares, hashes and prints as the `str` it holds.
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Str<'de>(Cow<'de, str>);

impl<'de> Str<'de> {
    /// The string.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether it borrows from the input (no copy was made).
    pub fn is_borrowed(&self) -> bool {
        matches!(self.0, Cow::Borrowed(_))
    }

    /// The string as a `Cow`.
    pub fn into_cow(self) -> Cow<'de, str> {
        self.0
    }
}

impl Deref for Str<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Str<'_> {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Str<'_> {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Str<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for Str<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<'de> From<&'de str> for Str<'de> {
    fn from(text: &'de str) -> Self {
        Str(Cow::Borrowed(text))
    }
}

impl From<String> for Str<'_> {
    fn from(text: String) -> Self {
        Str(Cow::Owned(text))
    }
}

impl<'de> From<Cow<'de, str>> for Str<'de> {
    fn from(text: Cow<'de, str>) -> Self {
        Str(text)
    }
}

impl PartialEq<str> for Str<'_> {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<&str> for Str<'_> {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<String> for Str<'_> {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl Serialize for Str<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Str<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // serde's own `Cow<str>` always copies: its visitor has no `visit_borrowed_str`.
        Key::deserialize(deserializer).map(|key| Str(key.0))
    }
}

/// A JSON value of any type (`TypeExpr::Any` of the schema: a constant's value, an error's
/// `data`), kept as its JSON text. It is checked as `serde_json::Value` checks a value (numbers
/// within `f64`, no lone surrogate escapes), so that what the owned types refuse it refuses, and
/// it encodes as the `Value` would.
#[derive(Clone)]
pub struct ValueRef<'de>(Cow<'de, str>);

impl ValueRef<'_> {
    /// The value's JSON text, as it came.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The value.
    pub fn to_value(&self) -> Value {
        serde_json::from_str(&self.0).expect("checked when decoded")
    }
}

impl Default for ValueRef<'_> {
    fn default() -> Self {
        ValueRef(Cow::Borrowed("null"))
    }
}

impl PartialEq for ValueRef<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0 || self.to_value() == other.to_value()
    }
}

impl fmt::Debug for ValueRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("ValueRef")
            .field(&format_args!("{}", self.0))
            .finish()
    }
}

impl Serialize for ValueRef<'_> {
    /// As the `Value` it holds: the same text as the owned member writes.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_value().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for ValueRef<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let captured = Captured::deserialize(deserializer)?;
        check_value(captured.text()).map_err(D::Error::custom)?;
        Ok(ValueRef(captured.into_cow()))
    }
}

/// Whether `text` (well-formed JSON) reads as a `serde_json::Value`, without building one:
/// serde_json's raw text is only scanned, where a `Value` also refuses numbers beyond `f64` and
/// lone surrogate escapes.
fn check_value(text: &str) -> Result<(), serde_json::Error> {
    serde_json::from_str::<crate::__private::AnyValue>(text).map(drop)
}

/// A free-form JSON object (`_meta`, a tool call's `arguments`, an input schema's properties),
/// kept as its JSON text: borrowed from the input unless it was written over several lines,
/// which [`RawObject`] compacts (so that both encode the same).
#[derive(Clone)]
pub struct RawObjectRef<'de>(Cow<'de, str>);

impl RawObjectRef<'_> {
    /// The object's JSON text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether the text borrows from the input (no copy was made).
    pub fn is_borrowed(&self) -> bool {
        matches!(self.0, Cow::Borrowed(_))
    }

    /// Decodes the object into `T`, straight from its text (borrowing from it where `T` does).
    pub fn decode<'a, T: Deserialize<'a>>(&'a self) -> Result<T, serde_json::Error> {
        serde_json::from_str(&self.0)
    }
}

impl Default for RawObjectRef<'_> {
    fn default() -> Self {
        RawObjectRef(Cow::Borrowed("{}"))
    }
}

impl PartialEq for RawObjectRef<'_> {
    /// As [`RawObject`] compares.
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
            || RawObject::from_object_text(&self.0) == RawObject::from_object_text(&other.0)
    }
}

impl fmt::Debug for RawObjectRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("RawObjectRef")
            .field(&format_args!("{}", self.0))
            .finish()
    }
}

impl fmt::Display for RawObjectRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for RawObjectRef<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        crate::raw_object::serialize_text(&self.0, serializer)
    }
}

impl<'de> Deserialize<'de> for RawObjectRef<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ObjectVisitor;
        impl<'de> Visitor<'de> for ObjectVisitor {
            type Value = RawObjectRef<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            /// Deserializers without the raw-value protocol: as [`RawObject`] reads them.
            fn visit_newtype_struct<D: Deserializer<'de>>(
                self,
                d: D,
            ) -> Result<RawObjectRef<'de>, D::Error> {
                let owned = RawObject::deserialize(d)?;
                Ok(RawObjectRef(Cow::Owned(owned.as_str().to_owned())))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<RawObjectRef<'de>, A::Error> {
                let text = raw_text(map)?;
                crate::raw_object::check_object(&text)?;
                Ok(match text {
                    Cow::Borrowed(text) if !crate::raw_object::has_line_break(text) => {
                        RawObjectRef(Cow::Borrowed(text))
                    }
                    text => RawObjectRef(Cow::Owned(
                        RawObject::from_object_text(&text).as_str().to_owned(),
                    )),
                })
            }
        }
        deserializer
            .deserialize_newtype_struct(crate::__private::buffer::RAW_VALUE_TOKEN, ObjectVisitor)
    }
}

/// The members of an object that its schema does not declare, in the order they came: names
/// and values borrowed. They encode in the order the owned `serde_json::Map` keeps (sorted by
/// name, or as they came when serde_json's `preserve_order` is on in the build), so that both
/// write the same text.
#[derive(Clone, Default, PartialEq)]
pub struct ExtraRef<'de>(Vec<(Str<'de>, ValueRef<'de>)>);

impl<'de> ExtraRef<'de> {
    /// The members, in the order they came.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &ValueRef<'de>)> {
        self.0.iter().map(|(name, value)| (name.as_str(), value))
    }

    /// The value of member `name`.
    pub fn get(&self, name: &str) -> Option<&ValueRef<'de>> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, value)| value)
    }

    /// How many members.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Adds a member; `false` (and nothing added) if it is there already.
    pub fn insert(&mut self, name: impl Into<Str<'de>>, value: ValueRef<'de>) -> bool {
        let name = name.into();
        if self.get(&name).is_some() {
            return false;
        }
        self.0.push((name, value));
        true
    }
}

impl fmt::Debug for ExtraRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<'de> ExtraMap<'de, ValueRef<'de>> for ExtraRef<'de> {
    fn insert_new(&mut self, key: Key<'de>, value: ValueRef<'de>) -> bool {
        self.insert(key.0, value)
    }
    fn entries<'a>(&'a self) -> impl Iterator<Item = (&'a str, &'a ValueRef<'de>)>
    where
        ValueRef<'de>: 'a,
    {
        let mut entries: Vec<_> = self.iter().collect();
        if maps_sort() {
            entries.sort_by(|a, b| a.0.cmp(b.0));
        }
        entries.into_iter()
    }
}

/// Whether this build's `serde_json::Map` sorts its members by name: serde_json's
/// `preserve_order`, which any crate of the build may turn on (the rmcp adapter does by
/// default), makes it keep the order they were inserted in.
fn maps_sort() -> bool {
    static SORTS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *SORTS.get_or_init(|| {
        let mut probe = serde_json::Map::new();
        probe.insert("b".into(), serde_json::Value::Null);
        probe.insert("a".into(), serde_json::Value::Null);
        probe.keys().next().is_some_and(|first| first == "a")
    })
}

impl<'de, V> ExtraMap<'de, V> for IndexMap<Str<'de>, V> {
    fn insert_new(&mut self, key: Key<'de>, value: V) -> bool {
        match self.entry(Str(key.0)) {
            indexmap::map::Entry::Occupied(_) => false,
            indexmap::map::Entry::Vacant(slot) => {
                slot.insert(value);
                true
            }
        }
    }
    fn entries<'a>(&'a self) -> impl Iterator<Item = (&'a str, &'a V)>
    where
        V: 'a,
    {
        self.iter().map(|(name, value)| (name.as_str(), value))
    }
}

/// The borrowed form of a request type's result: [`Request::Result`] as the borrowed family has
/// it (`CallToolRequest` → `CallToolResultRef<'de>`). Implemented in each revision's `borrowed`
/// module for every request type with a result, and visited by the borrowed request sets'
/// `visit_method` (`ClientRequestRef::visit_method("tools/call", visitor)`, see
/// [`VisitRequestRef`]): a proxy or a checker that pairs a response with the method of its
/// request decodes the result without copying its strings.
pub trait RequestRef: Request {
    /// The borrowed form of [`Request::Result`], which [`IntoOwned`] turns into it.
    type ResultRef<'de>: Deserialize<'de>
        + Serialize
        + crate::__private::Validate
        + IntoOwned<Owned = Self::Result>;
}

/// Code generic over [`RequestRef`], run for a method known only at run time: the borrowed
/// request sets' `visit_method` calls [`visit`](Self::visit) with the request type of a method,
/// as [`VisitRequest`](crate::jsonrpc::VisitRequest) does for the owned sets.
///
/// ```
/// # #[cfg(feature = "v2025_11_25")] {
/// use mcp_typed::borrowed::{RequestRef, VisitRequestRef};
/// use mcp_typed::v2025_11_25::borrowed::ClientRequestRef;
///
/// /// A result decoded borrowed (as its request's result) and written again.
/// struct Borrowing<'a>(&'a str);
/// impl VisitRequestRef for Borrowing<'_> {
///     type Output = Result<String, serde_json::Error>;
///     fn visit<R: RequestRef>(self) -> Self::Output {
///         let result: R::ResultRef<'_> = serde_json::from_str(self.0)?;
///         serde_json::to_string(&result)
///     }
/// }
/// let text = r#"{"tools":[{"inputSchema":{"type":"object"},"name":"add"}]}"#;
/// let again = ClientRequestRef::visit_method("tools/list", Borrowing(text)).unwrap()?;
/// assert_eq!(again, text);
/// // A `tools/call` result must have `content`.
/// assert!(ClientRequestRef::visit_method("tools/call", Borrowing(text)).unwrap().is_err());
/// assert!(ClientRequestRef::visit_method("no/such", Borrowing(text)).is_none());
/// # }
/// # Ok::<(), serde_json::Error>(())
/// ```
pub trait VisitRequestRef {
    /// What the visit gives back.
    type Output;
    /// Runs with `R`, the request type of the method visited.
    fn visit<R: RequestRef>(self) -> Self::Output;
}

/// A borrowed value turned into the owned one: every generated `…Ref<'de>` type into its owned
/// type (also by `From`), [`Str`] into `String`, and the containers of them.
pub trait IntoOwned {
    /// The owned type.
    type Owned;
    /// Copies what is borrowed; moves what is not.
    fn into_owned(self) -> Self::Owned;
}

impl IntoOwned for Str<'_> {
    type Owned = String;
    fn into_owned(self) -> String {
        self.0.into_owned()
    }
}

impl IntoOwned for ValueRef<'_> {
    type Owned = Value;
    fn into_owned(self) -> Value {
        self.to_value()
    }
}

impl IntoOwned for RawObjectRef<'_> {
    type Owned = RawObject;
    fn into_owned(self) -> RawObject {
        RawObject::from_object_text(&self.0)
    }
}

impl IntoOwned for ExtraRef<'_> {
    type Owned = Map<String, Value>;
    fn into_owned(self) -> Map<String, Value> {
        self.0
            .into_iter()
            .map(|(name, value)| (name.into_owned(), value.into_owned()))
            .collect()
    }
}

impl<T: IntoOwned> IntoOwned for Option<T> {
    type Owned = Option<T::Owned>;
    fn into_owned(self) -> Self::Owned {
        self.map(T::into_owned)
    }
}

impl<T: IntoOwned> IntoOwned for Vec<T> {
    type Owned = Vec<T::Owned>;
    fn into_owned(self) -> Self::Owned {
        self.into_iter().map(T::into_owned).collect()
    }
}

impl<T: IntoOwned> IntoOwned for Box<T> {
    type Owned = Box<T::Owned>;
    fn into_owned(self) -> Self::Owned {
        Box::new((*self).into_owned())
    }
}

impl<T: IntoOwned> IntoOwned for IndexMap<Str<'_>, T> {
    type Owned = IndexMap<String, T::Owned>;
    fn into_owned(self) -> Self::Owned {
        self.into_iter()
            .map(|(name, value)| (name.into_owned(), value.into_owned()))
            .collect()
    }
}

/// Types that borrow nothing are their own owned form.
macro_rules! owned_already {
    ($($ty:ty),*) => {
        $(impl IntoOwned for $ty {
            type Owned = $ty;
            fn into_owned(self) -> $ty {
                self
            }
        })*
    };
}

owned_already!(bool, i64, Number);
