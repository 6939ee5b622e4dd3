//! What the loader does with each keyword of JSON Schema 2020-12 and draft-07: turn it into the
//! type (`STRUCTURAL`), ignore it as an annotation or identifier, carry it into the rustdoc
//! (`DOCUMENTED`: validation the generated types do not enforce), or refuse it with the reason
//! (`refusal`: keywords whose meaning no Rust type can hold). Nothing else passes: an unknown
//! keyword is refused too, so that a misspelt `requried` is never dropped silently.

use serde_json::{Map, Value};

use crate::ir::Constraint;

/// Keywords the loader turns into types. `unevaluatedProperties` means `additionalProperties`
/// once `allOf` is merged; `patternProperties` types undeclared members where the object allows
/// no others (see `Loader::extra_members`).
pub(super) const STRUCTURAL: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "unevaluatedProperties",
    "patternProperties",
    "items",
    "$ref",
    "anyOf",
    "oneOf",
    "allOf",
    "const",
    "enum",
];

/// Keywords that name or identify a schema, or only annotate it: accepted anywhere, no effect on
/// the type (`description` becomes the rustdoc). Tools write `$schema`, `$id` and `$comment` on
/// every definition (zod) and `title` on every member (pydantic, schemars); `discriminator` is
/// OpenAPI's (pydantic): the unions find their tag member themselves.
pub(super) const ANNOTATIONS: &[&str] = &[
    "$schema",
    "$id",
    "$anchor",
    "$dynamicAnchor",
    "$vocabulary",
    "$comment",
    "description",
    "title",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "discriminator",
];

/// Validation keywords the generated types do not enforce on decode: a value that breaks them
/// still decodes. They are carried into the rustdoc of the field or type (with
/// `Config::constraint_docs`); those `constraints` reads are checked by the generated
/// `Validate` impls, an explicit step (`emit::validate`). `patternProperties` is also documented
/// where it does not change the type.
pub const DOCUMENTED: &[&str] = &[
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "minProperties",
    "maxProperties",
    "propertyNames",
    "dependentRequired",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
];

/// The reason a keyword is refused where it appears, or `None` if it is not one of those.
/// Each would change what a value of the type can be in a way no Rust type holds.
pub(super) fn refusal(key: &str, value: &Value) -> Option<&'static str> {
    Some(match key {
        "if" | "then" | "else" => {
            "a conditional schema (`if`/`then`/`else`) makes a member's type depend on another \
             member's value, which no Rust type can hold; write the cases as a `oneOf` of \
             object schemas"
        }
        "not" => {
            "`not` says what a value is not, not what it is: no Rust type stands for \
             \"anything but this\""
        }
        "dependentSchemas" => {
            "`dependentSchemas` adds members when another is present, which no Rust type can \
             hold; write the alternatives as a `oneOf` of object schemas"
        }
        // draft-07's `dependencies`: a list of names is `dependentRequired` (documented).
        "dependencies" if !is_name_lists(value) => {
            "`dependencies` with schemas adds members when another is present, which no Rust \
             type can hold; write the alternatives as a `oneOf` of object schemas"
        }
        "prefixItems" | "additionalItems" => {
            "tuples (`prefixItems`, `additionalItems`) would need a type per position; use \
             `items` with one schema for every item"
        }
        "items" if value.is_array() => {
            "`items` as a list is a tuple (draft-07), which would need a type per position; use \
             `items` with one schema for every item"
        }
        "unevaluatedItems" => {
            "`unevaluatedItems` only means something beside tuples (`prefixItems`), which are \
             not supported"
        }
        "$dynamicRef" | "$recursiveRef" | "$recursiveAnchor" => {
            "dynamic references resolve while validating, against the schema being extended: \
             the generator needs one type per reference; use `$ref`"
        }
        "$defs" | "definitions" => {
            "definitions below the root are not supported: move them to the root's `$defs` \
             (or `definitions`) and refer to them there"
        }
        _ => return None,
    })
}

fn is_name_lists(value: &Value) -> bool {
    value
        .as_object()
        .is_some_and(|o| o.values().all(Value::is_array))
}

/// Vendor extensions (`x-order`, `x-go-type`): annotations by convention, never keywords.
pub(super) fn is_extension(key: &str) -> bool {
    key.starts_with("x-")
}

/// The rustdoc line listing the constraints `obj` (and the item, value and member schemas it
/// holds inline) states but the types do not enforce: ``Constraints (not checked on decode):
/// `minLength: 1`, items: `format: "uri"`.``; `None` when there are none.
pub(super) fn constraints_doc(obj: &Map<String, Value>) -> Option<String> {
    let mut parts = Vec::new();
    collect(obj, "", &mut parts, 0);
    if parts.is_empty() {
        return None;
    }
    Some(format!(
        "Constraints (not checked on decode): {}.",
        parts.join(", ")
    ))
}

fn collect(obj: &Map<String, Value>, prefix: &str, parts: &mut Vec<String>, depth: usize) {
    // Deep enough for `items` of `items`; a named type documents its own.
    if depth > 3 {
        return;
    }
    for (key, value) in obj {
        let key = key.as_str();
        let documented = DOCUMENTED.contains(&key)
            || key == "patternProperties"
            || (key == "dependencies" && is_name_lists(value));
        // `propertyNames: {type: string}` (zod's records) says what every member name is anyway.
        let trivial = key == "propertyNames" && *value == serde_json::json!({"type": "string"});
        if documented && !trivial {
            parts.push(format!("{prefix}{}", code(&format!("{key}: {value}"))));
        }
    }
    // Required members the object does not declare (a map's keys: zod's record over an
    // enumeration of keys): required by the schema, not by the map type.
    let declared = |name: &&Value| {
        (name.as_str()).is_some_and(|name| {
            (obj.get("properties")).is_some_and(|members| members.get(name).is_some())
        })
    };
    let undeclared: Vec<&Value> = (obj.get("required").and_then(Value::as_array))
        .into_iter()
        .flatten()
        .filter(|name| !declared(name))
        .collect();
    if !undeclared.is_empty() {
        let names = serde_json::to_string(&undeclared).unwrap_or_default();
        parts.push(format!("{prefix}{}", code(&format!("required: {names}"))));
    }
    for (key, label) in [("items", "items"), ("additionalProperties", "values")] {
        if let Some(Value::Object(inner)) = obj.get(key) {
            if !inner.contains_key("$ref") {
                collect(inner, &format!("{prefix}{label}: "), parts, depth + 1);
            }
        }
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(members)) = obj.get(key) {
            for (i, member) in members.iter().enumerate() {
                if let Some(inner) = member.as_object().filter(|m| !m.contains_key("$ref")) {
                    collect(inner, &format!("{prefix}{key}/{i}: "), parts, depth + 1);
                }
            }
        }
    }
}

/// `text` as an inline code span; text holding a backtick is left as prose (the rustdoc
/// sanitizer escapes what needs it).
fn code(text: &str) -> String {
    if text.contains('`') {
        text.to_owned()
    } else {
        format!("`{text}`")
    }
}

/// The constraint keywords `obj` states that validation checks (`format`, bounds, lengths,
/// `pattern`, counts, `uniqueItems`, `multipleOf`), with those of an inline `items` or
/// `additionalProperties` schema nested, and those of the one non-null member of a nullable
/// `anyOf`/`oneOf`. A keyword whose value is not of its kind (draft-04's boolean
/// `exclusiveMinimum`) states nothing checkable and is left to the rustdoc.
pub(crate) fn constraints(obj: &Map<String, Value>) -> Vec<Constraint> {
    let mut found = Vec::new();
    collect_constraints(obj, &mut found, 0);
    found
}

fn collect_constraints(obj: &Map<String, Value>, found: &mut Vec<Constraint>, depth: usize) {
    // Inline schemas nest only as deep as a person writes them; a named type checks its own.
    if depth > 8 {
        return;
    }
    for (key, value) in obj {
        let number = value.as_f64().filter(|n| n.is_finite());
        let count = value.as_u64();
        let constraint = match key.as_str() {
            "format" => value.as_str().map(|f| Constraint::Format(f.to_owned())),
            "pattern" => value.as_str().map(|p| Constraint::Pattern(p.to_owned())),
            "minLength" => count.map(Constraint::MinLength),
            "maxLength" => count.map(Constraint::MaxLength),
            "minimum" => number.map(Constraint::Minimum),
            "maximum" => number.map(Constraint::Maximum),
            "exclusiveMinimum" => number.map(Constraint::ExclusiveMinimum),
            "exclusiveMaximum" => number.map(Constraint::ExclusiveMaximum),
            "multipleOf" => number.filter(|m| *m > 0.0).map(Constraint::MultipleOf),
            "minItems" => count.map(Constraint::MinItems),
            "maxItems" => count.map(Constraint::MaxItems),
            "uniqueItems" => (*value == Value::Bool(true)).then_some(Constraint::UniqueItems),
            "minProperties" => count.map(Constraint::MinProperties),
            "maxProperties" => count.map(Constraint::MaxProperties),
            _ => None,
        };
        found.extend(constraint);
    }
    let inline = |key: &str| {
        obj.get(key)
            .and_then(Value::as_object)
            .filter(|inner| !inner.contains_key("$ref"))
    };
    for (key, wrap) in [
        (
            "items",
            Constraint::Items as fn(Vec<Constraint>) -> Constraint,
        ),
        ("additionalProperties", Constraint::Values),
    ] {
        if let Some(inner) = inline(key) {
            let mut nested = Vec::new();
            collect_constraints(inner, &mut nested, depth + 1);
            if !nested.is_empty() {
                found.push(wrap(nested));
            }
        }
    }
    // `anyOf: [T, {type: null}]` is `Option<T>`: T's constraints are the member's.
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(members)) = obj.get(key) else {
            continue;
        };
        let is_null = |m: &Value| m.get("type") == Some(&Value::from("null"));
        let mut others = members.iter().filter(|m| !is_null(m));
        if let (Some(Value::Object(inner)), None) = (others.next(), others.next()) {
            if members.len() == 2 && !inner.contains_key("$ref") {
                collect_constraints(inner, found, depth + 1);
            }
        }
    }
}

/// An object schema that declares at least one member.
pub(super) fn is_object_with_properties(obj: &Map<String, Value>) -> bool {
    matches!(obj.get("properties"), Some(Value::Object(p)) if !p.is_empty())
}

/// An object that allows no member at all (zod's `z.object({}).strict()`, a capability flag):
/// a struct without fields, which refuses any member.
pub(super) fn is_closed_empty_object(obj: &Map<String, Value>) -> bool {
    obj.get("type").is_none_or(|t| t.as_str() == Some("object"))
        && !obj.contains_key("allOf")
        && !obj.contains_key("$ref")
        && !obj.contains_key("patternProperties")
        && matches!(obj.get("properties"), None | Some(Value::Object(_)))
        && !is_object_with_properties(obj)
        && (obj.get("additionalProperties") == Some(&Value::Bool(false))
            || obj.get("unevaluatedProperties") == Some(&Value::Bool(false)))
}

#[cfg(test)]
mod tests {
    use super::constraints_doc;
    use serde_json::json;

    /// A map type cannot require keys: the keys its schema requires are documented, not
    /// dropped; a struct's required members are its fields, and not listed.
    #[test]
    fn required_keys_a_map_cannot_hold_are_documented() {
        let record = json!({
            "type": "object",
            "required": ["--a", "--b"],
            "additionalProperties": {"type": "string"}
        });
        assert_eq!(
            constraints_doc(record.as_object().unwrap()).as_deref(),
            Some(r#"Constraints (not checked on decode): `required: ["--a","--b"]`."#)
        );
        let object = json!({"type": "object", "properties": {"a": {}}, "required": ["a"]});
        assert_eq!(constraints_doc(object.as_object().unwrap()), None);
    }
}
