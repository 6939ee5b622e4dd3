//! Reads the generator's TOML files (`revisions.toml`, `errata.toml`) field by field.
//!
//! Written by hand rather than with `#[derive(Deserialize)]` so that a build script depending on
//! the generator compiles no derive macro (serde_derive was the largest crate of its closure
//! after syn). The rules are serde's: a missing field and an unknown field are refused, and each
//! error says where it is (`erratum 2, change 1: missing field `path``).

use serde_json::Value;
use toml::Table;

/// Parses TOML text into its root table.
pub(crate) fn parse(text: &str) -> Result<Table, String> {
    text.parse::<Table>().map_err(|e| e.to_string())
}

/// The fields of one table, each taken by its name.
pub(crate) struct Fields<'a> {
    table: &'a Table,
    /// Where the table is, for errors (`erratum 2`); empty for the root.
    place: String,
}

impl<'a> Fields<'a> {
    /// The fields of `table`, refusing first a field not in `known` (a misspelt name explains
    /// the missing field better than the missing field does).
    pub(crate) fn new(
        table: &'a Table,
        place: impl Into<String>,
        known: &[&str],
    ) -> Result<Self, String> {
        let fields = Self {
            table,
            place: place.into(),
        };
        match table.keys().find(|k| !known.contains(&k.as_str())) {
            None => Ok(fields),
            Some(unknown) => Err(fields.error(format_args!(
                "unknown field `{unknown}`, expected one of {}",
                known
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    }

    /// An error at this table.
    pub(crate) fn error(&self, message: impl std::fmt::Display) -> String {
        if self.place.is_empty() {
            message.to_string()
        } else {
            format!("{}: {message}", self.place)
        }
    }

    fn take(&self, key: &'static str) -> Option<&'a toml::Value> {
        self.table.get(key)
    }

    fn required(&self, key: &'static str) -> Result<&'a toml::Value, String> {
        self.take(key)
            .ok_or_else(|| self.error(format_args!("missing field `{key}`")))
    }

    fn wrong(&self, key: &str, expected: &str, found: &toml::Value) -> String {
        self.error(format_args!(
            "field `{key}`: expected {expected}, found {}",
            found.type_str()
        ))
    }

    /// A required string.
    pub(crate) fn string(&self, key: &'static str) -> Result<String, String> {
        match self.required(key)? {
            toml::Value::String(s) => Ok(s.clone()),
            other => Err(self.wrong(key, "a string", other)),
        }
    }

    /// A required boolean.
    pub(crate) fn boolean(&self, key: &'static str) -> Result<bool, String> {
        match self.required(key)? {
            toml::Value::Boolean(b) => Ok(*b),
            other => Err(self.wrong(key, "a boolean", other)),
        }
    }

    /// A required array of strings.
    pub(crate) fn strings(&self, key: &'static str) -> Result<Vec<String>, String> {
        let value = self.required(key)?;
        let toml::Value::Array(items) = value else {
            return Err(self.wrong(key, "an array of strings", value));
        };
        items
            .iter()
            .map(|item| match item {
                toml::Value::String(s) => Ok(s.clone()),
                other => Err(self.wrong(key, "an array of strings", other)),
            })
            .collect()
    }

    /// A required table.
    pub(crate) fn table(&self, key: &'static str) -> Result<&'a Table, String> {
        match self.required(key)? {
            toml::Value::Table(table) => Ok(table),
            other => Err(self.wrong(key, "a table", other)),
        }
    }

    /// An array of tables (`[[key]]`); absent is empty.
    pub(crate) fn tables(&self, key: &'static str) -> Result<Vec<&'a Table>, String> {
        let Some(value) = self.take(key) else {
            return Ok(Vec::new());
        };
        let toml::Value::Array(items) = value else {
            return Err(self.wrong(key, "an array of tables", value));
        };
        items
            .iter()
            .map(|item| match item {
                toml::Value::Table(table) => Ok(table),
                other => Err(self.wrong(key, "an array of tables", other)),
            })
            .collect()
    }

    /// Any TOML value, as JSON; `None` when absent.
    pub(crate) fn json(&self, key: &'static str) -> Result<Option<Value>, String> {
        match self.take(key) {
            None => Ok(None),
            Some(value) => to_json(value)
                .map(Some)
                .map_err(|m| self.error(format_args!("field `{key}`: {m}"))),
        }
    }
}

/// A TOML value as the JSON value it writes: numbers, strings, booleans, arrays and tables map
/// one to one; a date has no JSON form and is refused.
fn to_json(value: &toml::Value) -> Result<Value, String> {
    Ok(match value {
        toml::Value::String(s) => Value::String(s.clone()),
        toml::Value::Integer(i) => Value::from(*i),
        toml::Value::Float(f) => serde_json::Number::from_f64(*f)
            .map(Value::Number)
            .ok_or_else(|| format!("{f} has no JSON form"))?,
        toml::Value::Boolean(b) => Value::Bool(*b),
        toml::Value::Datetime(d) => return Err(format!("the date {d} has no JSON form")),
        toml::Value::Array(items) => {
            Value::Array(items.iter().map(to_json).collect::<Result<_, _>>()?)
        }
        toml::Value::Table(table) => Value::Object(
            table
                .iter()
                .map(|(k, v)| Ok((k.clone(), to_json(v)?)))
                .collect::<Result<_, String>>()?,
        ),
    })
}
