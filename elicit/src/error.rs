//! Validation errors of a form's `content`. An error records what went wrong as data (the
//! bound, the length, the offending value) and renders its message only when it is read, so
//! that a rejected answer costs a few words per error rather than a `format!` each: servers
//! reject answers often, and usually only show the first message or none.

use std::fmt;
use std::sync::Arc;

use serde_json::{Number, Value};
use smallvec::SmallVec;

use super::{Keyword, StringFormat};

/// The JSON type of a value, as messages name it (`a string`, `null`): what this crate's errors
/// say was found (`mcp-typed-json`'s, as every crate of the workspace names it).
pub use mcp_typed_json::json_kind;

/// A string that is either static, shared between many errors (a property's pointer, its
/// pattern, its rendered list of options) or owned.
#[derive(Clone)]
pub enum Text {
    /// A literal (the derive's pointers and patterns).
    Static(&'static str),
    /// Made once per [`super::Validator`] and shared by its errors.
    Shared(Arc<str>),
    /// Made for this error.
    Owned(String),
}

impl std::ops::Deref for Text {
    type Target = str;

    #[inline]
    fn deref(&self) -> &str {
        match self {
            Text::Static(text) => text,
            Text::Shared(text) => text,
            Text::Owned(text) => text,
        }
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        **self == **other
    }
}

impl Eq for Text {}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl From<&'static str> for Text {
    #[inline]
    fn from(text: &'static str) -> Text {
        Text::Static(text)
    }
}

impl From<String> for Text {
    #[inline]
    fn from(text: String) -> Text {
        Text::Owned(text)
    }
}

impl From<&Arc<str>> for Text {
    #[inline]
    fn from(text: &Arc<str>) -> Text {
        Text::Shared(Arc::clone(text))
    }
}

/// What is wrong with a member: the keyword it violates and the data of its message.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// `required`: the member is missing.
    Missing,
    /// `additionalProperties`: the member is not a property of a form that forbids others.
    Undeclared,
    /// `type`: `expected` (`a string`), and the JSON type found when it is known.
    WrongType {
        /// The expected type, with its article.
        expected: &'static str,
        /// The type found, with its article (`null` has none).
        found: Option<&'static str>,
    },
    /// `type`: a number that is not an integer where an integer is expected.
    NotInteger(Number),
    /// `minLength`, in code points.
    TooShort {
        /// The bound.
        min: u64,
        /// The length of the string.
        length: u64,
    },
    /// `maxLength`, in code points.
    TooLong {
        /// The bound.
        max: u64,
        /// The length of the string.
        length: u64,
    },
    /// `pattern`: the string does not match.
    NoMatch(Text),
    /// `pattern`: the pattern is not an ECMA-262 regular expression, or cannot be run in bounded
    /// time (on any answer, or on this one).
    BadPattern {
        /// The pattern.
        pattern: Text,
        /// Why it cannot be used.
        error: Text,
    },
    /// `format`: the string is not of the format.
    Format(StringFormat),
    /// `minimum`.
    Below {
        /// The bound.
        minimum: Number,
        /// The number found.
        value: Number,
    },
    /// `maximum`.
    Above {
        /// The bound.
        maximum: Number,
        /// The number found.
        value: Number,
    },
    /// `enum`: a value that is not one of the options.
    NotAnOption {
        /// The value found (`None`: a value that is not a string, read without keeping it).
        value: Option<Value>,
        /// The options, as a list for the message (`None`: the message does not list them).
        options: Option<Text>,
    },
    /// `minItems`.
    TooFew {
        /// The bound.
        min: u64,
        /// The number of items.
        count: u64,
    },
    /// `maxItems`.
    TooMany {
        /// The bound.
        max: u64,
        /// The number of items.
        count: u64,
    },
    /// Any keyword, with a message of its own.
    Other {
        /// The keyword.
        keyword: Keyword,
        /// The message.
        message: Text,
    },
}

impl Problem {
    /// The JSON Schema keyword the problem violates.
    pub fn keyword(&self) -> Keyword {
        match self {
            Problem::Missing => Keyword::Required,
            Problem::Undeclared => Keyword::AdditionalProperties,
            Problem::WrongType { .. } | Problem::NotInteger(_) => Keyword::Type,
            Problem::TooShort { .. } => Keyword::MinLength,
            Problem::TooLong { .. } => Keyword::MaxLength,
            Problem::NoMatch(_) | Problem::BadPattern { .. } => Keyword::Pattern,
            Problem::Format(_) => Keyword::Format,
            Problem::Below { .. } => Keyword::Minimum,
            Problem::Above { .. } => Keyword::Maximum,
            Problem::NotAnOption { .. } => Keyword::Enum,
            Problem::TooFew { .. } => Keyword::MinItems,
            Problem::TooMany { .. } => Keyword::MaxItems,
            Problem::Other { keyword, .. } => *keyword,
        }
    }

    /// Writes the message; `pointer` names the member for the messages that mention it.
    fn write(&self, pointer: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Missing => write!(f, "the required member `{}` is missing", Name(pointer)),
            Problem::Undeclared => write!(
                f,
                "the member `{}` is not a property of the form",
                Name(pointer)
            ),
            Problem::WrongType {
                expected,
                found: Some(found),
            } => write!(f, "expected {expected}, found {found}"),
            Problem::WrongType {
                expected,
                found: None,
            } => write!(f, "expected {expected}"),
            Problem::NotInteger(value) => write!(f, "expected an integer, found {value}"),
            Problem::TooShort { min, length } => {
                write!(f, "must be at least {min} characters long, is {length}")
            }
            Problem::TooLong { max, length } => {
                write!(f, "must be at most {max} characters long, is {length}")
            }
            Problem::NoMatch(pattern) => write!(f, "does not match the pattern `{}`", &**pattern),
            Problem::BadPattern { pattern, error } => {
                write!(
                    f,
                    "cannot be checked against `{}`: {}",
                    &**pattern, &**error
                )
            }
            Problem::Format(format) => write!(f, "is not a valid `{format}`"),
            Problem::Below { minimum, value } => {
                write!(f, "must be at least {minimum}, is {value}")
            }
            Problem::Above { maximum, value } => write!(f, "must be at most {maximum}, is {value}"),
            Problem::NotAnOption { value, options } => {
                let value: &dyn fmt::Display = match value {
                    Some(value) => value,
                    None => &"a value that is not a string",
                };
                match options {
                    Some(options) => write!(f, "must be one of {}, is {value}", &**options),
                    None => write!(f, "{value} is not one of the options"),
                }
            }
            Problem::TooFew { min, count } => {
                write!(f, "must select at least {min} options, has {count}")
            }
            Problem::TooMany { max, count } => {
                write!(f, "must select at most {max} options, has {count}")
            }
            Problem::Other { message, .. } => f.write_str(message),
        }
    }
}

/// The member name of a JSON pointer: its last segment, unescaped (`/a~1b` names `a/b`).
struct Name<'a>(&'a str);

impl fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0.rsplit('/').next().unwrap_or_default();
        while let Some(at) = rest.find('~') {
            f.write_str(&rest[..at])?;
            match rest.as_bytes().get(at + 1) {
                Some(b'0') => f.write_str("~")?,
                Some(b'1') => f.write_str("/")?,
                _ => {
                    f.write_str("~")?;
                    rest = &rest[at + 1..];
                    continue;
                }
            }
            rest = &rest[at + 2..];
        }
        f.write_str(rest)
    }
}

/// One violated constraint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationError {
    pointer: Text,
    problem: Problem,
}

impl ValidationError {
    /// An error at `pointer` (a JSON pointer into `content`).
    pub fn new(pointer: impl Into<Text>, problem: Problem) -> ValidationError {
        ValidationError {
            pointer: pointer.into(),
            problem,
        }
    }

    /// JSON pointer of the offending member in `content` (`/email`, `/topics/1`).
    pub fn pointer(&self) -> &str {
        &self.pointer
    }

    /// Puts `base` in front of the pointer, for a `content` nested in a larger document.
    pub fn prefix_pointer(&mut self, base: &str) {
        self.pointer = Text::Owned(format!("{base}{}", &*self.pointer));
    }

    /// The JSON Schema keyword that failed (`required`, `type`, `minLength`, `format`, `enum`, …).
    pub fn keyword(&self) -> Keyword {
        self.problem.keyword()
    }

    /// What is wrong, as data.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// What is wrong, for a human (rendered on each call).
    pub fn message(&self) -> String {
        struct Message<'a>(&'a ValidationError);
        impl fmt::Display for Message<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.problem.write(&self.0.pointer, f)
            }
        }
        Message(self).to_string()
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", &*self.pointer)?;
        self.problem.write(&self.pointer, f)?;
        write!(f, " ({})", self.keyword())
    }
}

/// All the constraints an answer violates (never empty).
///
/// The first error is kept inline: most rejected answers have one, and allocating the list cost
/// such a rejection more than its checks did. (Two inline made every error list twice as large
/// to move and the single-error rejections slower again.)
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ValidationErrors(pub(crate) SmallVec<[ValidationError; 1]>);

impl ValidationErrors {
    /// The errors, in the order of the form's properties.
    pub fn errors(&self) -> &[ValidationError] {
        &self.0
    }

    /// How many errors there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there is none (never, for the errors of a rejected answer).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The errors, in the order of the form's properties.
    pub fn iter(&self) -> std::slice::Iter<'_, ValidationError> {
        self.0.iter()
    }

    /// Puts `base` in front of every pointer, for a `content` nested in a larger document.
    pub fn prefix_pointers(&mut self, base: &str) {
        for error in &mut self.0 {
            error.prefix_pointer(base);
        }
    }

    /// Adds an error with a message of its own.
    pub fn push(
        &mut self,
        pointer: impl Into<String>,
        keyword: Keyword,
        message: impl Into<String>,
    ) {
        self.add(ValidationError {
            pointer: Text::Owned(pointer.into()),
            problem: Problem::Other {
                keyword,
                message: Text::Owned(message.into()),
            },
        });
    }

    /// Adds an error.
    #[inline]
    pub fn report(&mut self, pointer: impl Into<Text>, problem: Problem) {
        self.add(ValidationError::new(pointer, problem));
    }

    #[inline]
    fn add(&mut self, error: ValidationError) {
        if self.0.len() == self.0.inline_size() {
            // A second error: room for a few more at once, as a `Vec` makes on its first push.
            self.0.reserve_exact(4);
        }
        self.0.push(error);
    }

    /// `Ok(())` when there is no error.
    #[inline]
    pub fn into_result(self) -> Result<(), ValidationErrors> {
        if self.0.is_empty() {
            self.let_go();
            Ok(())
        } else {
            Err(self)
        }
    }

    /// Drops a report, skipping its drop glue (a call, which weighs on decoding a valid answer
    /// of a few members) when it holds nothing to free: no error, no memory.
    #[inline]
    pub(crate) fn let_go(self) {
        if self.0.is_empty() && !self.0.spilled() {
            std::mem::forget(self);
        }
    }
}

impl fmt::Display for ValidationErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ValidationErrors {}

impl From<Vec<ValidationError>> for ValidationErrors {
    fn from(errors: Vec<ValidationError>) -> ValidationErrors {
        ValidationErrors(SmallVec::from_vec(errors))
    }
}

impl FromIterator<ValidationError> for ValidationErrors {
    fn from_iter<I: IntoIterator<Item = ValidationError>>(errors: I) -> ValidationErrors {
        ValidationErrors(errors.into_iter().collect())
    }
}

impl IntoIterator for ValidationErrors {
    type Item = ValidationError;
    type IntoIter = smallvec::IntoIter<[ValidationError; 1]>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a ValidationErrors {
    type Item = &'a ValidationError;
    type IntoIter = std::slice::Iter<'a, ValidationError>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}
