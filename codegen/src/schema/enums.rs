//! String enums and constants: an `enum` list, an `anyOf`/`oneOf` whose every member is a string
//! constant, and the value of a `const`.

use serde_json::{Map, Value};

use super::keywords::ANNOTATIONS;
use super::loader::Loader;
use super::{check_identifier, err, SchemaError};
use crate::ir::{ConstValue, EnumValue};
use crate::naming;
use mcp_typed_json::json_kind;

impl Loader<'_> {
    /// An `anyOf`/`oneOf` whose every member is a string constant (zod's `z.union` of
    /// literals, schemars' documented unit variants): a string enum, each value documented by
    /// its member's description. `None` when it is not one.
    pub(super) fn const_enum(
        &self,
        obj: &Map<String, Value>,
        pointer: &str,
    ) -> Result<Option<Vec<EnumValue>>, SchemaError> {
        let key = if obj.contains_key("anyOf") {
            "anyOf"
        } else {
            "oneOf"
        };
        let Some(Value::Array(members)) = obj.get(key) else {
            return Ok(None);
        };
        let mut values: Vec<EnumValue> = Vec::new();
        for (i, member) in members.iter().enumerate() {
            if *member == Value::Bool(false) {
                continue;
            }
            let Some(m) = member.as_object() else {
                return Ok(None);
            };
            let is_const = matches!(m.get("const"), Some(Value::String(_)))
                && m.get("type").is_none_or(|t| t == "string")
                && m.keys()
                    .all(|k| k == "const" || k == "type" || ANNOTATIONS.contains(&k.as_str()));
            if !is_const {
                return Ok(None);
            }
            let mptr = format!("{pointer}/{key}/{i}");
            self.check_keywords(m, &mptr)?;
            let value = m["const"].as_str().unwrap_or_default().to_owned();
            let variant = naming::pascal(&value, "V");
            check_identifier(&variant, &format!("{mptr}/const"), "enum variant")?;
            if values.iter().any(|e| e.variant == variant) {
                return err(
                    &format!("{mptr}/const"),
                    format!("enum values collide as Rust variant `{variant}`"),
                );
            }
            values.push(EnumValue {
                value,
                variant,
                doc: self.doc_of(m),
            });
        }
        Ok((!values.is_empty()).then_some(values))
    }

    pub(super) fn enum_values(
        &self,
        values: &Value,
        obj: &Map<String, Value>,
        pointer: &str,
    ) -> Result<Vec<EnumValue>, SchemaError> {
        let ptr = format!("{pointer}/enum");
        if let Some(t) = obj.get("type") {
            if t.as_str() != Some("string") {
                return err(
                    &format!("{pointer}/type"),
                    "only string enums are supported (`type` must be \"string\")",
                );
            }
        }
        let Some(values) = values.as_array() else {
            return err(&ptr, "`enum` must be an array");
        };
        if values.is_empty() {
            return err(&ptr, "`enum` must not be empty");
        }
        let mut out: Vec<EnumValue> = Vec::new();
        for (i, v) in values.iter().enumerate() {
            let Some(s) = v.as_str() else {
                return err(
                    &format!("{ptr}/{i}"),
                    format!(
                        "only string enum values are supported, found {}",
                        json_kind(v)
                    ),
                );
            };
            let variant = naming::pascal(s, "V");
            check_identifier(&variant, &format!("{ptr}/{i}"), "enum variant")?;
            if out.iter().any(|e| e.variant == variant) {
                return err(
                    &format!("{ptr}/{i}"),
                    format!("enum values collide as Rust variant `{variant}`"),
                );
            }
            out.push(EnumValue {
                value: s.to_owned(),
                variant,
                doc: None,
            });
        }
        Ok(out)
    }

    pub(super) fn const_value(
        &self,
        value: &Value,
        pointer: &str,
    ) -> Result<ConstValue, SchemaError> {
        match value {
            Value::String(s) => Ok(ConstValue::String(s.clone())),
            Value::Bool(b) => Ok(ConstValue::Bool(*b)),
            Value::Number(n) => match n.as_i64() {
                Some(i) => Ok(ConstValue::Integer(i)),
                None => err(
                    &format!("{pointer}/const"),
                    "only integer numeric constants are supported",
                ),
            },
            other => err(
                &format!("{pointer}/const"),
                format!("unsupported `const` of {}", json_kind(other)),
            ),
        }
    }
}
