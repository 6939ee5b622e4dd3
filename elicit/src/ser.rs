//! Writing a [`RequestedSchema`]: the current form, and the 2025-06-18 form.

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use super::{
    pointer, EnumOptions, KeyOrder, Keyword, PropertySchema, RequestedSchema, Revision,
    TitledOption, ToRevisionError,
};

impl Serialize for RequestedSchema {
    /// Writes `{"type":"object","properties":{…},"required":[…]}` as revision 2025-11-25 and
    /// later have it: properties in declaration order, `required` only when not empty,
    /// `"additionalProperties": false` only when set. The schema is written as it is, without
    /// [`RequestedSchema::check`].
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        SchemaOut {
            schema: self,
            legacy: false,
        }
        .serialize(serializer)
    }
}

impl Serialize for PropertySchema {
    /// Writes the property schema as revision 2025-11-25 and later have it: `type` first, then
    /// the keywords present in [`KeyOrder`] order.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        PropertyOut {
            property: self,
            legacy: false,
        }
        .serialize(serializer)
    }
}

/// Refuses what revision 2025-06-18 cannot express.
pub(crate) fn check_legacy(
    schema: &RequestedSchema,
    revision: Revision,
) -> Result<(), ToRevisionError> {
    for (name, property) in &schema.properties {
        let at = pointer("/properties", name);
        let unsupported = |pointer: String, message: &str| ToRevisionError::Unsupported {
            revision,
            property: name.clone(),
            pointer,
            message: message.to_owned(),
        };
        let default_at = || super::pointer(&at, "default");
        match property {
            PropertySchema::String(s) => {
                if s.pattern.is_some() {
                    return Err(unsupported(
                        super::pointer(&at, "pattern"),
                        "`pattern` on a string does not exist",
                    ));
                }
                if s.default.is_some() {
                    return Err(unsupported(
                        default_at(),
                        "`default` on a string does not exist",
                    ));
                }
            }
            PropertySchema::Number(n) => {
                if n.default.is_some() {
                    return Err(unsupported(
                        default_at(),
                        "`default` on a number does not exist",
                    ));
                }
            }
            PropertySchema::Boolean(_) => {}
            PropertySchema::SingleSelect(s) => {
                if s.default.is_some() {
                    return Err(unsupported(
                        default_at(),
                        "`default` on an enum does not exist",
                    ));
                }
            }
            PropertySchema::MultiSelect(_) => {
                return Err(unsupported(at.clone(), "multi-select enums do not exist"));
            }
        }
    }
    Ok(())
}

/// The whole schema, in the current form or (`legacy`) the 2025-06-18 form.
pub(crate) struct SchemaOut<'a> {
    pub(crate) schema: &'a RequestedSchema,
    pub(crate) legacy: bool,
}

impl Serialize for SchemaOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let schema = self.schema;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("type", "object")?;
        map.serialize_entry(
            "properties",
            &PropertiesOut {
                properties: &schema.properties,
                legacy: self.legacy,
            },
        )?;
        if !schema.required.is_empty() {
            map.serialize_entry("required", &schema.required)?;
        }
        if schema.additional_properties_forbidden {
            map.serialize_entry("additionalProperties", &false)?;
        }
        map.end()
    }
}

struct PropertiesOut<'a> {
    properties: &'a [(String, PropertySchema)],
    legacy: bool,
}

impl Serialize for PropertiesOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.properties.len()))?;
        for (name, property) in self.properties {
            map.serialize_entry(
                name,
                &PropertyOut {
                    property,
                    legacy: self.legacy,
                },
            )?;
        }
        map.end()
    }
}

struct PropertyOut<'a> {
    property: &'a PropertySchema,
    legacy: bool,
}

/// A keyword's value as a property schema writes it.
enum Out<'a> {
    Text(&'a str),
    Count(u64),
    Number(&'a serde_json::Number),
    Bool(bool),
    Texts(&'a [String]),
    /// A single select's options: `enum` (with `enumNames` when titled, `legacy` or asked
    /// for), or `oneOf`.
    Options(&'a EnumOptions, bool),
    /// A multi select's `items`.
    Items(&'a EnumOptions),
}

impl Out<'_> {
    fn write<M: SerializeMap>(&self, map: &mut M, keyword: Keyword) -> Result<(), M::Error> {
        let key = keyword.as_str();
        match *self {
            Out::Text(text) => map.serialize_entry(key, text),
            Out::Count(count) => map.serialize_entry(key, &count),
            Out::Number(number) => map.serialize_entry(key, number),
            Out::Bool(flag) => map.serialize_entry(key, &flag),
            Out::Texts(texts) => map.serialize_entry(key, texts),
            Out::Options(EnumOptions::Untitled(values), _) => map.serialize_entry("enum", values),
            Out::Options(EnumOptions::Titled(options), true) => {
                map.serialize_entry("enum", &Values(options))?;
                map.serialize_entry("enumNames", &Titles(options))
            }
            Out::Options(EnumOptions::Titled(options), false) => {
                map.serialize_entry("oneOf", &ConstTitles(options))
            }
            Out::Items(options) => map.serialize_entry("items", &ItemsOut(options)),
        }
    }
}

impl PropertyOut<'_> {
    /// The property's `type`, and its keywords: each with its value when present. The one
    /// table of what a kind of property writes; [`KeyOrder::arrange`] orders
    /// the present ones.
    fn keywords(&self) -> (&'static str, &KeyOrder, Vec<(Keyword, Option<Out<'_>>)>) {
        fn text(value: &Option<String>) -> Option<Out<'_>> {
            value.as_deref().map(Out::Text)
        }
        fn count<'a>(value: &Option<u64>) -> Option<Out<'a>> {
            value.map(Out::Count)
        }
        match self.property {
            PropertySchema::String(s) => (
                "string",
                &s.key_order,
                vec![
                    (Keyword::Title, text(&s.title)),
                    (Keyword::Description, text(&s.description)),
                    (Keyword::MinLength, count(&s.min_length)),
                    (Keyword::MaxLength, count(&s.max_length)),
                    (Keyword::Pattern, text(&s.pattern)),
                    (Keyword::Format, s.format.map(|f| Out::Text(f.as_str()))),
                    (Keyword::Default, text(&s.default)),
                ],
            ),
            PropertySchema::Number(n) => (
                if n.integer { "integer" } else { "number" },
                &n.key_order,
                vec![
                    (Keyword::Title, text(&n.title)),
                    (Keyword::Description, text(&n.description)),
                    (Keyword::Minimum, n.minimum.as_ref().map(Out::Number)),
                    (Keyword::Maximum, n.maximum.as_ref().map(Out::Number)),
                    (Keyword::Default, n.default.as_ref().map(Out::Number)),
                ],
            ),
            PropertySchema::Boolean(b) => (
                "boolean",
                &b.key_order,
                vec![
                    (Keyword::Title, text(&b.title)),
                    (Keyword::Description, text(&b.description)),
                    (Keyword::Default, b.default.map(Out::Bool)),
                ],
            ),
            PropertySchema::SingleSelect(s) => {
                // Titled options go as `oneOf`, but as `enum` + `enumNames` in the legacy form
                // or when asked for; untitled ones as `enum`.
                let enum_names = self.legacy || s.enum_names;
                let options = match &s.options {
                    EnumOptions::Titled(_) if !enum_names => Keyword::OneOf,
                    _ => Keyword::Enum,
                };
                (
                    "string",
                    &s.key_order,
                    vec![
                        (Keyword::Title, text(&s.title)),
                        (Keyword::Description, text(&s.description)),
                        (options, Some(Out::Options(&s.options, enum_names))),
                        (Keyword::Default, text(&s.default)),
                    ],
                )
            }
            PropertySchema::MultiSelect(m) => (
                "array",
                &m.key_order,
                vec![
                    (Keyword::Title, text(&m.title)),
                    (Keyword::Description, text(&m.description)),
                    (Keyword::MinItems, count(&m.min_items)),
                    (Keyword::MaxItems, count(&m.max_items)),
                    (Keyword::Items, Some(Out::Items(&m.options))),
                    (Keyword::Default, m.default.as_deref().map(Out::Texts)),
                ],
            ),
        }
    }
}

impl Serialize for PropertyOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        let (kind, key_order, keywords) = self.keywords();
        map.serialize_entry("type", kind)?;
        let value = |keyword: Keyword| {
            (keywords.iter())
                .find(|(k, _)| *k == keyword)
                .and_then(|(_, value)| value.as_ref())
        };
        for keyword in key_order.arrange(|k| value(k).is_some()) {
            if let Some(out) = value(keyword) {
                out.write(&mut map, keyword)?;
            }
        }
        map.end()
    }
}

/// `items` of a multi select.
struct ItemsOut<'a>(&'a EnumOptions);

impl Serialize for ItemsOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        match self.0 {
            EnumOptions::Untitled(values) => {
                map.serialize_entry("type", "string")?;
                map.serialize_entry("enum", values)?;
            }
            EnumOptions::Titled(options) => {
                map.serialize_entry("anyOf", &ConstTitles(options))?;
            }
        }
        map.end()
    }
}

/// `[{"const": value, "title": title}, …]`.
struct ConstTitles<'a>(&'a [TitledOption]);

impl Serialize for ConstTitles<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for option in self.0 {
            seq.serialize_element(&ConstTitle(option))?;
        }
        seq.end()
    }
}

struct ConstTitle<'a>(&'a TitledOption);

impl Serialize for ConstTitle<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("const", &self.0.value)?;
        map.serialize_entry("title", &self.0.title)?;
        map.end()
    }
}

/// The values of titled options (legacy `enum`).
struct Values<'a>(&'a [TitledOption]);

impl Serialize for Values<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|option| &option.value))
    }
}

/// The titles of titled options (legacy `enumNames`).
struct Titles<'a>(&'a [TitledOption]);

impl Serialize for Titles<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|option| &option.title))
    }
}
