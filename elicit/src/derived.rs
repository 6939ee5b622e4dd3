//! The checks `#[derive(Elicit)]` calls, one per kind of property. The derive passes each
//! field's constraints as constants, so after inlining a check is the compiled code of that
//! field; keeping the code here rather than in every expansion keeps derived forms small to
//! compile. They read a [`FormValue`], so `from_content` (a parsed `Value`) and `from_json_str`
//! (a member read from text) share them, and report the same [`Problem`]s as
//! [`super::Validator`].

use std::sync::OnceLock;

use serde_json::{Map, Number, Value};

use super::decode::FormValue;
use super::pattern::{Matcher, PatternError};
use super::validate::{check_item_count, check_lengths};
use super::{item_pointer, Problem, StringFormat, Text, ValidationErrors};

/// A field's `pattern`: checked when the macro ran, compiled on first use.
#[derive(Debug)]
pub struct Pattern {
    source: &'static str,
    matcher: OnceLock<Result<Matcher, PatternError>>,
}

impl Pattern {
    /// The pattern `source` (ECMA-262, compiled with the `u` flag).
    pub const fn new(source: &'static str) -> Pattern {
        Pattern {
            source,
            matcher: OnceLock::new(),
        }
    }

    /// `None` when `text` matches; otherwise the problem to report.
    fn check(&self, text: &str) -> Option<Problem> {
        let source = Text::Static(self.source);
        let verdict = match self.matcher.get_or_init(|| Matcher::new(self.source)) {
            Ok(matcher) => matcher.find(text),
            // The derive compiled the pattern already, so this is out of reach.
            Err(error) => Err(error.clone()),
        };
        match verdict {
            Ok(true) => None,
            Ok(false) => Some(Problem::NoMatch(source)),
            Err(error) => Some(Problem::BadPattern {
                pattern: source,
                error: error.to_string().into(),
            }),
        }
    }
}

/// The constraints of a string field.
#[derive(Debug)]
pub struct StringRules {
    /// `minLength`.
    pub min_length: Option<u64>,
    /// `maxLength`.
    pub max_length: Option<u64>,
    /// `pattern`.
    pub pattern: Option<&'static Pattern>,
    /// `format`.
    pub format: Option<StringFormat>,
}

fn wrong_type<V: FormValue>(expected: &'static str, value: &V) -> Problem {
    Problem::WrongType {
        expected,
        found: value.form_kind(),
    }
}

/// The members of `content` that are properties, by property index (`index` maps a name to
/// it): one walk over the map, no lookup per property.
#[inline]
pub fn members<const N: usize>(
    content: &Map<String, Value>,
    index: impl Fn(&str) -> Option<usize>,
) -> [Option<&Value>; N] {
    let mut members = [None; N];
    for (name, value) in content {
        if let Some(slot) = index(name).and_then(|i| members.get_mut(i)) {
            *slot = Some(value);
        }
    }
    members
}

/// A required property is absent.
#[inline]
pub fn missing(at: &'static str, errors: &mut ValidationErrors) {
    errors.report(at, Problem::Missing);
}

/// A string field. Always inlined, so that the field's constant rules fold away (LLVM keeps
/// it out of line otherwise, and then tests at run time for bounds the field does not have).
#[inline(always)]
pub fn string<'v, V: FormValue>(
    value: &'v V,
    at: &'static str,
    rules: &StringRules,
    errors: &mut ValidationErrors,
) -> Option<&'v str> {
    let Some(text) = value.form_str() else {
        errors.report(at, wrong_type("a string", value));
        return None;
    };
    let before = errors.0.len();
    let (min, max) = (
        rules.min_length.unwrap_or(0),
        rules.max_length.unwrap_or(u64::MAX),
    );
    check_lengths(text, min, max, |problem| errors.report(at, problem));
    if let Some(pattern) = rules.pattern {
        if let Some(problem) = pattern.check(text) {
            errors.report(at, problem);
        }
    }
    if let Some(format) = rules.format {
        if !format.is_valid(text) {
            errors.report(at, Problem::Format(format));
        }
    }
    (errors.0.len() == before).then_some(text)
}

/// A boolean field.
#[inline]
pub fn boolean<V: FormValue>(
    value: &V,
    at: &'static str,
    errors: &mut ValidationErrors,
) -> Option<bool> {
    let boolean = value.form_bool();
    if boolean.is_none() {
        errors.report(at, wrong_type("a boolean", value));
    }
    boolean
}

/// An integer bound as a JSON number (the derive's bounds are within `i64` or `u64`).
fn integer_number(value: i128) -> Number {
    if let Ok(value) = i64::try_from(value) {
        Number::from(value)
    } else if let Ok(value) = u64::try_from(value) {
        Number::from(value)
    } else {
        Number::from_f64(value as f64).unwrap_or_else(|| Number::from(0))
    }
}

/// An integer field within `min..=max` (its `minimum`/`maximum`, else its type's range): the
/// exact value, which then fits the field's type. `3.0` and `1e2` are integers; `1.5` is not.
/// Always inlined, as [`string`], so that the bounds are constants.
#[inline(always)]
pub fn integer<V: FormValue>(
    value: &V,
    at: &'static str,
    min: i128,
    max: i128,
    errors: &mut ValidationErrors,
) -> Option<i128> {
    let Some(number) = value.form_number() else {
        errors.report(at, wrong_type("an integer", value));
        return None;
    };
    let exact = if let Some(x) = number.as_i64() {
        i128::from(x)
    } else if let Some(x) = number.as_u64() {
        i128::from(x)
    } else {
        match number.as_f64() {
            // Clamped: any float this large is out of every integer type's range anyway.
            Some(f) if f.is_finite() && f.fract() == 0.0 => f.clamp(-1.0e30, 1.0e30) as i128,
            _ => {
                errors.report(at, Problem::NotInteger(number.clone()));
                return None;
            }
        }
    };
    if exact < min {
        let minimum = integer_number(min);
        errors.report(
            at,
            Problem::Below {
                minimum,
                value: number.clone(),
            },
        );
        None
    } else if exact > max {
        let maximum = integer_number(max);
        errors.report(
            at,
            Problem::Above {
                maximum,
                value: number.clone(),
            },
        );
        None
    } else {
        Some(exact)
    }
}

/// A float bound as a JSON number, written as an integer when it is one.
fn float_number(value: f64) -> Number {
    if value.fract() == 0.0 && value.abs() < 9.0e15 {
        Number::from(value as i64)
    } else {
        Number::from_f64(value).unwrap_or_else(|| Number::from(0))
    }
}

/// A floating-point field, with its inclusive bounds.
#[inline]
pub fn float<V: FormValue>(
    value: &V,
    at: &'static str,
    min: Option<f64>,
    max: Option<f64>,
    errors: &mut ValidationErrors,
) -> Option<f64> {
    let Some((float, number)) = value
        .form_number()
        .and_then(|number| Some((number.as_f64()?, number)))
    else {
        errors.report(at, wrong_type("a number", value));
        return None;
    };
    let before = errors.0.len();
    if let Some(min) = min.filter(|&min| float < min) {
        let minimum = float_number(min);
        errors.report(
            at,
            Problem::Below {
                minimum,
                value: number.clone(),
            },
        );
    }
    if let Some(max) = max.filter(|&max| float > max) {
        let maximum = float_number(max);
        errors.report(
            at,
            Problem::Above {
                maximum,
                value: number.clone(),
            },
        );
    }
    (errors.0.len() == before).then_some(float)
}

/// The `enum` problem of a value that is not an option; the derive does not list the options
/// (they belong to another type's expansion).
fn not_an_option(value: Option<&str>) -> Problem {
    Problem::NotAnOption {
        value: value.map(|text| Value::String(text.to_owned())),
        options: None,
    }
}

/// A single select field.
#[inline]
pub fn select<V: FormValue, T>(
    value: &V,
    at: &'static str,
    from_value: fn(&str) -> Option<T>,
    errors: &mut ValidationErrors,
) -> Option<T> {
    let Some(text) = value.form_str() else {
        errors.report(at, wrong_type("a string", value));
        return None;
    };
    let option = from_value(text);
    if option.is_none() {
        errors.report(at, not_an_option(Some(text)));
    }
    option
}

/// A multi select field, collected into `C`; every item counts toward the bounds.
#[inline]
pub fn multi_select<V: FormValue, T, C: FromIterator<T>>(
    value: &V,
    at: &'static str,
    min_items: Option<u64>,
    max_items: Option<u64>,
    from_value: fn(&str) -> Option<T>,
    errors: &mut ValidationErrors,
) -> Option<C> {
    let Some(items) = value.form_items() else {
        errors.report(at, wrong_type("an array", value));
        return None;
    };
    let before = errors.0.len();
    let (min, max) = (min_items.unwrap_or(0), max_items.unwrap_or(u64::MAX));
    check_item_count(items.len(), min, max, |problem| errors.report(at, problem));
    let mut options = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let text = item.form_str();
        match text.and_then(from_value) {
            Some(option) => options.push(option),
            None => errors.report(item_pointer(at, index), not_an_option(text)),
        }
    }
    (errors.0.len() == before).then(|| options.into_iter().collect())
}
