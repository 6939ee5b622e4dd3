//! Forms described by a general JSON Schema, as `schemars` writes them, turned into the
//! restricted elicitation model.
//!
//! `schemars` describes a Rust type with the whole of JSON Schema: enums behind `$ref` into
//! `$defs`, `Option<T>` as `type: [T, "null"]` or `anyOf: [T, {type: null}]`, integer types as
//! `format: "uint8"` plus bounds, titled variants as `oneOf` of `const`s. [`normalize`] rewrites
//! exactly those shapes into the elicitation subset and hands the result to the same parser as
//! [`RequestedSchema::parse`], so everything else is refused with its JSON pointer, as there.
//! Nothing is dropped silently: what is rewritten is listed on [`RequestedSchema::from_json_schema`].

use super::node::Node;
use super::{parse, pointer, RequestedSchema, SchemaError};

type Members = Vec<(String, Node)>;

impl RequestedSchema {
    /// Converts a JSON Schema of a flat object, as `schemars` derives it for a form struct, into
    /// the restricted model; refuses what falls outside the subset with the JSON pointer and the
    /// property's name (nested objects, free-form arrays, maps, unresolvable `$ref`s).
    ///
    /// Rewritten, because the subset says the same thing another way:
    /// - a local `$ref` (`#/$defs/…`, `#/definitions/…`) is replaced by its target, with the
    ///   referring schema's own keywords (`description`, `default`) kept over the target's;
    /// - `type: [T, "null"]` and `anyOf`/`oneOf` of a schema and `{"type": "null"}` (an
    ///   `Option`) become the schema; a `default` of `null` goes with them;
    /// - an integer `format` (`int8` … `uint64`, `int`, `uint`) becomes the type's range as
    ///   `minimum`/`maximum`, narrowed by any bound already there; `float`/`double` are dropped;
    /// - a `oneOf`/`anyOf` whose members are all string `const`s is a single select, titled by each
    ///   member's `title` (else its `description`, which is where `schemars` puts a variant's
    ///   doc comment) when any member has one;
    /// - `uniqueItems: true` on a multi select (a `HashSet`/`BTreeSet` field) is dropped: the
    ///   subset has no such keyword, and a set-typed field removes duplicates when it is built;
    /// - top-level `$schema`, `title`, `description`, `$defs`/`definitions` are dropped.
    ///
    /// The order of the properties is the order of the input's object: a `serde_json::Value`
    /// sorts keys unless serde_json's `preserve_order` feature is on (schemars has a feature of
    /// the same name), so use [`RequestedSchema::from_json_schema_str`] on the text to keep the
    /// declaration order otherwise.
    pub fn from_json_schema(schema: &serde_json::Value) -> Result<Self, SchemaError> {
        normalize(&Node::from_value(schema))
    }

    /// Like [`RequestedSchema::from_json_schema`], from JSON text, keeping the order of the
    /// properties. Malformed JSON is reported at pointer `""`.
    pub fn from_json_schema_str(json: &str) -> Result<Self, SchemaError> {
        let node: Node = serde_json::from_str(json)
            .map_err(|error| SchemaError::new("", format!("malformed JSON: {error}")))?;
        normalize(&node)
    }

    /// The form of a type that implements `schemars::JsonSchema` (feature `schemars`): its
    /// `schema_for!` through [`RequestedSchema::from_json_schema`]. Unlike `#[derive(Elicit)]`,
    /// which refuses a form that breaks the spec at compile time, this checks at run time.
    #[cfg(feature = "schemars")]
    pub fn for_type<T: schemars::JsonSchema>() -> Result<Self, SchemaError> {
        Self::from_json_schema(schemars::schema_for!(T).as_value())
    }
}

/// Rewrites the schemars shapes and parses the result (see `from_json_schema`).
fn normalize(root: &Node) -> Result<RequestedSchema, SchemaError> {
    let Node::Object(members) = root else {
        return Err(SchemaError::new("", "the schema must be an object"));
    };
    let defs = definitions(members);
    let mut out: Members = Vec::new();
    for (key, value) in members {
        match key.as_str() {
            "$schema" | "title" | "description" | "$defs" | "definitions" | "$comment" => {}
            "properties" => {
                let Node::Object(properties) = value else {
                    // The parser says what is wrong with it.
                    out.push((key.clone(), value.clone()));
                    continue;
                };
                let mut normalized = Vec::with_capacity(properties.len());
                for (name, property) in properties {
                    let at = pointer(&pointer("", "properties"), name);
                    let property =
                        property_schema(property, &defs, &at, 0).map_err(|e| named(e, name))?;
                    normalized.push((name.clone(), property));
                }
                out.push((key.clone(), Node::Object(normalized)));
            }
            _ => out.push((key.clone(), value.clone())),
        }
    }
    // A type written for this purpose is held to the consistency rules, as the derive is.
    let parsed = parse::parse(&Node::Object(out), true).and_then(|schema| {
        schema.check()?;
        Ok(schema)
    });
    parsed.map_err(|error| {
        let name = error
            .pointer
            .strip_prefix("/properties/")
            .map(|rest| rest.split('/').next().unwrap_or(rest))
            .map(|escaped| mcp_typed_json::pointer::unescape(escaped).into_owned());
        match name {
            Some(name) => named(error, &name),
            None => error,
        }
    })
}

/// Puts the property's name in front of the message, once.
fn named(mut error: SchemaError, name: &str) -> SchemaError {
    let prefix = format!("property `{name}`: ");
    if !error.message.starts_with(&prefix) {
        error.message.insert_str(0, &prefix);
    }
    error
}

fn definitions(members: &[(String, Node)]) -> Vec<(String, &Node)> {
    let mut defs = Vec::new();
    for (key, value) in members {
        if let ("$defs" | "definitions", Node::Object(entries)) = (key.as_str(), value) {
            for (name, schema) in entries {
                defs.push((format!("#/{key}/{name}"), schema));
            }
        }
    }
    defs
}

fn get<'a>(members: &'a [(String, Node)], key: &str) -> Option<&'a Node> {
    members.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// The object's members without `keys`.
fn without(members: &[(String, Node)], keys: &[&str]) -> Members {
    members
        .iter()
        .filter(|(k, _)| !keys.contains(&k.as_str()))
        .cloned()
        .collect()
}

/// `base` with `over`'s members put on top (replacing members of the same name).
fn merge(base: Members, over: &[(String, Node)]) -> Members {
    let mut out: Members = base
        .into_iter()
        .filter(|(k, _)| !over.iter().any(|(o, _)| o == k))
        .collect();
    out.extend(over.iter().cloned());
    out
}

/// A property's schema, rewritten (see `from_json_schema`).
fn property_schema(
    node: &Node,
    defs: &[(String, &Node)],
    at: &str,
    depth: usize,
) -> Result<Node, SchemaError> {
    // `$ref` chains deeper than this are cycles: a form property cannot be recursive.
    if depth > 16 {
        return Err(SchemaError::new(at, "`$ref` cycle"));
    }
    let Node::Object(members) = node else {
        return Ok(node.clone());
    };
    // `$ref`: the target, under the referring schema's own keywords.
    if let Some(target) = get(members, "$ref") {
        let Node::String(reference) = target else {
            return Err(SchemaError::new(
                pointer(at, "$ref"),
                "`$ref` must be a string",
            ));
        };
        let Some((_, resolved)) = defs.iter().find(|(name, _)| name == reference) else {
            return Err(SchemaError::new(
                pointer(at, "$ref"),
                format!("`{reference}` is not a local definition (`#/$defs/…`) of this schema"),
            ));
        };
        let resolved = property_schema(resolved, defs, at, depth + 1)?;
        let Node::Object(target) = resolved else {
            return Ok(resolved);
        };
        let own = without(members, &["$ref"]);
        return property_schema(&Node::Object(merge(target, &own)), defs, at, depth + 1);
    }
    let mut members = members.clone();
    // `Option<T>` as `type: [T, "null"]`.
    if let Some(Node::Array(types)) = get(&members, "type") {
        let non_null: Vec<&Node> = types
            .iter()
            .filter(|t| !matches!(t, Node::String(s) if s == "null"))
            .collect();
        if non_null.len() == 1 && non_null.len() < types.len() {
            let single = non_null[0].clone();
            members = merge(members, &[("type".into(), single)]);
            drop_null_default(&mut members);
        }
    }
    // `Option<T>` as `anyOf`/`oneOf` of T and null.
    for combinator in ["anyOf", "oneOf"] {
        let Some(Node::Array(branches)) = get(&members, combinator) else {
            continue;
        };
        let is_null = |b: &Node| {
            matches!(b, Node::Object(m) if m.len() == 1
                && matches!(get(m, "type"), Some(Node::String(t)) if t == "null"))
        };
        if branches.len() == 2 && branches.iter().any(is_null) {
            let index = branches.iter().position(|b| !is_null(b)).unwrap_or(0);
            let inner = property_schema(
                &branches[index],
                defs,
                &pointer(&pointer(at, combinator), &index.to_string()),
                depth + 1,
            )?;
            let Node::Object(inner) = inner else {
                return Ok(inner);
            };
            let mut own = without(&members, &[combinator]);
            drop_null_default(&mut own);
            return property_schema(&Node::Object(merge(inner, &own)), defs, at, depth + 1);
        }
    }
    // Integer formats → the type's range.
    if let Some(Node::String(format)) = get(&members, "format") {
        let is = |t: &str| matches!(get(&members, "type"), Some(Node::String(s)) if s == t);
        if is("integer") {
            if let Some((low, high)) = integer_range(format) {
                members = without(&members, &["format"]);
                narrow(&mut members, "minimum", low, |old, new| old >= new);
                narrow(&mut members, "maximum", high, |old, new| old <= new);
            }
        } else if is("number") && matches!(format.as_str(), "float" | "double") {
            members = without(&members, &["format"]);
        }
    }
    // A select whose options are `const` schemas (titled or described variants).
    for combinator in ["oneOf", "anyOf"] {
        if let Some(Node::Array(branches)) = get(&members, combinator) {
            let mut resolved = Vec::with_capacity(branches.len());
            for (i, branch) in branches.iter().enumerate() {
                let branch_at = pointer(&pointer(at, combinator), &i.to_string());
                resolved.push(property_schema(branch, defs, &branch_at, depth + 1)?);
            }
            if let Some(options) = const_options(&resolved) {
                let mut own = without(&members, &[combinator]);
                if get(&own, "type").is_none() {
                    own.insert(0, ("type".into(), Node::String("string".into())));
                }
                own.push(options);
                members = own;
            }
        }
    }
    // Multi select: the items, rewritten the same way; `uniqueItems` (a set) dropped.
    if matches!(get(&members, "type"), Some(Node::String(t)) if t == "array") {
        if let Some(items) = get(&members, "items") {
            let items = property_schema(items, defs, &pointer(at, "items"), depth + 1)?;
            let items = match items {
                // Items are options only: the subset's items carry `type` + `enum` or `anyOf`.
                Node::Object(item) => Node::Object(titled_items(item)),
                other => other,
            };
            members = merge(members, &[("items".into(), items)]);
        }
        if matches!(get(&members, "uniqueItems"), Some(Node::Bool(true))) {
            members = without(&members, &["uniqueItems"]);
        }
    }
    Ok(Node::Object(members))
}

/// A `default: null` means nothing for an optional property.
fn drop_null_default(members: &mut Members) {
    members.retain(|(k, v)| !(k == "default" && *v == Node::Null));
}

/// `oneOf` (single select, titled) from branches that are all string `const`s; `enum` when
/// none of them has a title or description.
fn const_options(branches: &[Node]) -> Option<(String, Node)> {
    let mut options = Vec::with_capacity(branches.len());
    for branch in branches {
        let Node::Object(m) = branch else {
            return None;
        };
        let value = match (get(m, "const"), get(m, "enum")) {
            (Some(Node::String(v)), _) => v.clone(),
            (None, Some(Node::Array(values))) if values.len() == 1 => match &values[0] {
                Node::String(v) => v.clone(),
                _ => return None,
            },
            _ => return None,
        };
        if m.iter().any(|(k, _)| {
            !matches!(
                k.as_str(),
                "const" | "enum" | "type" | "title" | "description"
            )
        }) {
            return None;
        }
        let title = match (get(m, "title"), get(m, "description")) {
            (Some(Node::String(t)), _) | (None, Some(Node::String(t))) => Some(t.clone()),
            _ => None,
        };
        options.push((value, title));
    }
    if options.iter().all(|(_, title)| title.is_none()) {
        let values = options.into_iter().map(|(v, _)| Node::String(v)).collect();
        return Some(("enum".into(), Node::Array(values)));
    }
    let titled = options
        .into_iter()
        .map(|(value, title)| {
            Node::Object(vec![
                ("const".into(), Node::String(value.clone())),
                ("title".into(), Node::String(title.unwrap_or(value))),
            ])
        })
        .collect();
    Some(("oneOf".into(), Node::Array(titled)))
}

/// Multi-select items are written `{"type": "string", "enum": […]}` or `{"anyOf": [{const,
/// title}…]}`: the single-select `oneOf` form becomes `anyOf` and loses its `type`.
fn titled_items(item: Members) -> Members {
    match get(&item, "oneOf").cloned() {
        Some(options) => {
            let mut out = without(&item, &["oneOf", "type"]);
            out.push(("anyOf".into(), options));
            out
        }
        None => item,
    }
}

/// The range of a `schemars` integer format.
fn integer_range(format: &str) -> Option<(i128, i128)> {
    Some(match format {
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "int32" => (i32::MIN.into(), i32::MAX.into()),
        "int64" | "int" => (i64::MIN.into(), i64::MAX.into()),
        "uint8" => (0, u8::MAX.into()),
        "uint16" => (0, u16::MAX.into()),
        "uint32" => (0, u32::MAX.into()),
        "uint64" | "uint" => (0, u64::MAX.into()),
        _ => return None,
    })
}

/// Sets the bound `key` to `bound` unless the schema already has one at least as tight
/// (`tighter(existing, bound)`).
fn narrow(members: &mut Members, key: &str, bound: i128, tighter: fn(f64, f64) -> bool) {
    let existing = match get(members, key) {
        None => None,
        Some(Node::Number(n)) => n.as_f64(),
        // Not a number: left for the parser to refuse.
        Some(_) => return,
    };
    if existing.is_some_and(|old| tighter(old, bound as f64)) {
        return;
    }
    let number = i64::try_from(bound)
        .map(serde_json::Number::from)
        .or_else(|_| u64::try_from(bound).map(serde_json::Number::from));
    if let Ok(number) = number {
        *members = merge(
            std::mem::take(members),
            &[(key.into(), Node::Number(number))],
        );
    }
}
