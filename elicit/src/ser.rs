//! Writing a [`RequestedSchema`]: the current form, and the 2025-06-18 form.

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use super::{
    pointer, EnumOptions, Keyword, PropertySchema, RequestedSchema, Revision, TitledOption,
    ToRevisionError,
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
    /// the keywords present in [`KeyOrder`](super::KeyOrder) order.
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

fn optional<M: SerializeMap, T: Serialize + ?Sized>(
    map: &mut M,
    keyword: Keyword,
    value: Option<&T>,
) -> Result<(), M::Error> {
    match value {
        Some(value) => map.serialize_entry(keyword.as_str(), value),
        None => Ok(()),
    }
}

impl Serialize for PropertyOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        match self.property {
            PropertySchema::String(s) => {
                map.serialize_entry("type", "string")?;
                let order = s.key_order.arrange(|k| match k {
                    Keyword::Title => s.title.is_some(),
                    Keyword::Description => s.description.is_some(),
                    Keyword::MinLength => s.min_length.is_some(),
                    Keyword::MaxLength => s.max_length.is_some(),
                    Keyword::Pattern => s.pattern.is_some(),
                    Keyword::Format => s.format.is_some(),
                    Keyword::Default => s.default.is_some(),
                    _ => false,
                });
                for keyword in order {
                    match keyword {
                        Keyword::Title => optional(&mut map, keyword, s.title.as_ref())?,
                        Keyword::Description => {
                            optional(&mut map, keyword, s.description.as_ref())?
                        }
                        Keyword::MinLength => optional(&mut map, keyword, s.min_length.as_ref())?,
                        Keyword::MaxLength => optional(&mut map, keyword, s.max_length.as_ref())?,
                        Keyword::Pattern => optional(&mut map, keyword, s.pattern.as_ref())?,
                        Keyword::Format => {
                            optional(&mut map, keyword, s.format.map(|f| f.as_str()))?
                        }
                        Keyword::Default => optional(&mut map, keyword, s.default.as_ref())?,
                        _ => {}
                    }
                }
            }
            PropertySchema::Number(n) => {
                map.serialize_entry("type", if n.integer { "integer" } else { "number" })?;
                let order = n.key_order.arrange(|k| match k {
                    Keyword::Title => n.title.is_some(),
                    Keyword::Description => n.description.is_some(),
                    Keyword::Minimum => n.minimum.is_some(),
                    Keyword::Maximum => n.maximum.is_some(),
                    Keyword::Default => n.default.is_some(),
                    _ => false,
                });
                for keyword in order {
                    match keyword {
                        Keyword::Title => optional(&mut map, keyword, n.title.as_ref())?,
                        Keyword::Description => {
                            optional(&mut map, keyword, n.description.as_ref())?
                        }
                        Keyword::Minimum => optional(&mut map, keyword, n.minimum.as_ref())?,
                        Keyword::Maximum => optional(&mut map, keyword, n.maximum.as_ref())?,
                        Keyword::Default => optional(&mut map, keyword, n.default.as_ref())?,
                        _ => {}
                    }
                }
            }
            PropertySchema::Boolean(b) => {
                map.serialize_entry("type", "boolean")?;
                let order = b.key_order.arrange(|k| match k {
                    Keyword::Title => b.title.is_some(),
                    Keyword::Description => b.description.is_some(),
                    Keyword::Default => b.default.is_some(),
                    _ => false,
                });
                for keyword in order {
                    match keyword {
                        Keyword::Title => optional(&mut map, keyword, b.title.as_ref())?,
                        Keyword::Description => {
                            optional(&mut map, keyword, b.description.as_ref())?
                        }
                        Keyword::Default => optional(&mut map, keyword, b.default.as_ref())?,
                        _ => {}
                    }
                }
            }
            PropertySchema::SingleSelect(s) => {
                map.serialize_entry("type", "string")?;
                // The options go as `enum` (with `enumNames`, titled in the legacy form) or `oneOf`.
                let options = match &s.options {
                    EnumOptions::Titled(_) if !(self.legacy || s.enum_names) => Keyword::OneOf,
                    _ => Keyword::Enum,
                };
                let order = s.key_order.arrange(|k| match k {
                    Keyword::Title => s.title.is_some(),
                    Keyword::Description => s.description.is_some(),
                    Keyword::Default => s.default.is_some(),
                    k => k == options,
                });
                for keyword in order {
                    match keyword {
                        Keyword::Title => optional(&mut map, keyword, s.title.as_ref())?,
                        Keyword::Description => {
                            optional(&mut map, keyword, s.description.as_ref())?
                        }
                        Keyword::Enum | Keyword::OneOf => match &s.options {
                            EnumOptions::Untitled(values) => map.serialize_entry("enum", values)?,
                            EnumOptions::Titled(options) if self.legacy || s.enum_names => {
                                map.serialize_entry("enum", &Values(options))?;
                                map.serialize_entry("enumNames", &Titles(options))?;
                            }
                            EnumOptions::Titled(options) => {
                                map.serialize_entry("oneOf", &ConstTitles(options))?
                            }
                        },
                        Keyword::Default => optional(&mut map, keyword, s.default.as_ref())?,
                        _ => {}
                    }
                }
            }
            PropertySchema::MultiSelect(m) => {
                map.serialize_entry("type", "array")?;
                let order = m.key_order.arrange(|k| match k {
                    Keyword::Title => m.title.is_some(),
                    Keyword::Description => m.description.is_some(),
                    Keyword::MinItems => m.min_items.is_some(),
                    Keyword::MaxItems => m.max_items.is_some(),
                    Keyword::Items => true,
                    Keyword::Default => m.default.is_some(),
                    _ => false,
                });
                for keyword in order {
                    match keyword {
                        Keyword::Title => optional(&mut map, keyword, m.title.as_ref())?,
                        Keyword::Description => {
                            optional(&mut map, keyword, m.description.as_ref())?
                        }
                        Keyword::MinItems => optional(&mut map, keyword, m.min_items.as_ref())?,
                        Keyword::MaxItems => optional(&mut map, keyword, m.max_items.as_ref())?,
                        Keyword::Items => map.serialize_entry("items", &ItemsOut(&m.options))?,
                        Keyword::Default => optional(&mut map, keyword, m.default.as_ref())?,
                        _ => {}
                    }
                }
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
