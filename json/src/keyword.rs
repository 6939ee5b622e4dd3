//! The JSON Schema keywords the crates name, each spelled once: the constraint a validation
//! violation or a form answer's problem breaks (`mcp_typed::validate`, `mcp-elicit`), and the keys
//! of a form's property schema in the order they are written (`mcp_elicit::KeyOrder`).

use std::fmt;

/// A JSON Schema keyword.
///
/// ```
/// use mcp_typed_json::Keyword;
///
/// assert_eq!(Keyword::MaxLength.as_str(), "maxLength");
/// assert_eq!(Keyword::from_name("maxLength"), Some(Keyword::MaxLength));
/// assert_eq!(Keyword::AdditionalProperties.to_string(), "additionalProperties");
/// assert_eq!(serde_json::json!(Keyword::Enum), "enum");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Keyword {
    /// `type`.
    Type,
    /// `required`.
    Required,
    /// `additionalProperties`.
    AdditionalProperties,
    /// `title`.
    Title,
    /// `description`.
    Description,
    /// `default`.
    Default,
    /// `enum`.
    Enum,
    /// `oneOf`.
    OneOf,
    /// `items`.
    Items,
    /// `format`.
    Format,
    /// `pattern`.
    Pattern,
    /// `minLength`.
    MinLength,
    /// `maxLength`.
    MaxLength,
    /// `minimum`.
    Minimum,
    /// `maximum`.
    Maximum,
    /// `exclusiveMinimum`.
    ExclusiveMinimum,
    /// `exclusiveMaximum`.
    ExclusiveMaximum,
    /// `multipleOf`.
    MultipleOf,
    /// `minItems`.
    MinItems,
    /// `maxItems`.
    MaxItems,
    /// `uniqueItems`.
    UniqueItems,
    /// `minProperties`.
    MinProperties,
    /// `maxProperties`.
    MaxProperties,
}

impl Keyword {
    /// Every keyword, in the order of the enum.
    pub const ALL: [Keyword; 23] = [
        Keyword::Type,
        Keyword::Required,
        Keyword::AdditionalProperties,
        Keyword::Title,
        Keyword::Description,
        Keyword::Default,
        Keyword::Enum,
        Keyword::OneOf,
        Keyword::Items,
        Keyword::Format,
        Keyword::Pattern,
        Keyword::MinLength,
        Keyword::MaxLength,
        Keyword::Minimum,
        Keyword::Maximum,
        Keyword::ExclusiveMinimum,
        Keyword::ExclusiveMaximum,
        Keyword::MultipleOf,
        Keyword::MinItems,
        Keyword::MaxItems,
        Keyword::UniqueItems,
        Keyword::MinProperties,
        Keyword::MaxProperties,
    ];

    /// The keyword as a schema writes it (`"maxLength"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Keyword::Type => "type",
            Keyword::Required => "required",
            Keyword::AdditionalProperties => "additionalProperties",
            Keyword::Title => "title",
            Keyword::Description => "description",
            Keyword::Default => "default",
            Keyword::Enum => "enum",
            Keyword::OneOf => "oneOf",
            Keyword::Items => "items",
            Keyword::Format => "format",
            Keyword::Pattern => "pattern",
            Keyword::MinLength => "minLength",
            Keyword::MaxLength => "maxLength",
            Keyword::Minimum => "minimum",
            Keyword::Maximum => "maximum",
            Keyword::ExclusiveMinimum => "exclusiveMinimum",
            Keyword::ExclusiveMaximum => "exclusiveMaximum",
            Keyword::MultipleOf => "multipleOf",
            Keyword::MinItems => "minItems",
            Keyword::MaxItems => "maxItems",
            Keyword::UniqueItems => "uniqueItems",
            Keyword::MinProperties => "minProperties",
            Keyword::MaxProperties => "maxProperties",
        }
    }

    /// The keyword a schema spells `name`, if it is one of these.
    pub fn from_name(name: &str) -> Option<Keyword> {
        Keyword::ALL
            .into_iter()
            .find(|keyword| keyword.as_str() == name)
    }
}

impl fmt::Display for Keyword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// As its name: `"maxLength"`.
impl serde::Serialize for Keyword {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_keyword_is_listed_once_and_read_back_from_its_name() {
        for (at, keyword) in Keyword::ALL.into_iter().enumerate() {
            assert_eq!(Keyword::from_name(keyword.as_str()), Some(keyword));
            assert!(!Keyword::ALL[..at].contains(&keyword), "{keyword} twice");
        }
        assert_eq!(Keyword::from_name("maxlength"), None);
    }
}
