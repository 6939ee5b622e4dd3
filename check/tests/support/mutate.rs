//! Generated mutations of a valid message: for each member the schema describes, one message per
//! constraint keyword broken (`minimum`, `maximum`, `maxItems`, `format`, `enum`, `const`,
//! `additionalProperties: false`), per member type (a value of another JSON type) and per
//! required member (removed). Members the instance lacks are added (a smallest valid value, up to
//! two levels of such additions: `annotations`, then its `priority`) so that optional members
//! are broken too.

use mcp_typed::json_pointer::{escape, unescape};
use serde_json::{json, Value};

use super::schema::Schema;

/// One mutated message and what it breaks.
pub struct Mutation {
    /// `<keyword> at <pointer>`.
    pub what: String,
    pub message: Value,
}

/// The JSON-RPC envelope of `message` broken: `jsonrpc` and `id` removed or of a wrong value.
pub fn envelope_mutations(message: &Value) -> Vec<Mutation> {
    let mut out = Vec::new();
    let mut push = |what: &str, at: &str, value: Option<Value>| {
        out.push(Mutation {
            what: format!("envelope: {what}"),
            message: with(message, at, value),
        })
    };
    push("jsonrpc removed", "/jsonrpc", None);
    push("jsonrpc 1.0", "/jsonrpc", Some(json!("1.0")));
    if message.get("id").is_some() {
        push("id removed", "/id", None);
        push("id true", "/id", Some(json!(true)));
        push("id 1.5", "/id", Some(json!(1.5)));
    }
    out
}

/// Every mutation of `message` whose member at `pointer` is an instance of `schema`.
pub fn mutations(schema: &Schema, message: &Value, pointer: &str, of: &Value) -> Vec<Mutation> {
    let mut walker = Walker {
        schema,
        out: Vec::new(),
    };
    walker.walk(message, pointer, of, 0, 0);
    walker.out
}

struct Walker<'a> {
    schema: &'a Schema,
    out: Vec<Mutation>,
}

/// `message` with the member at `pointer` set to `value` (`None`: removed).
fn with(message: &Value, pointer: &str, value: Option<Value>) -> Value {
    let mut out = message.clone();
    let (parent, last) = pointer.rsplit_once('/').expect("a member's pointer");
    let last = unescape(last).into_owned();
    match (out.pointer_mut(parent), value) {
        (Some(Value::Object(members)), Some(value)) => {
            members.insert(last, value);
        }
        (Some(Value::Object(members)), None) => {
            members.remove(&last);
        }
        (Some(Value::Array(items)), Some(value)) => {
            let at: usize = last.parse().expect("an index");
            if at < items.len() {
                items[at] = value;
            } else {
                items.push(value);
            }
        }
        _ => {}
    }
    out
}

/// The JSON types `value` is an instance of (an integer is a number too).
fn is_type(value: &Value, kind: &str) -> bool {
    match kind {
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => value.as_f64().is_some_and(|n| n.fract() == 0.0),
        "boolean" => value.is_boolean(),
        "object" => value.is_object(),
        "array" => value.is_array(),
        "null" => value.is_null(),
        _ => true,
    }
}

fn types_of(schema: &Value) -> Vec<&str> {
    match &schema["type"] {
        Value::String(kind) => vec![kind.as_str()],
        Value::Array(kinds) => kinds.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// Whether `value` can be an instance of the union branch `branch`: its type, its constant
/// members, its required members.
fn plausible(branch: &Value, value: &Value) -> bool {
    let kinds = types_of(branch);
    if !kinds.is_empty() && !kinds.iter().any(|k| is_type(value, k)) {
        return false;
    }
    if let Some(constant) = branch.get("const") {
        return constant == value;
    }
    let Some(members) = value.as_object() else {
        return true;
    };
    let constants_match = branch["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(name, s)| s.get("const").map(|c| (name, c)))
        .all(|(name, c)| members.get(name).is_none_or(|v| v == c));
    let required_present = branch["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .all(|name| members.contains_key(name));
    constants_match && required_present
}

impl Walker<'_> {
    fn push(&mut self, keyword: &str, pointer: &str, message: Value) {
        self.out.push(Mutation {
            what: format!("{keyword} at {pointer}"),
            message,
        });
    }

    fn walk(&mut self, message: &Value, pointer: &str, of: &Value, depth: usize, added: usize) {
        let of = self.schema.resolve(of);
        let Some(value) = message.pointer(pointer).cloned() else {
            return;
        };
        if depth > 16 {
            return;
        }
        for part in of["allOf"].as_array().into_iter().flatten() {
            self.walk(message, pointer, part, depth + 1, added);
        }
        for union in ["anyOf", "oneOf"] {
            let branches = of[union].as_array().into_iter().flatten();
            let chosen = branches
                .clone()
                .find(|b| plausible(self.schema.resolve(b), &value));
            if let Some(branch) = chosen {
                self.walk(message, pointer, branch, depth + 1, added);
            }
        }
        if !pointer.is_empty() {
            self.wrong_type(message, pointer, of);
            self.constraints(message, pointer, of, &value);
        }
        match &value {
            Value::Object(_) => self.members(message, pointer, of, &value, depth, added),
            Value::Array(items) => {
                if !items.is_empty() {
                    self.walk(
                        message,
                        &format!("{pointer}/0"),
                        &of["items"],
                        depth + 1,
                        added,
                    );
                } else if added < 2 {
                    let item = self.schema.minimal(&of["items"], 0);
                    if let Some(item) = item.filter(|_| of.get("items").is_some()) {
                        let grown = with(message, &format!("{pointer}/0"), Some(item));
                        self.walk(
                            &grown,
                            &format!("{pointer}/0"),
                            &of["items"],
                            depth + 1,
                            added + 1,
                        );
                    }
                }
            }
            _ => {}
        }
    }

    /// A value of a JSON type `of` does not allow (an integer's: a fraction too).
    fn wrong_type(&mut self, message: &Value, pointer: &str, of: &Value) {
        let kinds = types_of(of);
        if kinds.is_empty() {
            return;
        }
        let candidates = [
            json!(true),
            json!({"x": 1}),
            json!([1]),
            json!("s"),
            json!(1.5),
            json!(7),
            Value::Null,
        ];
        if let Some(wrong) = candidates
            .iter()
            .find(|c| !kinds.iter().any(|k| is_type(c, k)))
        {
            self.push("type", pointer, with(message, pointer, Some(wrong.clone())));
        }
        if kinds == ["integer"] {
            self.push("type", pointer, with(message, pointer, Some(json!(1.5))));
            // Integers JSON allows that a 64-bit or a JavaScript number does not hold exactly,
            // and an integer written with a fraction part.
            for edge in [
                json!(1.0),
                json!(9_007_199_254_740_993_u64),
                json!(u64::MAX),
                json!(1e20),
            ] {
                self.push("integer-edge", pointer, with(message, pointer, Some(edge)));
            }
        }
    }

    /// One message per constraint keyword of `of`, broken.
    fn constraints(&mut self, message: &Value, pointer: &str, of: &Value, value: &Value) {
        let mut broken: Vec<(&str, Value)> = Vec::new();
        if let Some(limit) = of["minimum"].as_f64() {
            broken.push(("minimum", number(limit - 1.0)));
        }
        if let Some(limit) = of["maximum"].as_f64() {
            broken.push(("maximum", number(limit + 1.0)));
        }
        if let Some(limit) = of["maxItems"].as_u64() {
            let item = value.get(0).cloned().unwrap_or(json!("x"));
            broken.push(("maxItems", Value::Array(vec![item; limit as usize + 1])));
        }
        if of["minItems"].as_u64().is_some_and(|n| n > 0) {
            broken.push(("minItems", json!([])));
        }
        if let Some(format) = of["format"].as_str() {
            broken.push(("format", json!(bad_format(format))));
            for edge in format_edges(format) {
                broken.push(("format-edge", json!(edge)));
            }
        }
        if of.get("enum").is_some() {
            broken.push(("enum", json!("not-one-of-the-enum")));
        }
        if let Some(constant) = of.get("const") {
            let other = match constant {
                Value::String(s) => json!(format!("{s}-other")),
                Value::Number(n) => number(n.as_f64().unwrap_or(0.0) + 1.0),
                _ => json!("other"),
            };
            broken.push(("const", other));
        }
        for (keyword, wrong) in broken {
            self.push(keyword, pointer, with(message, pointer, Some(wrong)));
        }
    }

    /// An object's members: each required one removed, each declared one walked (an absent one
    /// added first), and an undeclared one added where `additionalProperties` restricts them.
    fn members(
        &mut self,
        message: &Value,
        pointer: &str,
        of: &Value,
        value: &Value,
        depth: usize,
        added: usize,
    ) {
        let present = value.as_object().expect("an object");
        for name in of["required"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            if present.contains_key(name) {
                let at = format!("{pointer}/{}", escape(name));
                self.push("required", &at, with(message, &at, None));
            }
        }
        let declared = of["properties"].as_object();
        for (name, member) in declared.into_iter().flatten() {
            let at = format!("{pointer}/{}", escape(name));
            if present.contains_key(name) {
                self.walk(message, &at, member, depth + 1, added);
            } else if added < 2 {
                if let Some(small) = self.schema.minimal(member, 0) {
                    let grown = with(message, &at, Some(small));
                    self.walk(&grown, &at, member, depth + 1, added + 1);
                }
            }
        }
        let extra = format!("{pointer}/x-mutation");
        match &of["additionalProperties"] {
            Value::Bool(false) => self.push(
                "additionalProperties",
                &extra,
                with(message, &extra, Some(json!(1))),
            ),
            rule @ Value::Object(_) if added < 2 => {
                if let Some(small) = self.schema.minimal(rule, 0) {
                    let grown = with(message, &extra, Some(small));
                    self.walk(&grown, &extra, rule, depth + 1, added + 1);
                }
            }
            _ => {}
        }
    }
}

/// `n` as JSON: an integer where it has no fraction.
fn number(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 9e15 {
        json!(n as i64)
    } else {
        json!(n)
    }
}

/// Strings where validators of `format` are known to differ (relative references, IRIs,
/// spaces, unclosed expressions).
fn format_edges(format: &str) -> &'static [&'static str] {
    match format {
        "uri" => &[
            "relative/path",
            "urn:isbn:0451450523",
            "file:///home/a.txt",
            "https://exa mple.com/",
            "https://例え.jp/パス",
            "a:b",
            "https://example.com/%zz",
        ],
        "uri-template" => &["/a/{b}", "{x", "x}"],
        "byte" => &["AAA", "YQ=="],
        _ => &[],
    }
}

/// A string that is not of `format`.
fn bad_format(format: &str) -> &'static str {
    match format {
        "uri" => "not a uri",
        "uri-template" => "https://example.com/{unclosed",
        "byte" => "not base64!",
        "date-time" => "yesterday",
        "email" => "not an email",
        _ => "\u{0} not of the format",
    }
}
