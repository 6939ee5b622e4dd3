//! Reading a `requestedSchema` of any revision into a [`RequestedSchema`].

use serde_json::Number;

use super::node::Node;
use super::{
    pointer, BooleanSchema, EnumOptions, KeyOrder, Keyword, MultiSelectSchema, NumberSchema,
    PropertySchema, RequestedSchema, SchemaError, SingleSelectSchema, StringFormat, StringSchema,
    TitledOption,
};

type Members = [(String, Node)];

fn fail<T>(at: impl Into<String>, message: impl Into<String>) -> Result<T, SchemaError> {
    Err(SchemaError::new(at, message))
}

/// Reads a requested schema. With `keep_order`, the keyword order of each property is recorded
/// in its [`KeyOrder`]; without (input from a `serde_json::Value`, whose keys are sorted), the
/// canonical order is used.
pub(crate) fn parse(root: &Node, keep_order: bool) -> Result<RequestedSchema, SchemaError> {
    let members = object(root, "", "the requested schema must be an object")?;
    let mut schema = RequestedSchema::default();
    let mut seen_type = false;
    let mut seen_properties = false;
    for (key, value) in members {
        let at = pointer("", key);
        match key.as_str() {
            "type" => match value {
                Node::String(ty) if ty == "object" => seen_type = true,
                Node::String(ty) => {
                    return fail(
                        at,
                        format!("the requested schema must have type `object`, not `{ty}`"),
                    )
                }
                other => return fail(at, format!("`type` must be a string, not {}", other.kind())),
            },
            "properties" => {
                let properties = object(value, &at, "`properties` must be an object")?;
                for (name, property) in properties {
                    let mut property = parse_property(property, &pointer(&at, name))?;
                    if !keep_order {
                        clear_order(&mut property);
                    }
                    schema.properties.push((name.clone(), property));
                }
                seen_properties = true;
            }
            "required" => schema.required = string_list(value, &at, "`required`")?,
            "additionalProperties" => match value {
                Node::Bool(false) => schema.additional_properties_forbidden = true,
                Node::Bool(true) => schema.additional_properties_forbidden = false,
                _ => {
                    return fail(
                        at,
                        "only `\"additionalProperties\": false` (or `true`) is supported",
                    )
                }
            },
            "$schema" | "title" | "description" => {
                string(value, &at)?;
            }
            _ => {
                if !annotation(key, value, &at)? {
                    return fail(at, unsupported(key));
                }
            }
        }
    }
    if !seen_type {
        return fail("", "missing `\"type\": \"object\"`");
    }
    if !seen_properties {
        return fail("", "missing `properties`");
    }
    Ok(schema)
}

fn clear_order(property: &mut PropertySchema) {
    let order = match property {
        PropertySchema::String(s) => &mut s.key_order,
        PropertySchema::Number(n) => &mut n.key_order,
        PropertySchema::Boolean(b) => &mut b.key_order,
        PropertySchema::SingleSelect(s) => &mut s.key_order,
        PropertySchema::MultiSelect(m) => &mut m.key_order,
    };
    *order = KeyOrder::default();
}

fn unsupported(key: &str) -> String {
    format!("keyword `{key}` is not part of the elicitation schema subset")
}

/// Accepts (and drops) the annotations `$comment` and `examples`; `Ok(false)` for any other key.
fn annotation(key: &str, value: &Node, at: &str) -> Result<bool, SchemaError> {
    match key {
        "$comment" => string(value, at).map(|_| true),
        "examples" => match value {
            Node::Array(_) => Ok(true),
            other => fail(
                at,
                format!("`examples` must be an array, not {}", other.kind()),
            ),
        },
        _ => Ok(false),
    }
}

/// `title` and `description`, or an annotation; `Ok(false)` for any other key.
fn common(
    key: &str,
    value: &Node,
    at: &str,
    title: &mut Option<String>,
    description: &mut Option<String>,
    order: &mut Vec<Keyword>,
) -> Result<bool, SchemaError> {
    match key {
        "type" => Ok(true),
        "title" => {
            *title = Some(string(value, at)?);
            order.push(Keyword::Title);
            Ok(true)
        }
        "description" => {
            *description = Some(string(value, at)?);
            order.push(Keyword::Description);
            Ok(true)
        }
        _ => annotation(key, value, at),
    }
}

/// The recorded keyword order, empty when it is the canonical one.
fn key_order(seen: Vec<Keyword>) -> KeyOrder {
    let canonical = KeyOrder::default().arrange(|keyword| seen.contains(&keyword));
    if canonical == seen {
        KeyOrder::default()
    } else {
        KeyOrder(seen)
    }
}

fn parse_property(node: &Node, at: &str) -> Result<PropertySchema, SchemaError> {
    let members = object(node, at, "a property schema must be an object")?;
    let type_at = pointer(at, "type");
    let ty = match find(members, "type") {
        None => return fail(at, "missing `type`"),
        Some(Node::String(ty)) => ty.as_str(),
        Some(other) => {
            return fail(
                type_at,
                format!("`type` must be a string, not {}", other.kind()),
            )
        }
    };
    match ty {
        "string" if find(members, "enum").is_some() || find(members, "oneOf").is_some() => {
            parse_single_select(members, at).map(PropertySchema::SingleSelect)
        }
        "string" => parse_string(members, at).map(PropertySchema::String),
        "number" => parse_number(members, at, false).map(PropertySchema::Number),
        "integer" => parse_number(members, at, true).map(PropertySchema::Number),
        "boolean" => parse_boolean(members, at).map(PropertySchema::Boolean),
        "array" => parse_multi_select(members, at).map(PropertySchema::MultiSelect),
        "object" => fail(
            type_at,
            "nested objects are not allowed: form properties must be primitive",
        ),
        other => fail(type_at, format!("unsupported type `{other}`")),
    }
}

fn parse_string(members: &Members, at: &str) -> Result<StringSchema, SchemaError> {
    let mut s = StringSchema::default();
    let mut order = Vec::new();
    for (key, value) in members {
        let key_at = pointer(at, key);
        if common(
            key,
            value,
            &key_at,
            &mut s.title,
            &mut s.description,
            &mut order,
        )? {
            continue;
        }
        match key.as_str() {
            "minLength" => {
                s.min_length = Some(count(value, &key_at, key)?);
                order.push(Keyword::MinLength);
            }
            "maxLength" => {
                s.max_length = Some(count(value, &key_at, key)?);
                order.push(Keyword::MaxLength);
            }
            "pattern" => {
                s.pattern = Some(string(value, &key_at)?);
                order.push(Keyword::Pattern);
            }
            "format" => {
                let name = string(value, &key_at)?;
                match name.parse::<StringFormat>() {
                    Ok(format) => s.format = Some(format),
                    Err(unknown) => return fail(key_at, unknown.to_string()),
                }
                order.push(Keyword::Format);
            }
            "default" => {
                s.default = Some(typed_string(value, &key_at, "the default of a string")?);
                order.push(Keyword::Default);
            }
            "enumNames" => return fail(key_at, "`enumNames` without `enum`"),
            _ => return fail(key_at, unsupported(key)),
        }
    }
    s.key_order = key_order(order);
    Ok(s)
}

fn parse_number(members: &Members, at: &str, integer: bool) -> Result<NumberSchema, SchemaError> {
    let mut n = NumberSchema {
        integer,
        ..NumberSchema::default()
    };
    let mut order = Vec::new();
    for (key, value) in members {
        let key_at = pointer(at, key);
        if common(
            key,
            value,
            &key_at,
            &mut n.title,
            &mut n.description,
            &mut order,
        )? {
            continue;
        }
        match key.as_str() {
            "minimum" => {
                n.minimum = Some(number(value, &key_at, "`minimum`")?);
                order.push(Keyword::Minimum);
            }
            "maximum" => {
                n.maximum = Some(number(value, &key_at, "`maximum`")?);
                order.push(Keyword::Maximum);
            }
            "default" => {
                n.default = Some(number(value, &key_at, "the default of a number")?);
                order.push(Keyword::Default);
            }
            _ => return fail(key_at, unsupported(key)),
        }
    }
    n.key_order = key_order(order);
    Ok(n)
}

fn parse_boolean(members: &Members, at: &str) -> Result<BooleanSchema, SchemaError> {
    let mut b = BooleanSchema::default();
    let mut order = Vec::new();
    for (key, value) in members {
        let key_at = pointer(at, key);
        if common(
            key,
            value,
            &key_at,
            &mut b.title,
            &mut b.description,
            &mut order,
        )? {
            continue;
        }
        match key.as_str() {
            "default" => {
                let Node::Bool(default) = value else {
                    return fail(
                        key_at,
                        format!(
                            "the default of a boolean must be a boolean, not {}",
                            value.kind()
                        ),
                    );
                };
                b.default = Some(*default);
                order.push(Keyword::Default);
            }
            _ => return fail(key_at, unsupported(key)),
        }
    }
    b.key_order = key_order(order);
    Ok(b)
}

fn parse_single_select(members: &Members, at: &str) -> Result<SingleSelectSchema, SchemaError> {
    let mut s = SingleSelectSchema::default();
    let mut order = Vec::new();
    let mut values: Option<Vec<String>> = None;
    let mut titled: Option<Vec<TitledOption>> = None;
    let mut names: Option<(Vec<String>, String)> = None;
    for (key, value) in members {
        let key_at = pointer(at, key);
        if common(
            key,
            value,
            &key_at,
            &mut s.title,
            &mut s.description,
            &mut order,
        )? {
            continue;
        }
        match key.as_str() {
            "enum" => {
                // A repeated value is harmless to validation: `problems()` reports it.
                values = Some(option_values(value, &key_at)?);
                order.push(Keyword::Enum);
            }
            "oneOf" => {
                if find(members, "enum").is_some() {
                    return fail(key_at, "`enum` and `oneOf` cannot be used together");
                }
                // A repeated value is read as JSON Schema reads it: it matches two branches,
                // so `oneOf` refuses it while every other option is valid. `problems()`
                // reports it.
                titled = Some(titled_options(value, &key_at)?);
                order.push(Keyword::OneOf);
            }
            "enumNames" => {
                if find(members, "enum").is_none() {
                    return fail(key_at, "`enumNames` without `enum`");
                }
                names = Some((string_list(value, &key_at, "`enumNames`")?, key_at));
            }
            "default" => {
                s.default = Some(typed_string(value, &key_at, "the default of an enum")?);
                order.push(Keyword::Default);
            }
            "minLength" | "maxLength" | "pattern" | "format" => {
                return fail(key_at, format!("`{key}` is not allowed on an enum"))
            }
            _ => return fail(key_at, unsupported(key)),
        }
    }
    s.enum_names = names.is_some();
    s.options = match (values, titled, names) {
        (Some(values), None, None) => EnumOptions::Untitled(values),
        (Some(values), None, Some((names, names_at))) => {
            if names.len() != values.len() {
                return fail(
                    names_at,
                    format!(
                        "`enumNames` has {} entries but `enum` has {}",
                        names.len(),
                        values.len()
                    ),
                );
            }
            // Under `enum` a repeated value is valid, under `oneOf` (how titled options are
            // written but for `enumNames`) not; and which title a repeated value means is
            // unclear.
            let values_at = pointer(at, "enum");
            unique(values.iter().map(String::as_str), |i| {
                pointer(&values_at, &i.to_string())
            })?;
            EnumOptions::Titled(
                values
                    .into_iter()
                    .zip(names)
                    .map(|(value, title)| TitledOption { value, title })
                    .collect(),
            )
        }
        (None, Some(options), _) => EnumOptions::Titled(options),
        // Unreachable for input that reached this function, kept total.
        _ => return fail(at, "an enum needs `enum` or `oneOf`"),
    };
    s.key_order = key_order(order);
    Ok(s)
}

fn parse_multi_select(members: &Members, at: &str) -> Result<MultiSelectSchema, SchemaError> {
    let mut m = MultiSelectSchema::default();
    let mut order = Vec::new();
    let mut options = None;
    for (key, value) in members {
        let key_at = pointer(at, key);
        if common(
            key,
            value,
            &key_at,
            &mut m.title,
            &mut m.description,
            &mut order,
        )? {
            continue;
        }
        match key.as_str() {
            "minItems" => {
                m.min_items = Some(count(value, &key_at, key)?);
                order.push(Keyword::MinItems);
            }
            "maxItems" => {
                m.max_items = Some(count(value, &key_at, key)?);
                order.push(Keyword::MaxItems);
            }
            "items" => {
                options = Some(parse_items(value, &key_at)?);
                order.push(Keyword::Items);
            }
            "default" => {
                let Node::Array(items) = value else {
                    return fail(
                        key_at,
                        format!(
                            "the default of a multi select must be an array, not {}",
                            value.kind()
                        ),
                    );
                };
                let mut default = Vec::with_capacity(items.len());
                for (index, item) in items.iter().enumerate() {
                    default.push(typed_string(
                        item,
                        &format!("{key_at}/{index}"),
                        "a default option",
                    )?);
                }
                m.default = Some(default);
                order.push(Keyword::Default);
            }
            _ => return fail(key_at, unsupported(key)),
        }
    }
    let Some(options) = options else {
        return fail(
            at,
            "missing `items`: an array must be a multi select listing its options",
        );
    };
    m.options = options;
    m.key_order = key_order(order);
    Ok(m)
}

fn parse_items(node: &Node, at: &str) -> Result<EnumOptions, SchemaError> {
    let members = object(node, at, "`items` must be an object")?;
    let mut values = None;
    let mut titled = None;
    let mut typed = false;
    for (key, value) in members {
        let key_at = pointer(at, key);
        match key.as_str() {
            "type" => {
                match value {
                    Node::String(ty) if ty == "string" => typed = true,
                    Node::String(ty) if ty == "object" || ty == "array" => return fail(
                        key_at,
                        "arrays of objects or arrays are not allowed: items must be string options",
                    ),
                    Node::String(ty) => {
                        return fail(key_at, format!("items must be string options, not `{ty}`"))
                    }
                    other => {
                        return fail(
                            key_at,
                            format!("`type` must be a string, not {}", other.kind()),
                        )
                    }
                }
            }
            "enum" => {
                // A repeated value is harmless to validation: `problems()` reports it.
                values = Some(option_values(value, &key_at)?);
            }
            "anyOf" => {
                if find(members, "enum").is_some() {
                    return fail(key_at, "`enum` and `anyOf` cannot be used together");
                }
                // `anyOf` accepts a value that two options share: `problems()` reports it.
                titled = Some(titled_options(value, &key_at)?);
            }
            _ => {
                if !annotation(key, value, &key_at)? {
                    return fail(key_at, unsupported(key));
                }
            }
        }
    }
    match (values, titled) {
        (Some(values), None) if typed => Ok(EnumOptions::Untitled(values)),
        (Some(_), None) => fail(at, "missing `\"type\": \"string\"` next to `enum`"),
        (None, Some(options)) => Ok(EnumOptions::Titled(options)),
        _ => fail(
            at,
            "arrays of free values are not allowed: `items` must list the options in `enum` or `anyOf`",
        ),
    }
}

/// `[{"const": value, "title": title}, …]`, non-empty.
fn titled_options(node: &Node, at: &str) -> Result<Vec<TitledOption>, SchemaError> {
    let Node::Array(items) = node else {
        return fail(
            at,
            format!("expected an array of options, not {}", node.kind()),
        );
    };
    if items.is_empty() {
        return fail(at, "an enum needs at least one option");
    }
    let mut options = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let item_at = format!("{at}/{index}");
        let members = object(
            item,
            &item_at,
            "an option must be an object with `const` and `title`",
        )?;
        let mut value = None;
        let mut title = None;
        for (key, member) in members {
            let key_at = pointer(&item_at, key);
            match key.as_str() {
                "const" => value = Some(typed_string(member, &key_at, "an option value")?),
                "title" => title = Some(string(member, &key_at)?),
                _ => {
                    if !annotation(key, member, &key_at)? {
                        return fail(key_at, unsupported(key));
                    }
                }
            }
        }
        let Some(value) = value else {
            return fail(item_at, "missing `const`");
        };
        let Some(title) = title else {
            return fail(item_at, "missing `title`");
        };
        options.push(TitledOption { value, title });
    }
    Ok(options)
}

/// A non-empty array of string option values.
fn option_values(node: &Node, at: &str) -> Result<Vec<String>, SchemaError> {
    let Node::Array(items) = node else {
        return fail(at, format!("`enum` must be an array, not {}", node.kind()));
    };
    if items.is_empty() {
        return fail(at, "an enum needs at least one option");
    }
    items
        .iter()
        .enumerate()
        .map(|(index, item)| typed_string(item, &format!("{at}/{index}"), "an option value"))
        .collect()
}

fn unique<'a>(
    values: impl Iterator<Item = &'a str>,
    at: impl Fn(usize) -> String,
) -> Result<(), SchemaError> {
    let values: Vec<&str> = values.collect();
    match first_repeat(values.iter().copied()) {
        Some(index) => fail(
            at(index),
            format!("duplicate option value `{}`", values[index]),
        ),
        None => Ok(()),
    }
}

/// The index of the first item equal to an earlier one: hashed, as a peer's schema may have
/// any number of members or options (compared pairwise, their square).
fn first_repeat<'a>(mut items: impl Iterator<Item = &'a str>) -> Option<usize> {
    let mut seen = std::collections::HashSet::new();
    items.position(|item| !seen.insert(item))
}

/// The members of an object, refusing duplicate keys.
fn object<'a>(node: &'a Node, at: &str, what: &str) -> Result<&'a Members, SchemaError> {
    let Node::Object(members) = node else {
        return fail(at, format!("{what}, not {}", node.kind()));
    };
    match first_repeat(members.iter().map(|(key, _)| key.as_str())) {
        Some(index) => {
            let key = &members[index].0;
            fail(pointer(at, key), format!("duplicate key `{key}`"))
        }
        None => Ok(members),
    }
}

fn find<'a>(members: &'a Members, key: &str) -> Option<&'a Node> {
    members
        .iter()
        .find(|(candidate, _)| candidate == key)
        .map(|(_, value)| value)
}

fn string(node: &Node, at: &str) -> Result<String, SchemaError> {
    typed_string(node, at, "this keyword")
}

fn typed_string(node: &Node, at: &str, what: &str) -> Result<String, SchemaError> {
    match node {
        Node::String(s) => Ok(s.clone()),
        other => fail(at, format!("{what} must be a string, not {}", other.kind())),
    }
}

fn string_list(node: &Node, at: &str, what: &str) -> Result<Vec<String>, SchemaError> {
    let Node::Array(items) = node else {
        return fail(
            at,
            format!("{what} must be an array of strings, not {}", node.kind()),
        );
    };
    items
        .iter()
        .enumerate()
        .map(|(index, item)| typed_string(item, &format!("{at}/{index}"), "each entry"))
        .collect()
}

/// A non-negative integer (`3.0` counts, as in JSON Schema).
fn count(node: &Node, at: &str, key: &str) -> Result<u64, SchemaError> {
    if let Node::Number(n) = node {
        if let Some(count) = n.as_u64() {
            return Ok(count);
        }
        if let Some(f) = n.as_f64() {
            if f >= 0.0 && f.fract() == 0.0 && f <= u64::MAX as f64 {
                return Ok(f as u64);
            }
        }
    }
    fail(at, format!("`{key}` must be a non-negative integer"))
}

fn number(node: &Node, at: &str, what: &str) -> Result<Number, SchemaError> {
    match node {
        Node::Number(n) => Ok(n.clone()),
        other => fail(at, format!("{what} must be a number, not {}", other.kind())),
    }
}

#[cfg(test)]
mod tests {
    use crate::RequestedSchema;

    /// A key or an option value written twice is refused at the first repeat, wherever it is
    /// among many (the search hashes them).
    #[test]
    fn the_first_repeat_is_refused_where_it_is() {
        let property = |i: usize| format!("\"p{i}\":{{\"type\":\"string\"}}");
        let mut properties: Vec<String> = (0..40).map(property).collect();
        properties[31] = property(7);
        properties[35] = property(9);
        let schema = format!(
            "{{\"type\":\"object\",\"properties\":{{{}}}}}",
            properties.join(",")
        );
        let error = RequestedSchema::parse_str(&schema).unwrap_err();
        assert_eq!(error.pointer, "/properties/p7");
        assert_eq!(error.message, "duplicate key `p7`");

        // Titled by `enumNames`, where a repeated value is refused as it is read.
        let mut options: Vec<String> = (0..40).map(|i| format!("\"o{i}\"")).collect();
        options[33] = "\"o2\"".to_owned();
        let (options, titles) = (options.join(","), vec!["\"t\""; 40].join(","));
        let schema = format!(
            "{{\"type\":\"object\",\"properties\":{{\"p\":{{\"type\":\"string\",\
             \"enum\":[{options}],\"enumNames\":[{titles}]}}}}}}"
        );
        let error = RequestedSchema::parse_str(&schema).unwrap_err();
        assert_eq!(error.pointer, "/properties/p/enum/33");
        assert_eq!(error.message, "duplicate option value `o2`");

        let distinct: Vec<String> = (0..40).map(property).collect();
        let schema = format!(
            "{{\"type\":\"object\",\"properties\":{{{}}}}}",
            distinct.join(",")
        );
        assert_eq!(
            RequestedSchema::parse_str(&schema)
                .unwrap()
                .properties
                .len(),
            40
        );
    }
}
