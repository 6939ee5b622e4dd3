//! Merging object schemas into one: the members of an `allOf`, and a `$ref` with structural
//! keywords beside it (2020-12 applies both). The struct is then built from the merged schema
//! (see `structs`), so a merged type and a written-out one are the same.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::keywords::STRUCTURAL;
use super::loader::Loader;
use super::{err, SchemaError};
use mcp_typed_json::pointer::escape;

impl Loader<'_> {
    /// Merges `allOf` members (each an object schema, or a `$ref` to one) into one object schema.
    pub(super) fn merge_all_of(
        &self,
        obj: &Map<String, Value>,
        members: &Value,
        pointer: &str,
    ) -> Result<Map<String, Value>, SchemaError> {
        let ptr = format!("{pointer}/allOf");
        let Some(members) = members.as_array() else {
            return err(&ptr, "`allOf` must be an array");
        };
        // Object keywords beside `allOf` apply together with its members (schemars writes an
        // internally tagged newtype variant as the tag's `properties` beside `allOf: [$ref]`):
        // they are merged as one more member.
        let sibling_keys = ["properties", "required", "additionalProperties"];
        for key in obj.keys() {
            // `unevaluatedProperties` beside `allOf` speaks of the merged object (schemars).
            if STRUCTURAL.contains(&key.as_str())
                && !matches!(key.as_str(), "allOf" | "type" | "unevaluatedProperties")
                && !sibling_keys.contains(&key.as_str())
            {
                return err(
                    &format!("{pointer}/{}", escape(key)),
                    format!("`{key}` beside `allOf` is not supported"),
                );
            }
        }
        let mut members: Vec<(Value, String)> = members
            .iter()
            .enumerate()
            .map(|(i, m)| (m.clone(), format!("{ptr}/{i}")))
            .collect();
        let siblings: Map<String, Value> = obj
            .iter()
            .filter(|(k, _)| sibling_keys.contains(&k.as_str()) || *k == "type")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if siblings.keys().any(|k| k != "type") {
            members.push((Value::Object(siblings), pointer.to_owned()));
        }
        let mut merged = self.merge_members(Self::description(obj), &members)?;
        match obj.get("unevaluatedProperties") {
            None => {}
            Some(Value::Bool(false)) => {
                merged.insert("additionalProperties".into(), Value::Bool(false));
            }
            Some(other) => {
                merged
                    .entry("additionalProperties")
                    .or_insert_with(|| other.clone());
            }
        }
        Ok(merged)
    }

    /// `$ref` with structural keywords beside it (2020-12 allows them; they apply together): the
    /// referenced object schema merged with the rest, as `allOf` would merge them.
    pub(super) fn merge_ref_siblings(
        &self,
        obj: &Map<String, Value>,
        pointer: &str,
    ) -> Result<Map<String, Value>, SchemaError> {
        let reference = Value::Object(
            [("$ref".to_owned(), obj["$ref"].clone())]
                .into_iter()
                .collect(),
        );
        let rest: Map<String, Value> = obj
            .iter()
            .filter(|(k, _)| *k != "$ref")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let members = [
            (reference, pointer.to_owned()),
            (Value::Object(rest), pointer.to_owned()),
        ];
        self.merge_members(Self::description(obj), &members)
            .map_err(|e| SchemaError {
                message: format!(
                    "`$ref` with sibling keywords is merged as `allOf` would be: {}",
                    e.message
                ),
                ..e
            })
    }

    /// Merges object schemas (or `$ref`s to them), each with its pointer, into one.
    fn merge_members(
        &self,
        mut doc: Option<String>,
        members: &[(Value, String)],
    ) -> Result<Map<String, Value>, SchemaError> {
        let mut properties = Map::new();
        let mut required: BTreeSet<String> = BTreeSet::new();
        let mut additional: Option<Value> = None;
        for (member, mptr) in members {
            let mptr = mptr.as_str();
            let member_obj = self.member_object(member, mptr)?;
            if doc.is_none() {
                doc = Self::description(&member_obj);
            }
            if let Some(Value::Object(props)) = member_obj.get("properties") {
                for (name, schema) in props {
                    match properties.get(name) {
                        None => {
                            properties.insert(name.clone(), schema.clone());
                        }
                        Some(existing) if existing == schema => {}
                        Some(existing) => {
                            let refined = refine(existing, schema).ok_or_else(|| SchemaError {
                                pointer: format!("{mptr}/properties/{}", escape(name)),
                                message: format!("`allOf` members disagree on member `{name}`"),
                            })?;
                            properties.insert(name.clone(), refined);
                        }
                    }
                }
            }
            if let Some(Value::Array(req)) = member_obj.get("required") {
                required.extend(req.iter().filter_map(Value::as_str).map(str::to_owned));
            }
            match (member_obj.get("additionalProperties"), &additional) {
                (None, _) => {}
                (Some(Value::Bool(false)), _) => additional = Some(Value::Bool(false)),
                (Some(_), Some(Value::Bool(false))) => {}
                (Some(a), _) => additional = Some(a.clone()),
            }
        }
        let mut merged = Map::new();
        merged.insert("type".into(), Value::from("object"));
        if let Some(doc) = doc {
            merged.insert("description".into(), Value::from(doc));
        }
        merged.insert("properties".into(), Value::Object(properties));
        merged.insert(
            "required".into(),
            Value::from(required.into_iter().collect::<Vec<_>>()),
        );
        if let Some(a) = additional {
            merged.insert("additionalProperties".into(), a);
        }
        Ok(merged)
    }

    /// One member to merge: its object schema, `$ref`s followed, refusing what cannot be merged
    /// (patterns, nested unions, a type other than `object`).
    fn member_object(&self, member: &Value, mptr: &str) -> Result<Map<String, Value>, SchemaError> {
        let mut member_obj = self.as_object(member, mptr)?.cloned().unwrap_or_default();
        let mut seen = BTreeSet::new();
        while let Some(reference) = member_obj.get("$ref").cloned() {
            let (name, target) = self.resolve_ref(&reference, mptr)?;
            if !seen.insert(name.clone()) {
                return err(mptr, format!("`$ref` cycle through `{name}`"));
            }
            let Some(target) = target.as_object() else {
                return err(
                    mptr,
                    format!("`allOf` member `{name}` is not an object schema"),
                );
            };
            member_obj = target.clone();
        }
        self.check_keywords(&member_obj, mptr)?;
        for key in ["patternProperties", "unevaluatedProperties"] {
            if member_obj.contains_key(key) {
                return err(
                    &format!("{mptr}/{key}"),
                    format!("`{key}` inside a merged (`allOf`) member is not supported"),
                );
            }
        }
        if member_obj.contains_key("allOf")
            || member_obj.contains_key("anyOf")
            || member_obj.contains_key("oneOf")
        {
            return err(
                mptr,
                "nested `allOf`/`anyOf` inside `allOf` is not supported",
            );
        }
        if let Some(t) = member_obj.get("type") {
            if t.as_str() != Some("object") {
                return err(
                    &format!("{mptr}/type"),
                    "every `allOf` member must be an object schema",
                );
            }
        }
        Ok(member_obj)
    }
}

/// Two `allOf` members that both describe a member: the result is the narrower one when one
/// only adds a `const` (or a description) to the other.
fn refine(a: &Value, b: &Value) -> Option<Value> {
    let (ao, bo) = (a.as_object()?, b.as_object()?);
    let strip = |o: &Map<String, Value>| -> Map<String, Value> {
        o.iter()
            .filter(|(k, _)| !matches!(k.as_str(), "description" | "const" | "title"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    };
    let (sa, sb) = (strip(ao), strip(bo));
    let compatible = sa == sb || sa.is_empty() || sb.is_empty();
    if !compatible
        || (ao.contains_key("const") && bo.contains_key("const") && ao["const"] != bo["const"])
    {
        return None;
    }
    let mut out = ao.clone();
    for (k, v) in bo {
        out.insert(k.clone(), v.clone());
    }
    Some(Value::Object(out))
}
