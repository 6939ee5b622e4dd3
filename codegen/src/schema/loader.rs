//! The loader's state (the definitions, the Rust names taken, the types built so far) and its
//! core: name claims, keyword checks, `$ref` resolution, and the dispatch from a schema to the
//! kind of type it becomes. The kinds themselves are built in the sibling files.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::keywords::{self, ANNOTATIONS, DOCUMENTED, STRUCTURAL};
use super::keywords::{is_closed_empty_object, is_object_with_properties};
use super::normalize::{
    distribute_all_of_unions, distribute_object_siblings, has_structural_siblings, non_null,
    single_all_of, single_live_member,
};
use super::{check_identifier, err, SchemaError};
use crate::ir::{ConstValue, EnumValue, TypeDef, TypeExpr, TypeKind};
use crate::naming;
use crate::settings::Settings;
use mcp_typed_json::json_kind;
use mcp_typed_json::pointer::{escape, unescape};

/// Builds the types of one schema; [`load`](super::load) runs it over every definition.
pub(super) struct Loader<'a> {
    pub(super) defs: &'a Map<String, Value>,
    pub(super) defs_key: &'a str,
    /// The root's schema without its definitions, which `"$ref": "#"` refers to.
    pub(super) root: &'a Value,
    /// The Rust name of the root type, when the root is the schema of a type.
    pub(super) root_name: Option<String>,
    /// A definition's schema text → its name, for inline copies of definitions.
    pub(super) defs_by_shape: HashMap<String, &'a str>,
    /// Rust name → pointer of the schema that took it.
    pub(super) names: HashMap<String, String>,
    /// The types built so far.
    pub(super) types: Vec<TypeDef>,
    pub(super) settings: &'a Settings,
}

impl<'a> Loader<'a> {
    pub(super) fn claim(&mut self, rust: &str, pointer: &str) -> Result<(), SchemaError> {
        check_identifier(rust, pointer, "type name")?;
        if let Some(first) = self.names.get(rust) {
            return err(
                pointer,
                format!("duplicate Rust type name `{rust}` after renaming (also used by {first})"),
            );
        }
        self.names.insert(rust.to_owned(), pointer.to_owned());
        Ok(())
    }

    /// Adds an inline type under a fresh name.
    pub(super) fn add_inline(
        &mut self,
        name: String,
        pointer: &str,
        doc: Option<String>,
        kind: TypeKind,
    ) -> Result<TypeExpr, SchemaError> {
        self.claim(&name, pointer)?;
        self.types.push(TypeDef {
            name: name.clone(),
            schema_name: None,
            pointer: pointer.to_owned(),
            doc,
            errata: Vec::new(),
            constraints: Vec::new(),
            kind,
        });
        Ok(TypeExpr::Named(name))
    }

    /// Reserves an inline name before its type is built (it may refer to itself).
    pub(super) fn reserve_inline(
        &mut self,
        name: &str,
        pointer: &str,
    ) -> Result<usize, SchemaError> {
        self.claim(name, pointer)?;
        self.types.push(TypeDef {
            name: name.to_owned(),
            schema_name: None,
            pointer: pointer.to_owned(),
            doc: None,
            errata: Vec::new(),
            constraints: Vec::new(),
            kind: TypeKind::Alias(TypeExpr::Any),
        });
        Ok(self.types.len() - 1)
    }

    pub(super) fn as_object<'v>(
        &self,
        schema: &'v Value,
        pointer: &str,
    ) -> Result<Option<&'v Map<String, Value>>, SchemaError> {
        match schema {
            Value::Object(o) => Ok(Some(o)),
            Value::Bool(true) => Ok(None),
            Value::Bool(false) => err(
                pointer,
                "the schema `false` (no value allowed) is not supported here",
            ),
            other => err(
                pointer,
                format!(
                    "expected a schema (object or boolean), found {}",
                    json_kind(other)
                ),
            ),
        }
    }

    /// Refuses every keyword of `obj` that is neither structural, an annotation, documented nor
    /// a vendor extension, with the reason when the keyword is a known one.
    pub(super) fn check_keywords(
        &self,
        obj: &Map<String, Value>,
        pointer: &str,
    ) -> Result<(), SchemaError> {
        for (key, value) in obj {
            let k = key.as_str();
            let at = format!("{pointer}/{}", escape(key));
            if let Some(reason) = keywords::refusal(k, value) {
                return err(&at, format!("`{key}` is not supported: {reason}"));
            }
            let known = ANNOTATIONS.contains(&k)
                || DOCUMENTED.contains(&k)
                || STRUCTURAL.contains(&k)
                || k == "dependencies"
                || keywords::is_extension(k);
            if !known {
                return err(
                    &at,
                    format!(
                        "unsupported keyword `{key}`: not a keyword of JSON Schema 2020-12 or \
                         draft-07 (a vendor extension must start with `x-` to be ignored)"
                    ),
                );
            }
        }
        Ok(())
    }

    /// The keywords of a root that holds only definitions: annotations and identifiers.
    pub(super) fn check_root_keywords(
        &self,
        root: &Map<String, Value>,
        defs_key: &str,
    ) -> Result<(), SchemaError> {
        for key in root.keys() {
            let k = key.as_str();
            if k != defs_key && !ANNOTATIONS.contains(&k) && !keywords::is_extension(k) {
                return err(
                    &format!("/{}", escape(key)),
                    format!(
                        "unsupported top-level keyword `{key}` beside `{defs_key}` (a root that \
                         is the schema of a type has `type`, `properties`, `anyOf`, …)"
                    ),
                );
            }
        }
        Ok(())
    }

    pub(super) fn description(obj: &Map<String, Value>) -> Option<String> {
        obj.get("description")
            .and_then(Value::as_str)
            .map(str::to_owned)
    }

    /// The rustdoc of a type or member: its description, then the constraints it states that
    /// the types do not enforce (when `Settings::constraint_docs` is on).
    pub(super) fn doc_of(&self, obj: &Map<String, Value>) -> Option<String> {
        let description = Self::description(obj);
        let constraints = self
            .settings
            .constraint_docs
            .then(|| keywords::constraints_doc(obj))
            .flatten();
        match (description, constraints) {
            (Some(d), Some(c)) => Some(format!("{d}\n\n{c}")),
            (d, c) => d.or(c),
        }
    }

    /// Resolves a `$ref` (`#/$defs/<Name>`, or `#` for the root type) to the Rust name of its
    /// type and its schema.
    pub(super) fn resolve_ref(
        &self,
        reference: &Value,
        pointer: &str,
    ) -> Result<(String, &'a Value), SchemaError> {
        let ptr = format!("{pointer}/$ref");
        let Some(reference) = reference.as_str() else {
            return err(&ptr, "`$ref` must be a string");
        };
        if reference == "#" {
            return match &self.root_name {
                Some(name) => Ok((name.clone(), self.root)),
                None => err(
                    &ptr,
                    "`#` refers to the root, which is not the schema of a type here",
                ),
            };
        }
        let prefix = format!("#/{}/", self.defs_key);
        let Some(name) = reference.strip_prefix(&prefix) else {
            return err(
                &ptr,
                format!(
                    "unsupported reference `{reference}` (expected `{prefix}<Name>`, or `#` for \
                     the root)"
                ),
            );
        };
        let name = unescape(name).into_owned();
        match self.defs.get_key_value(&name) {
            Some((k, v)) => Ok((naming::type_name(k), v)),
            None => err(
                &ptr,
                format!("dangling reference `{reference}`: no such definition"),
            ),
        }
    }

    /// A top-level definition: its doc and kind.
    pub(super) fn definition(
        &mut self,
        schema: &Value,
        pointer: &str,
        rust: &str,
    ) -> Result<(Option<String>, TypeKind), SchemaError> {
        let Some(obj) = self.as_object(schema, pointer)? else {
            return Ok((None, TypeKind::Alias(TypeExpr::Any)));
        };
        self.check_keywords(obj, pointer)?;
        let doc = self.doc_of(obj);
        let kind = self.kind(obj, pointer, rust)?;
        Ok((doc, kind))
    }

    /// The kind of the named type `rust` whose schema is `schema` (already checked or not).
    fn kind_of_value(
        &mut self,
        schema: &Value,
        pointer: &str,
        rust: &str,
    ) -> Result<TypeKind, SchemaError> {
        let Some(obj) = self.as_object(schema, pointer)? else {
            return Ok(TypeKind::Alias(TypeExpr::Any));
        };
        self.check_keywords(obj, pointer)?;
        self.kind(obj, pointer, rust)
    }

    /// The kind of a named type whose schema is `obj`.
    pub(super) fn kind(
        &mut self,
        obj: &Map<String, Value>,
        pointer: &str,
        rust: &str,
    ) -> Result<TypeKind, SchemaError> {
        // A nullable definition is `Option` of its other part, which gets a name of its own
        // (`<Name>Inner`) where it needs one.
        if let Some(inner) = non_null(obj) {
            let ty = self.non_null_expr(inner, pointer, &format!("{rust}Inner"))?;
            return Ok(TypeKind::Alias(TypeExpr::Nullable(Box::new(ty))));
        }
        if obj.contains_key("$ref") && has_structural_siblings(obj, "$ref") {
            let merged = self.merge_ref_siblings(obj, pointer)?;
            return self.struct_kind(&merged, pointer, rust);
        }
        if let Some(expanded) = distribute_all_of_unions(obj) {
            return self.union_kind(&expanded, pointer, rust);
        }
        if let Some(members) = obj.get("allOf") {
            if let Some(member) = single_all_of(obj) {
                return self.kind_of_value(member, &format!("{pointer}/allOf/0"), rust);
            }
            let merged = self.merge_all_of(obj, members, pointer)?;
            return self.struct_kind(&merged, pointer, rust);
        }
        if let Some(distributed) = distribute_object_siblings(obj) {
            return self.union_kind(&distributed, pointer, rust);
        }
        if obj.contains_key("anyOf") || obj.contains_key("oneOf") {
            if let Some(values) = self.const_enum(obj, pointer)? {
                return Ok(TypeKind::StringEnum(values));
            }
            if let Some((key, i, member)) = single_live_member(obj) {
                return self.kind_of_value(member, &format!("{pointer}/{key}/{i}"), rust);
            }
            return self.union_kind(obj, pointer, rust);
        }
        if let Some(values) = obj.get("enum") {
            return Ok(TypeKind::StringEnum(
                self.enum_values(values, obj, pointer)?,
            ));
        }
        if let Some(value) = obj.get("const") {
            if !obj.contains_key("properties") {
                let ConstValue::String(s) = self.const_value(value, pointer)? else {
                    return err(
                        &format!("{pointer}/const"),
                        "a non-string `const` is supported only as an object member",
                    );
                };
                let variant = naming::pascal(&s, "V");
                check_identifier(&variant, &format!("{pointer}/const"), "enum variant")?;
                return Ok(TypeKind::StringEnum(vec![EnumValue {
                    variant,
                    value: s,
                    doc: None,
                }]));
            }
        }
        if is_object_with_properties(obj) || is_closed_empty_object(obj) {
            return self.struct_kind(obj, pointer, rust);
        }
        if let Some(Value::Array(types)) = obj.get("type") {
            if types.iter().filter(|t| t.as_str() != Some("null")).count() > 1 {
                return self.union_kind(obj, pointer, rust);
            }
        }
        Ok(TypeKind::Alias(self.expr_of_object(obj, pointer, rust)?))
    }

    /// The type of the non-null part of a nullable schema (`inner`, from [`non_null`]): its one
    /// remaining `anyOf`/`oneOf` member, with that member's pointer, or the rest of the schema.
    pub(super) fn non_null_expr(
        &mut self,
        inner: Map<String, Value>,
        pointer: &str,
        hint: &str,
    ) -> Result<TypeExpr, SchemaError> {
        match single_live_member(&inner) {
            Some((key, i, member)) => {
                let member = member.clone();
                self.expr(&member, &format!("{pointer}/{key}/{i}"), hint)
            }
            None => self.expr(&Value::Object(inner), pointer, hint),
        }
    }
}
