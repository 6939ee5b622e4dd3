//! `anyOf`/`oneOf` (and type lists) → unions: one variant per member that can match, named
//! after its type. How each kind of JSON value then finds its member is decided once every type
//! is built (`crate::ir::passes::unions`).

use std::collections::{BTreeSet, HashMap};

use serde_json::{Map, Value};

use super::keywords::{constraints, STRUCTURAL};
use super::loader::Loader;
use super::{err, SchemaError};
use crate::ir::{Constraint, TypeExpr, TypeKind, Union, Variant};
use crate::naming;

impl Loader<'_> {
    pub(super) fn union_kind(
        &mut self,
        obj: &Map<String, Value>,
        pointer: &str,
        rust: &str,
    ) -> Result<TypeKind, SchemaError> {
        // Each member's type, and the constraint keywords of an inline one.
        let mut variants: Vec<(TypeExpr, Vec<Constraint>)> = Vec::new();
        let key = if obj.contains_key("anyOf") {
            "anyOf"
        } else {
            "oneOf"
        };
        if obj.contains_key("anyOf") && obj.contains_key("oneOf") {
            return err(pointer, "`anyOf` together with `oneOf` is not supported");
        }
        if let Some(members) = obj.get(key) {
            for k in [
                "properties",
                "enum",
                "const",
                "items",
                "additionalProperties",
                "unevaluatedProperties",
                "patternProperties",
                "$ref",
            ] {
                if obj.contains_key(k) {
                    return err(
                        &format!("{pointer}/{k}"),
                        format!("`{k}` beside `{key}` is not supported"),
                    );
                }
            }
            let Some(members) = members.as_array() else {
                return err(
                    &format!("{pointer}/{key}"),
                    format!("`{key}` must be an array"),
                );
            };
            if members.is_empty() {
                return err(
                    &format!("{pointer}/{key}"),
                    format!("`{key}` must not be empty"),
                );
            }
            for (i, member) in members.iter().enumerate() {
                // `false` matches nothing: a member that was `null` in a nullable union.
                if *member == Value::Bool(false) {
                    continue;
                }
                let mptr = format!("{pointer}/{key}/{i}");
                // A primitive type list inside a union adds one member per type.
                if let Some(Value::Array(types)) = member.get("type") {
                    if member.as_object().is_some_and(|m| {
                        m.len() == 1 || (m.len() == 2 && m.contains_key("description"))
                    }) {
                        for (j, t) in types.iter().enumerate() {
                            let ty = self.primitive(t, &format!("{mptr}/type/{j}"))?;
                            variants.push((ty, Vec::new()));
                        }
                        continue;
                    }
                }
                // A member that repeats a definition word for word is that definition.
                let is_ref = member.get("$ref").is_some();
                let copy_of = (!is_primitive(member) && !is_ref)
                    .then(|| self.defs_by_shape.get(&member.to_string()))
                    .flatten();
                let (ty, own) = match copy_of {
                    Some(name) => (TypeExpr::Named(naming::type_name(name)), Vec::new()),
                    None => {
                        let ty = self.expr(member, &mptr, &format!("{rust}Variant{i}"))?;
                        // A member that became a named type has them as its own.
                        let own = match (&ty, member.as_object()) {
                            (TypeExpr::Named(_), _) | (_, None) => Vec::new(),
                            (_, Some(member)) => constraints(member),
                        };
                        (ty, own)
                    }
                };
                variants.push((ty, own));
            }
        } else if let Some(Value::Array(types)) = obj.get("type") {
            for (j, t) in types.iter().enumerate() {
                variants.push((
                    self.primitive(t, &format!("{pointer}/type/{j}"))?,
                    Vec::new(),
                ));
            }
        }
        // `null` among the members makes the whole union nullable; that is the field's business.
        if variants
            .iter()
            .any(|(t, _)| *t == TypeExpr::Nullable(Box::new(TypeExpr::Any)))
        {
            return err(
                pointer,
                "a union with a `null` member is supported only as a nullable type of two members",
            );
        }
        let names = variant_names(&variants.iter().map(|(t, _)| t.clone()).collect::<Vec<_>>());
        let variants = variants
            .into_iter()
            .zip(names)
            .map(|((ty, constraints), name)| Variant {
                name,
                ty,
                constraints,
                kinds: BTreeSet::new(),
                boxed: false,
            })
            .collect();
        Ok(TypeKind::Union(Union {
            variants,
            objects: crate::ir::ObjectDispatch::None,
        }))
    }
}

/// Variant names: a named member is called after its type, with the words every named member
/// shares at the start or end dropped (`ElicitRequestFormParams`, `ElicitRequestUrlParams` →
/// `Form`, `Url`); a primitive is called after its JSON type.
fn variant_names(types: &[TypeExpr]) -> Vec<String> {
    let named: Vec<Vec<String>> = types
        .iter()
        .filter_map(|t| match t {
            TypeExpr::Named(n) => Some(naming::type_name_words(n)),
            _ => None,
        })
        .collect();
    let (mut prefix, mut suffix) = (0, 0);
    if named.len() > 1 {
        let shortest = named.iter().map(Vec::len).min().unwrap_or(0);
        while prefix + 1 < shortest && named.iter().all(|w| w[prefix] == named[0][prefix]) {
            prefix += 1;
        }
        while suffix + prefix + 1 < shortest
            && named
                .iter()
                .all(|w| w[w.len() - 1 - suffix] == named[0][named[0].len() - 1 - suffix])
        {
            suffix += 1;
        }
    }
    let mut names: Vec<String> = types
        .iter()
        .map(|t| match t {
            TypeExpr::Named(n) => {
                let words = naming::type_name_words(n);
                let kept = words[prefix..words.len() - suffix].concat();
                if kept.starts_with(|c: char| c.is_ascii_alphabetic()) {
                    kept
                } else {
                    n.clone()
                }
            }
            TypeExpr::String => "String".into(),
            TypeExpr::Integer => "Integer".into(),
            TypeExpr::Number => "Number".into(),
            TypeExpr::Boolean => "Boolean".into(),
            TypeExpr::Any => "Value".into(),
            TypeExpr::Array(_) => "Array".into(),
            TypeExpr::Map(_) => "Object".into(),
            TypeExpr::Nullable(_) => "Nullable".into(),
        })
        .collect();
    // Stripping may make two names equal (or a primitive name may repeat): fall back to full names.
    let unique: BTreeSet<&String> = names.iter().collect();
    if unique.len() != names.len() {
        for (name, t) in names.iter_mut().zip(types) {
            if let TypeExpr::Named(n) = t {
                *name = n.clone();
            }
        }
        let mut seen = HashMap::new();
        for name in &mut names {
            let count = seen.entry(name.clone()).or_insert(0);
            *count += 1;
            if *count > 1 {
                name.push_str(&count.to_string());
            }
        }
    }
    names
}

/// A schema of a plain string, number, boolean or an empty schema: too common to be taken for
/// an inline copy of a definition.
pub(super) fn is_primitive(schema: &Value) -> bool {
    let Some(obj) = schema.as_object() else {
        return true;
    };
    let structural = obj
        .keys()
        .any(|k| STRUCTURAL.contains(&k.as_str()) && k != "type");
    !structural
        && !matches!(
            obj.get("type").and_then(Value::as_str),
            Some("object" | "array")
        )
}
