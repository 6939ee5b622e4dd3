//! Type expressions: the type of a schema where it is used (a member, an item, a union member, a
//! map value): a primitive, an array, a map, a named type, or an inline type named after `hint`.

use serde_json::{Map, Value};

use super::keywords::{is_closed_empty_object, is_object_with_properties};
use super::loader::Loader;
use super::normalize::{has_structural_siblings, non_null, single_all_of, single_live_member};
use super::{err, SchemaError};
use crate::ir::{Additional, TypeExpr};
use mcp_typed_json::json_kind;

impl Loader<'_> {
    /// The type of one entry of a `type` list: a primitive, or `Nullable(Any)` for `null`.
    pub(super) fn primitive(&self, t: &Value, pointer: &str) -> Result<TypeExpr, SchemaError> {
        match t.as_str() {
            Some("string") => Ok(TypeExpr::String),
            Some("integer") => Ok(TypeExpr::Integer),
            Some("number") => Ok(TypeExpr::Number),
            Some("boolean") => Ok(TypeExpr::Boolean),
            Some("null") => Ok(TypeExpr::Nullable(Box::new(TypeExpr::Any))),
            Some(other @ ("object" | "array")) => err(pointer, format!("`{other}` in a list of types is not supported")),
            Some(other) => err(pointer, format!("unknown type `{other}` (expected string, integer, number, boolean, object, array or null)")),
            None => err(pointer, format!("`type` entries must be strings, found {}", json_kind(t))),
        }
    }

    /// The type of a schema in a member, item, union-member or map-value position. Inline types
    /// that need a name get `hint`.
    pub(super) fn expr(
        &mut self,
        schema: &Value,
        pointer: &str,
        hint: &str,
    ) -> Result<TypeExpr, SchemaError> {
        let Some(obj) = self.as_object(schema, pointer)? else {
            return Ok(TypeExpr::Any);
        };
        self.check_keywords(obj, pointer)?;
        if let Some(Value::Array(types)) = obj.get("type") {
            if types.iter().all(|t| t.as_str() == Some("null")) {
                return err(
                    &format!("{pointer}/type"),
                    "a type list must name a type other than null",
                );
            }
        }
        // `type: [T, "null"]`, `anyOf: [T, {type: null}]`, `enum: [.., null]`: a nullable T.
        if let Some(inner) = non_null(obj) {
            let ty = self.non_null_expr(inner, pointer, hint)?;
            return Ok(TypeExpr::Nullable(Box::new(ty)));
        }
        if let Some(reference) = obj.get("$ref") {
            if !has_structural_siblings(obj, "$ref") {
                let (name, _) = self.resolve_ref(reference, pointer)?;
                return Ok(TypeExpr::Named(name));
            }
        }
        // `allOf` of one member (pydantic's way to put a description on a `$ref`) is the member.
        if let Some(member) = single_all_of(obj) {
            return self.expr(member, &format!("{pointer}/allOf/0"), hint);
        }
        if let Some((key, i, member)) = single_live_member(obj) {
            if self.const_enum(obj, pointer)?.is_none() {
                return self.expr(member, &format!("{pointer}/{key}/{i}"), hint);
            }
        }
        let needs_name = obj.contains_key("allOf")
            || obj.contains_key("anyOf")
            || obj.contains_key("oneOf")
            || obj.contains_key("enum")
            || obj.contains_key("const")
            || is_object_with_properties(obj)
            || is_closed_empty_object(obj)
            || matches!(obj.get("type"), Some(Value::Array(t)) if t.len() > 1);
        if needs_name {
            let index = self.reserve_inline(hint, pointer)?;
            let kind = self.kind(obj, pointer, hint)?;
            self.types[index].doc = self.doc_of(obj);
            self.types[index].kind = kind;
            return Ok(TypeExpr::Named(hint.to_owned()));
        }
        self.expr_of_object(obj, pointer, hint)
    }

    /// Types that need no name of their own: primitives, arrays, maps, anything.
    pub(super) fn expr_of_object(
        &mut self,
        obj: &Map<String, Value>,
        pointer: &str,
        hint: &str,
    ) -> Result<TypeExpr, SchemaError> {
        if let Some(reference) = obj.get("$ref") {
            let (name, _) = self.resolve_ref(reference, pointer)?;
            return Ok(TypeExpr::Named(name));
        }
        let type_ptr = format!("{pointer}/type");
        let ty = match obj.get("type") {
            None => {
                if obj.contains_key("items") {
                    "array"
                } else if [
                    "additionalProperties",
                    "properties",
                    "patternProperties",
                    "unevaluatedProperties",
                    "propertyNames",
                ]
                .iter()
                .any(|k| obj.contains_key(*k))
                {
                    "object"
                } else {
                    return Ok(TypeExpr::Any);
                }
            }
            Some(Value::String(t)) => t.as_str(),
            Some(Value::Array(t)) if t.len() == 1 => match t[0].as_str() {
                Some(s) => s,
                None => return err(&type_ptr, "`type` entries must be strings"),
            },
            Some(other) => {
                return err(
                    &type_ptr,
                    format!(
                        "`type` must be a string or a list of strings, found {}",
                        json_kind(other)
                    ),
                )
            }
        };
        if obj.get("properties").is_some_and(|p| !p.is_object()) {
            return err(
                &format!("{pointer}/properties"),
                "`properties` must be an object",
            );
        }
        for (key, allowed) in [
            ("items", "array"),
            ("properties", "object"),
            ("additionalProperties", "object"),
            ("unevaluatedProperties", "object"),
            ("patternProperties", "object"),
        ] {
            if obj.contains_key(key) && ty != allowed {
                return err(
                    &format!("{pointer}/{key}"),
                    format!("`{key}` on a schema of type `{ty}`"),
                );
            }
        }
        match ty {
            "array" => {
                let item = match obj.get("items") {
                    None => TypeExpr::Any,
                    Some(items) => {
                        self.expr(items, &format!("{pointer}/items"), &format!("{hint}Item"))?
                    }
                };
                Ok(TypeExpr::Array(Box::new(item)))
            }
            "object" => match self.extra_members(obj, pointer, hint)? {
                Additional::Any => Ok(TypeExpr::Map(Box::new(TypeExpr::Any))),
                Additional::Typed(value) => Ok(TypeExpr::Map(Box::new(value))),
                Additional::Forbidden => err(
                    &format!("{pointer}/additionalProperties"),
                    "an object that allows no member at all is not supported",
                ),
            },
            other => self.primitive(&Value::from(other), &type_ptr),
        }
    }
}
