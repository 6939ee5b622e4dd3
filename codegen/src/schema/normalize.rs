//! Rewrites of a schema into a simpler one that means the same, before it is turned into a type:
//! the nullable forms (`type: [T, "null"]`, `anyOf: [T, {type: null}]`, `enum: [.., null]`) taken
//! apart, `allOf`/`anyOf` of one member seen through, and object members or unions inside an
//! `allOf` distributed over the union's members.

use serde_json::{Map, Value};

use super::keywords::{self, ANNOTATIONS, STRUCTURAL};

/// Whether `obj` has structural keywords other than `except` (annotations and documented
/// keywords do not count).
pub(super) fn has_structural_siblings(obj: &Map<String, Value>, except: &str) -> bool {
    obj.keys()
        .any(|k| k != except && STRUCTURAL.contains(&k.as_str()))
}

/// The one member of an `allOf` that has nothing structural beside it (`type` aside).
pub(super) fn single_all_of(obj: &Map<String, Value>) -> Option<&Value> {
    match obj.get("allOf") {
        Some(Value::Array(members))
            if members.len() == 1
                && !obj
                    .keys()
                    .any(|k| k != "allOf" && k != "type" && STRUCTURAL.contains(&k.as_str())) =>
        {
            members.first()
        }
        _ => None,
    }
}

/// The one member of an `anyOf`/`oneOf` that can match (members `false` cannot), with its key
/// and index, when nothing structural but `type` is beside it.
pub(super) fn single_live_member(
    obj: &Map<String, Value>,
) -> Option<(&'static str, usize, &Value)> {
    let key = ["anyOf", "oneOf"]
        .into_iter()
        .find(|k| obj.contains_key(*k))?;
    if obj
        .keys()
        .any(|k| k != key && k != "type" && STRUCTURAL.contains(&k.as_str()))
    {
        return None;
    }
    let members = obj.get(key)?.as_array()?;
    let mut live = members
        .iter()
        .enumerate()
        .filter(|(_, m)| **m != Value::Bool(false));
    let (i, member) = live.next()?;
    live.next().is_none().then_some((key, i, member))
}

/// A union member that only allows `null`: `{"type": "null"}`, `{"const": null}`,
/// `{"enum": [null]}`, annotations beside.
fn is_null_schema(schema: &Value) -> bool {
    let Some(obj) = schema.as_object() else {
        return false;
    };
    let null = obj.get("type").is_some_and(|t| t == "null")
        || obj.get("const").is_some_and(Value::is_null)
        || obj.get("enum") == Some(&Value::Array(vec![Value::Null]));
    null && obj.keys().all(|k| {
        matches!(k.as_str(), "type" | "const" | "enum")
            || ANNOTATIONS.contains(&k.as_str())
            || keywords::is_extension(k)
    })
}

/// The schema without its `null`, when it allows `null` besides something else: `null` taken
/// out of a `type` list and of `enum`, and each `null` member of `anyOf`/`oneOf` replaced by
/// `false` (which matches nothing), so the other members keep their index (member names and
/// pointers follow it). `None` when the schema is not nullable so.
pub(super) fn non_null(obj: &Map<String, Value>) -> Option<Map<String, Value>> {
    let mut out = obj.clone();
    let mut changed = false;
    if let Some(Value::Array(types)) = obj.get("type") {
        let rest: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        if !rest.is_empty() && rest.len() < types.len() {
            let rest = match <[Value; 1]>::try_from(rest) {
                Ok([single]) => single,
                Err(rest) => Value::Array(rest),
            };
            out.insert("type".into(), rest);
            changed = true;
        }
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(members)) = obj.get(key) {
            let nulls = members.iter().filter(|m| is_null_schema(m)).count();
            let live = members.iter().filter(|m| **m != Value::Bool(false)).count();
            if nulls > 0 && live > nulls {
                let members = members
                    .iter()
                    .map(|m| {
                        if is_null_schema(m) {
                            Value::Bool(false)
                        } else {
                            m.clone()
                        }
                    })
                    .collect();
                out.insert(key.into(), Value::Array(members));
                changed = true;
            }
        }
    }
    if let Some(Value::Array(values)) = obj.get("enum") {
        if values.iter().any(Value::is_null) && values.iter().any(|v| !v.is_null()) {
            let rest = values.iter().filter(|v| !v.is_null()).cloned().collect();
            out.insert("enum".into(), Value::Array(rest));
            changed = true;
        }
    }
    changed.then_some(out)
}

/// Object members beside an `anyOf`/`oneOf` of objects (schemars writes a struct that flattens
/// an enum so: `{properties: {jsonrpc}, anyOf: [$ref Notification, …]}`) apply to every member:
/// the union of each member merged with them (`allOf`), or `None` when there is nothing to
/// distribute.
pub(super) fn distribute_object_siblings(obj: &Map<String, Value>) -> Option<Map<String, Value>> {
    let key = match (obj.get("anyOf"), obj.get("oneOf")) {
        (Some(_), None) => "anyOf",
        (None, Some(_)) => "oneOf",
        _ => return None,
    };
    let object_keys = ["properties", "required", "additionalProperties"];
    if !obj.contains_key("properties") || obj.contains_key("allOf") || obj.contains_key("$ref") {
        return None;
    }
    let members = obj.get(key)?.as_array()?;
    // Only members that are objects (or references): a `null` or a primitive member cannot
    // carry the members.
    let objectish = |m: &Value| {
        m.as_object().is_some_and(|m| {
            m.contains_key("$ref")
                || m.get("type").and_then(Value::as_str) == Some("object")
                || m.contains_key("properties")
        })
    };
    if members.is_empty() || !members.iter().all(objectish) {
        return None;
    }
    let shared: Map<String, Value> = obj
        .iter()
        .filter(|(k, _)| object_keys.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let distributed: Vec<Value> = members
        .iter()
        .map(|m| {
            let mut member = shared.clone();
            member.insert("type".into(), Value::from("object"));
            member.insert("allOf".into(), Value::Array(vec![m.clone()]));
            Value::Object(member)
        })
        .collect();
    let mut out: Map<String, Value> = obj
        .iter()
        .filter(|(k, _)| !object_keys.contains(&k.as_str()) && *k != "type")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    out.insert(key.into(), Value::Array(distributed));
    Some(out)
}

/// An `allOf` some of whose members are unions of objects (zod's `z.intersection` of two
/// `z.union`s): the union of every combination, one member of each, merged (`allOf` of
/// `anyOf`s is the `anyOf` of the `allOf`s). `None` when no member is a union, or when there
/// would be more than 16 combinations.
pub(super) fn distribute_all_of_unions(obj: &Map<String, Value>) -> Option<Map<String, Value>> {
    let members = obj.get("allOf")?.as_array()?;
    let mut alternatives: Vec<Vec<Value>> = Vec::new();
    let mut any_union = false;
    for member in members {
        let union = member.as_object().and_then(|m| {
            let only_union = m.keys().all(|k| {
                matches!(k.as_str(), "anyOf" | "oneOf" | "description" | "title")
                    || !STRUCTURAL.contains(&k.as_str())
            });
            let list = m.get("anyOf").or_else(|| m.get("oneOf"))?.as_array()?;
            let objects = list.iter().all(|v| {
                v.as_object().is_some_and(|v| {
                    v.get("type").and_then(Value::as_str) == Some("object")
                        && !v.contains_key("anyOf")
                        && !v.contains_key("oneOf")
                        && !v.contains_key("allOf")
                })
            });
            (only_union && objects && !list.is_empty()).then(|| list.clone())
        });
        match union {
            Some(list) => {
                any_union = true;
                alternatives.push(list);
            }
            None => alternatives.push(vec![member.clone()]),
        }
    }
    let count = alternatives.iter().map(Vec::len).product::<usize>();
    if !any_union || count > 16 {
        return None;
    }
    let mut combinations: Vec<Vec<Value>> = vec![Vec::new()];
    for list in &alternatives {
        combinations = combinations
            .into_iter()
            .flat_map(|combo| {
                list.iter().map(move |choice| {
                    let mut next = combo.clone();
                    next.push(choice.clone());
                    next
                })
            })
            .collect();
    }
    let mut out: Map<String, Value> = obj
        .iter()
        .filter(|(k, _)| *k != "allOf" && *k != "type")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let merged = combinations
        .into_iter()
        .map(|combo| {
            let mut member = Map::new();
            member.insert("type".into(), Value::from("object"));
            member.insert("allOf".into(), Value::Array(combo));
            Value::Object(member)
        })
        .collect();
    out.insert("anyOf".into(), Value::Array(merged));
    Some(out)
}
