//! Schema-valid values: JSON that a JSON Schema accepts, drawn at random from a seed, for
//! property tests and for fuzzing a peer with messages of its revision.
//!
//! [`Values`] reads the keywords MCP's official schemas use (`type`, `properties`, `required`,
//! `additionalProperties`, `items`, `const`, `enum`, `anyOf`, `allOf`, `$ref`, `minimum`,
//! `maximum`, `maxItems`, `format` `uri`, `uri-template` and `byte`) and those tools' input
//! schemas commonly add (string lengths, exclusive bounds, `multipleOf`, `minItems`,
//! `uniqueItems`, the date and e-mail formats), and what zod writes for a record, a member that
//! must be absent and a date-time (`propertyNames`, a member whose schema is `{"not": {}}`, a
//! `pattern` beside a `format`). A schema with a keyword it cannot satisfy by construction
//! (`pattern` alone, `oneOf`, `not` elsewhere, `if`, …) is an [`Unsupported`] error naming the
//! keyword and where it is: never a value that might not be valid.
//!
//! The draws reach what the corpus rarely holds: optional members present and absent, members
//! a schema does not declare where it allows them, every branch of a union, numbers and lengths
//! at their bounds, strings with escapes and characters outside ASCII. The same seed gives the
//! same values.
//!
//! ```
//! use mcp_typed_json::values::Values;
//! use serde_json::json;
//!
//! let schema = json!({
//!     "type": "object",
//!     "properties": {"priority": {"type": "number", "minimum": 0, "maximum": 1}},
//!     "required": ["priority"],
//!     "additionalProperties": false
//! });
//! let mut values = Values::new(&schema, 7);
//! for _ in 0..100 {
//!     let value = values.of(&schema)?;
//!     let priority = value["priority"].as_f64().unwrap();
//!     assert!((0.0..=1.0).contains(&priority));
//!     assert_eq!(value.as_object().unwrap().len(), 1);
//! }
//! # Ok::<(), mcp_typed_json::values::Unsupported>(())
//! ```

use std::fmt;

use serde_json::{Map, Number, Value};

/// Draws schema-valid values of the schemas of one document (whose `$ref`s it follows).
#[derive(Debug, Clone)]
pub struct Values<'s> {
    root: &'s Value,
    rng: fastrand::Rng,
}

/// A schema [`Values`] cannot draw a value of: the keyword, and the JSON pointer of the schema
/// that has it (from the schema given, through the `$ref`s followed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported {
    /// Where the schema is.
    pub pointer: String,
    /// The keyword, or what is wrong (`$ref` to nowhere, a schema nested too deep).
    pub keyword: String,
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: no value can be drawn for `{}`",
            self.pointer, self.keyword
        )
    }
}

impl std::error::Error for Unsupported {}

/// Why the schema at `at` gets no value: `keyword`.
fn unsupported(at: &str, keyword: impl Into<String>) -> Unsupported {
    Unsupported {
        pointer: at.to_owned(),
        keyword: keyword.into(),
    }
}

/// Keywords that only annotate: they constrain nothing a value is drawn by.
const ANNOTATIONS: [&str; 10] = [
    "description",
    "title",
    "$schema",
    "$id",
    "$comment",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// Whether `keyword` constrains nothing a value is drawn by: one of [`ANNOTATIONS`], the
/// definitions a `$ref` reaches (`$defs`, `definitions`: a schema made by schemars has them at
/// its root), or an extension keyword (`x-…`, as MCP's `x-mcp-header`, which mirrors a tool's
/// argument into an HTTP header).
fn is_annotation(keyword: &str) -> bool {
    ANNOTATIONS.contains(&keyword)
        || matches!(keyword, "$defs" | "definitions")
        || keyword.starts_with("x-")
}

/// Keywords this module draws by.
const DRAWN: [&str; 26] = [
    "type",
    "properties",
    "required",
    "additionalProperties",
    "propertyNames",
    "items",
    "const",
    "enum",
    "anyOf",
    "oneOf",
    "allOf",
    "$ref",
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
    "format",
    "$defs",
    "definitions",
];

/// Whether no value satisfies `schema`: `false`, or `{"not": {}}` (annotations aside).
fn accepts_nothing(schema: &Value) -> bool {
    match schema {
        Value::Bool(accepts) => !accepts,
        Value::Object(members) => {
            let everything = |not: &Value| {
                *not == Value::Bool(true) || not.as_object().is_some_and(Map::is_empty)
            };
            members.get("not").is_some_and(everything)
                && members.keys().all(|k| k == "not" || is_annotation(k))
        }
        _ => false,
    }
}

/// The types a schema allows: those it names (`type`), else its constant's.
fn types_of(schema: &Value) -> Option<Vec<&str>> {
    match (schema.get("type"), schema.get("const")) {
        (Some(Value::String(kind)), _) => Some(vec![kind.as_str()]),
        (Some(Value::Array(kinds)), _) => kinds.iter().map(Value::as_str).collect(),
        (None, Some(value)) => Some(vec![match value {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(n) if n.is_f64() => "number",
            Value::Number(_) => "integer",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }]),
        _ => None,
    }
}

/// Whether `x` and `y` each list the values they allow (`const`, `enum`) and share none.
fn listed_apart(x: &Value, y: &Value) -> bool {
    fn listed(schema: &Value) -> Option<&[Value]> {
        match (schema.get("const"), schema.get("enum")) {
            (Some(value), _) => Some(std::slice::from_ref(value)),
            (None, Some(Value::Array(values))) => Some(values),
            _ => None,
        }
    }
    match (listed(x), listed(y)) {
        (Some(x), Some(y)) => !x.iter().any(|v| y.contains(v)),
        _ => false,
    }
}

/// Past this depth of nesting, optional members are left out and arrays are as short as they
/// may be, so that a recursive schema ends.
const SHALLOW_FROM: usize = 6;

/// A schema nested deeper than this (through `$ref`s) is refused.
const DEEPEST: usize = 64;

/// The formats drawn (those the validator of `mcp_typed::validate` and ajv-formats know).
const FORMATS: [&str; 7] = [
    "uri",
    "uri-template",
    "byte",
    "date-time",
    "date",
    "time",
    "email",
];

impl<'s> Values<'s> {
    /// Draws values of the schemas of `root` (a `schema.json`, or a single schema), from
    /// `seed`.
    pub fn new(root: &'s Value, seed: u64) -> Self {
        Self {
            root,
            rng: fastrand::Rng::with_seed(seed),
        }
    }

    /// A value of `schema`, a schema of the document (or the document itself).
    pub fn of(&mut self, schema: &Value) -> Result<Value, Unsupported> {
        self.draw(schema, "", 0)
    }

    /// A value of the definition `name` (`#/$defs/name`, else `#/definitions/name`).
    pub fn of_definition(&mut self, name: &str) -> Result<Value, Unsupported> {
        let (pointer, schema) = ["$defs", "definitions"]
            .into_iter()
            .map(|key| format!("/{key}/{}", crate::pointer::escape(name)))
            .find_map(|pointer| Some((pointer.clone(), self.root.pointer(&pointer)?)))
            .ok_or_else(|| unsupported("", format!("no definition `{name}`")))?;
        self.draw(schema, &pointer, 0)
    }

    fn draw(&mut self, schema: &Value, at: &str, depth: usize) -> Result<Value, Unsupported> {
        self.draw_all(&[(schema, at.to_owned())], depth)
    }

    /// A value valid under every schema of `schemas` (each with its pointer): one schema's
    /// value, or, for several (`allOf`, a `$ref` with other keywords beside it), a value of the
    /// constant or enumeration one of them fixes, or an object of the members they declare,
    /// each member drawn under every schema that declares it.
    fn draw_all(
        &mut self,
        schemas: &[(&Value, String)],
        depth: usize,
    ) -> Result<Value, Unsupported> {
        let first_at = schemas.first().map_or("", |(_, at)| at.as_str());
        if depth > DEEPEST {
            return Err(unsupported(first_at, "a schema nested too deep"));
        }
        // Each schema, its `$ref`s and `allOf`s taken apart into plain parts; what remains
        // beside them is kept as a part of its own (`rest`, owned here).
        let mut rests: Vec<(Value, String)> = Vec::new();
        let mut parts: Vec<(&Value, String)> = Vec::new();
        let mut pending: Vec<(&Value, String)> = schemas.to_vec();
        let mut steps = 0;
        while let Some((schema, at)) = pending.pop() {
            steps += 1;
            if steps > 4 * DEEPEST {
                return Err(unsupported(&at, "a schema nested too deep"));
            }
            let members = match schema {
                Value::Bool(true) => continue,
                Value::Object(members) => members,
                _ => return Err(unsupported(&at, "a schema that accepts nothing")),
            };
            if let Some(keyword) =
                (members.keys()).find(|k| !is_annotation(k) && !DRAWN.contains(&k.as_str()))
            {
                return Err(unsupported(&at, keyword));
            }
            let split = ["$ref", "allOf"].iter().any(|k| members.contains_key(*k));
            if !split {
                if members.keys().any(|k| !is_annotation(k)) {
                    parts.push((schema, at));
                }
                continue;
            }
            if let Some(reference) = members.get("$ref") {
                let target = (reference.as_str())
                    .and_then(|r| r.strip_prefix('#'))
                    .and_then(|pointer| Some((pointer, self.root.pointer(pointer)?)));
                let Some((pointer, target)) = target else {
                    return Err(unsupported(&at, "$ref"));
                };
                pending.push((target, pointer.to_owned()));
            }
            if let Some(all) = members.get("allOf") {
                let all = all.as_array().ok_or_else(|| unsupported(&at, "allOf"))?;
                for (index, part) in all.iter().enumerate() {
                    pending.push((part, format!("{at}/allOf/{index}")));
                }
            }
            let rest: Map<String, Value> = (members.iter())
                .filter(|(k, _)| !["$ref", "allOf"].contains(&k.as_str()))
                .filter(|(k, _)| !is_annotation(k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            if !rest.is_empty() {
                rests.push((Value::Object(rest), at));
            }
        }
        parts.extend(rests.iter().map(|(rest, at)| (rest, at.clone())));
        match parts.as_slice() {
            [] => return Ok(self.any(depth)),
            [(schema, at)] => return self.plain(schema, at, depth),
            _ => {}
        }
        // Several: what one of them fixes, else an object under all of them.
        if let Some(value) = parts.iter().find_map(|(schema, _)| schema.get("const")) {
            return Ok(value.clone());
        }
        if let Some((schema, at)) = parts
            .iter()
            .find(|(schema, _)| schema.get("enum").is_some())
        {
            return self.plain(schema, at, depth);
        }
        for (schema, at) in &parts {
            let object_like = match schema.get("type") {
                Some(kind) => kind == "object",
                None => schema.get("anyOf").is_none() && schema.get("items").is_none(),
            };
            if !object_like {
                return Err(unsupported(at, "allOf of other than objects"));
            }
        }
        self.object(&parts, depth)
    }

    /// A value of one schema without `$ref` or `allOf`.
    fn plain(&mut self, schema: &Value, at: &str, depth: usize) -> Result<Value, Unsupported> {
        let Value::Object(members) = schema else {
            return Err(unsupported(at, "a schema that accepts nothing"));
        };
        if let Some(value) = members.get("const") {
            return Ok(value.clone());
        }
        if let Some(options) = members.get("enum") {
            let options = options.as_array().filter(|o| !o.is_empty());
            let options = options.ok_or_else(|| unsupported(at, "enum"))?;
            return Ok(options[self.rng.usize(..options.len())].clone());
        }
        for union in ["anyOf", "oneOf"] {
            let Some(branches) = members.get(union) else {
                continue;
            };
            let branches = branches.as_array().filter(|b| !b.is_empty());
            let branches = branches.ok_or_else(|| unsupported(at, union))?;
            // `oneOf`: a value of one branch is of no other only where each two branches are
            // told apart by what their values must hold (`disjoint`).
            if union == "oneOf" {
                for (i, a) in branches.iter().enumerate() {
                    if !branches[i + 1..].iter().all(|b| self.disjoint(a, b)) {
                        return Err(unsupported(&format!("{at}/oneOf/{i}"), "oneOf"));
                    }
                }
            }
            let pick = self.rng.usize(..branches.len());
            let branch = (&branches[pick], format!("{at}/{union}/{pick}"));
            // Keywords beside the union hold with the branch: both drawn as one.
            let rest: Map<String, Value> = (members.iter())
                .filter(|(k, _)| *k != union && !is_annotation(k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            if rest.is_empty() {
                return self.draw(branch.0, &branch.1, depth + 1);
            }
            if rest.contains_key("anyOf") || rest.contains_key("oneOf") {
                return Err(unsupported(at, "anyOf beside oneOf"));
            }
            let rest = Value::Object(rest);
            return self.draw_all(&[(&rest, at.to_owned()), (branch.0, branch.1)], depth + 1);
        }
        match self.kind(members, at)? {
            "object" => self.object(&[(schema, at.to_owned())], depth),
            "array" => self.array(members, at, depth),
            "string" => self.string(members, at),
            "integer" => self.number(members, at, true),
            "number" => self.number(members, at, false),
            "boolean" => Ok(Value::Bool(self.rng.bool())),
            "null" => Ok(Value::Null),
            _ => Ok(self.any(depth)),
        }
    }

    /// Whether no value is valid under both `a` and `b`, by what each one's values must hold:
    /// types apart (`integer` within `number`), constants apart, or a member one requires whose
    /// constant the other's schema of that member refuses.
    fn disjoint(&self, a: &Value, b: &Value) -> bool {
        let (a, b) = (self.resolved(a), self.resolved(b));
        if let (Some(x), Some(y)) = (types_of(a), types_of(b)) {
            let overlap = |x: &str, y: &str| {
                x == y || matches!((x, y), ("integer", "number") | ("number", "integer"))
            };
            if !x.iter().any(|x| y.iter().any(|y| overlap(x, y))) {
                return true;
            }
        }
        listed_apart(a, b) || self.member_apart(a, b) || self.member_apart(b, a)
    }

    /// Whether a member `first` requires is listed apart from what `second` allows for it.
    fn member_apart(&self, first: &Value, second: &Value) -> bool {
        let required = first.get("required").and_then(Value::as_array);
        (required.into_iter().flatten().filter_map(Value::as_str)).any(|name| {
            let x = (first.get("properties")).and_then(|members| members.get(name));
            let y = (second.get("properties")).and_then(|members| members.get(name));
            match (x, y) {
                (Some(x), Some(y)) => listed_apart(self.resolved(x), self.resolved(y)),
                _ => false,
            }
        })
    }

    /// `schema`, or what its `$ref` points at (a few references deep).
    fn resolved<'v>(&'v self, mut schema: &'v Value) -> &'v Value {
        for _ in 0..8 {
            let target = (schema.get("$ref").and_then(Value::as_str))
                .and_then(|r| r.strip_prefix('#'))
                .and_then(|pointer| self.root.pointer(pointer));
            match target {
                Some(target) => schema = target,
                None => break,
            }
        }
        schema
    }

    /// The type to draw: `type`'s (one of them at random), else the one the keywords imply.
    fn kind(
        &mut self,
        members: &Map<String, Value>,
        at: &str,
    ) -> Result<&'static str, Unsupported> {
        const KINDS: [&str; 7] = [
            "object", "array", "string", "integer", "number", "boolean", "null",
        ];
        let named = |name: &Value| KINDS.iter().find(|k| name == **k).copied();
        let unknown = || unsupported(&format!("{at}/type"), "type");
        Ok(match members.get("type") {
            Some(Value::Array(kinds)) if !kinds.is_empty() => {
                named(&kinds[self.rng.usize(..kinds.len())]).ok_or_else(unknown)?
            }
            Some(kind) => named(kind).ok_or_else(unknown)?,
            None if ["properties", "required", "propertyNames"]
                .iter()
                .any(|k| members.contains_key(*k)) =>
            {
                "object"
            }
            None if members.contains_key("items") => "array",
            None => "any",
        })
    }

    /// An object valid under every schema of `schemas`: each one's required members, the
    /// others at random, a member several declare drawn under all of them, and now and then a
    /// member none declares where all of them allow it.
    fn object(&mut self, schemas: &[(&Value, String)], depth: usize) -> Result<Value, Unsupported> {
        // Member name → the schemas that declare it, with their pointers.
        let mut declared: Vec<(&String, Vec<(&Value, String)>)> = Vec::new();
        let mut required: Vec<&str> = Vec::new();
        // Members that must be absent (zod's `z.never()`), and what an undeclared member's name
        // must satisfy.
        let mut absent: Vec<(&String, String)> = Vec::new();
        let mut names: Vec<(&Value, String)> = Vec::new();
        for (schema, at) in schemas {
            if let Some(under) = schema.get("propertyNames") {
                names.push((under, format!("{at}/propertyNames")));
            }
            let properties = schema.get("properties").and_then(Value::as_object);
            for (name, member) in properties.into_iter().flatten() {
                let pointer = format!("{at}/properties/{}", crate::pointer::escape(name));
                if accepts_nothing(member) {
                    absent.push((name, pointer));
                    continue;
                }
                match declared.iter_mut().find(|(known, _)| *known == name) {
                    Some((_, all)) => all.push((member, pointer)),
                    None => declared.push((name, vec![(member, pointer)])),
                }
            }
            let names = schema.get("required").and_then(Value::as_array);
            required.extend(names.into_iter().flatten().filter_map(Value::as_str));
        }
        // What a member no schema of `schemas` declares must satisfy: each one's
        // `additionalProperties` (`None`: one refuses them).
        let mut additional: Option<Vec<(&Value, String)>> = Some(Vec::new());
        for (schema, at) in schemas {
            match schema.get("additionalProperties") {
                None | Some(Value::Bool(true)) => {}
                Some(Value::Bool(false)) => additional = None,
                Some(other) => {
                    if let Some(all) = additional.as_mut() {
                        all.push((other, format!("{at}/additionalProperties")));
                    }
                }
            }
            // A member another schema declares is an additional one of this one.
            let own = schema.get("properties").and_then(Value::as_object);
            let foreign = declared
                .iter()
                .any(|(name, _)| !own.is_some_and(|o| o.contains_key(*name)));
            if schema.get("additionalProperties") == Some(&Value::Bool(false)) && foreign {
                return Err(unsupported(
                    at,
                    "additionalProperties false beside other schemas' members",
                ));
            }
        }
        declared.retain(|(name, _)| !absent.iter().any(|(never, _)| never == name));
        if let Some((_, at)) = (absent.iter()).find(|(name, _)| required.contains(&name.as_str())) {
            return Err(unsupported(at, "a required member no value satisfies"));
        }
        let mut out = Map::new();
        for (name, under) in &declared {
            let wanted =
                required.contains(&name.as_str()) || (depth < SHALLOW_FROM && self.rng.bool());
            if wanted {
                out.insert((*name).clone(), self.draw_all(under, depth + 1)?);
            }
        }
        let first_at = schemas.first().map_or("", |(_, at)| at.as_str());
        for name in required {
            if out.contains_key(name) {
                continue;
            }
            let Some(under) = &additional else {
                return Err(unsupported(
                    first_at,
                    "a required member additionalProperties refuses",
                ));
            };
            let value = self.draw_all(under, depth + 1)?;
            out.insert(name.to_owned(), value);
        }
        // A member none declares, where all allow one.
        if let Some(under) = &additional {
            if depth < SHALLOW_FROM && self.rng.u8(..4) == 0 {
                let name = if names.is_empty() {
                    format!("x-drawn-{}", self.rng.u16(..1000))
                } else {
                    match self.draw_all(&names, depth + 1)? {
                        Value::String(name) => name,
                        _ => return Err(unsupported(&names[0].1, "propertyNames")),
                    }
                };
                let value = self.draw_all(under, depth + 1)?;
                // A declared name (drawn by `propertyNames`) is not an undeclared member.
                let declares = |known: &String| *known == name;
                let known = declared.iter().any(|(known, _)| declares(known))
                    || absent.iter().any(|(known, _)| declares(known));
                if !known {
                    out.entry(name).or_insert(value);
                }
            }
        }
        Ok(Value::Object(out))
    }

    fn array(
        &mut self,
        members: &Map<String, Value>,
        at: &str,
        depth: usize,
    ) -> Result<Value, Unsupported> {
        let min = count(members, "minItems", 0);
        let most = if depth < SHALLOW_FROM { min + 3 } else { min };
        let max = count(members, "maxItems", most).min(most.max(min));
        if max < min {
            return Err(unsupported(at, "maxItems below minItems"));
        }
        let unique = members.get("uniqueItems") == Some(&Value::Bool(true));
        let len = self.rng.usize(min..=max);
        let mut items: Vec<Value> = Vec::with_capacity(len);
        // Draws past `len` only to replace repeated items of a `uniqueItems` array.
        for _ in 0..len * 8 + 8 {
            if items.len() == len {
                break;
            }
            let item = match members.get("items") {
                Some(schema) => self.draw(schema, &format!("{at}/items"), depth + 1)?,
                None => self.any(depth + 1),
            };
            if !unique || !items.contains(&item) {
                items.push(item);
            }
        }
        if items.len() < min {
            return Err(unsupported(at, "uniqueItems with too few distinct items"));
        }
        Ok(Value::Array(items))
    }

    fn string(&mut self, members: &Map<String, Value>, at: &str) -> Result<Value, Unsupported> {
        let min = count(members, "minLength", 0);
        let max = count(members, "maxLength", min + 12).min(min + 24);
        if let Some(named) = members.get("format") {
            let format = (named.as_str()).filter(|f| FORMATS.contains(f));
            let Some(format) = format else {
                return Err(unsupported(
                    &format!("{at}/format"),
                    format!("format {named}"),
                ));
            };
            let text = self.formatted_matching(format, members.get("pattern"), at)?;
            let length = text.chars().count();
            let bounded = members.contains_key("minLength") || members.contains_key("maxLength");
            if bounded && (length < min || length > max) {
                return Err(unsupported(
                    at,
                    format!("format {format} with a length bound"),
                ));
            }
            return Ok(Value::String(text));
        }
        if members.contains_key("pattern") {
            return Err(unsupported(&format!("{at}/pattern"), "pattern"));
        }
        if max < min {
            return Err(unsupported(at, "maxLength below minLength"));
        }
        // Plain letters mostly; now and then what needs escaping or is outside ASCII.
        const ODD: [char; 8] = ['"', '\\', '/', '\n', 'é', '日', '😀', '\u{7f}'];
        let len = self.rng.usize(min..=max);
        let text = (0..len)
            .map(|_| match self.rng.u8(..10) {
                0 => ODD[self.rng.usize(..ODD.len())],
                _ => self.rng.alphanumeric(),
            })
            .collect();
        Ok(Value::String(text))
    }

    /// A string of `format` that matches `pattern` too, when there is one: formatted strings
    /// tried against it (zod writes a date-time's `pattern` beside its `format`).
    fn formatted_matching(
        &mut self,
        format: &str,
        pattern: Option<&Value>,
        at: &str,
    ) -> Result<String, Unsupported> {
        let Some(pattern) = pattern else {
            return Ok(self.formatted(format));
        };
        let refused = || unsupported(&format!("{at}/pattern"), "pattern");
        let regex = (pattern.as_str())
            .and_then(|p| regress::Regex::new(p).ok())
            .ok_or_else(refused)?;
        (0..20)
            .map(|_| self.formatted(format))
            .find(|text| regex.find(text).is_some())
            .ok_or_else(refused)
    }

    /// A string of `format` (one of [`FORMATS`]).
    fn formatted(&mut self, format: &str) -> String {
        let n = self.rng.u32(..10_000);
        match format {
            "uri" => match self.rng.u8(..3) {
                0 => format!("https://example.com/{n}?q=%20a#f"),
                1 => format!("file:///tmp/{n}.txt"),
                _ => format!("urn:example:{n}"),
            },
            "uri-template" => format!("https://example.com/{{id}}/{n}"),
            "byte" => {
                // Base64 of `len` bytes.
                const ALPHABET: &[u8; 64] =
                    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
                let groups = self.rng.usize(..6);
                let mut text: String = (0..groups * 4)
                    .map(|_| char::from(ALPHABET[self.rng.usize(..64)]))
                    .collect();
                if groups > 0 && self.rng.bool() {
                    text.replace_range(text.len() - 1.., "=");
                }
                text
            }
            "date-time" => format!("2026-{:02}-{:02}T10:20:30Z", n % 12 + 1, n % 28 + 1),
            "date" => format!("2026-{:02}-{:02}", n % 12 + 1, n % 28 + 1),
            "time" => format!("{:02}:{:02}:30Z", n % 24, n % 60),
            _ => format!("user{n}@example.com"),
        }
    }

    fn number(
        &mut self,
        members: &Map<String, Value>,
        at: &str,
        integer: bool,
    ) -> Result<Value, Unsupported> {
        let bound = |name: &str| members.get(name).and_then(Value::as_f64);
        let (min, max) = (bound("minimum"), bound("maximum"));
        let (above, below) = (bound("exclusiveMinimum"), bound("exclusiveMaximum"));
        let step = match bound("multipleOf") {
            Some(step) if step > 0.0 => step,
            Some(_) => return Err(unsupported(at, "multipleOf")),
            None if integer => 1.0,
            None => 0.0,
        };
        // The range, its exclusive ends moved in by a step (or a little).
        let nudge = if step > 0.0 { step } else { 0.001 };
        let low = [min, above.map(|a| a + nudge)]
            .into_iter()
            .flatten()
            .reduce(f64::max);
        let high = [max, below.map(|b| b - nudge)]
            .into_iter()
            .flatten()
            .reduce(f64::min);
        let low = low.unwrap_or_else(|| high.map_or(-1000.0, |h| h - 1000.0));
        let high = high.unwrap_or(low + 2000.0);
        let drawn = match self.rng.u8(..4) {
            0 => low,
            1 => high,
            _ => low + (high - low) * self.rng.f64(),
        };
        let value = if step > 0.0 {
            // The multiple of the step nearest the draw, inside the range.
            let first = (low / step).ceil();
            let last = (high / step).floor();
            if first > last {
                return Err(unsupported(at, "no multiple of multipleOf in the range"));
            }
            (drawn / step).round().clamp(first, last) * step
        } else if high < low {
            return Err(unsupported(at, "an empty range"));
        } else {
            drawn
        };
        // An integer within i64 is written as one; anything else as the float it is.
        let number = if integer && value.abs() < 9.0e15 {
            Some(Number::from(value as i64))
        } else {
            Number::from_f64(value)
        };
        number
            .map(Value::Number)
            .ok_or_else(|| unsupported(at, "a number beyond f64"))
    }

    /// Any JSON value, small, nested no deeper than the draws allow.
    fn any(&mut self, depth: usize) -> Value {
        let kinds = if depth < SHALLOW_FROM { 7 } else { 5 };
        match self.rng.u8(..kinds) {
            0 => Value::Null,
            1 => Value::Bool(self.rng.bool()),
            2 => Value::from(self.rng.i64(-1000..1000)),
            3 => Value::from(f64::from(self.rng.i32(-1000..1000)) / 8.0),
            4 => Value::String(format!("any {}", self.rng.u16(..1000))),
            5 => Value::Array(
                (0..self.rng.usize(..3))
                    .map(|_| self.any(depth + 1))
                    .collect(),
            ),
            _ => Value::Object(
                (0..self.rng.usize(..3))
                    .map(|i| (format!("k{i}"), self.any(depth + 1)))
                    .collect(),
            ),
        }
    }
}

/// The count keyword `name` of a schema (`minItems`), else `default`.
fn count(members: &Map<String, Value>, name: &str, default: usize) -> usize {
    (members.get(name).and_then(Value::as_u64))
        .map_or(default, |n| usize::try_from(n).unwrap_or(usize::MAX))
}

#[cfg(test)]
mod tests {
    use super::Values;
    use serde_json::json;

    /// zod's record with keys of an enumeration: undeclared members named by `propertyNames`.
    #[test]
    fn undeclared_members_are_named_by_property_names() {
        let schema = json!({
            "type": "object",
            "propertyNames": {"anyOf": [{"const": "--a"}, {"type": "string", "const": "--b"}]},
            "additionalProperties": {"type": "string"}
        });
        let mut values = Values::new(&schema, 3);
        let mut named = 0;
        for _ in 0..200 {
            let value = values.of(&schema).expect("drawn");
            for (name, member) in value.as_object().expect("an object") {
                assert!(name == "--a" || name == "--b", "{value}");
                assert!(member.is_string(), "{value}");
                named += 1;
            }
        }
        assert!(named > 10, "{named} members drawn in 200 values");
    }

    /// zod's `z.never()`: a member that must be absent is never drawn; a required one cannot be.
    #[test]
    fn a_member_no_value_satisfies_is_left_out() {
        let schema = json!({
            "type": "object",
            "properties": {"kept": {"type": "boolean"}, "csp": {"not": {}}},
            "additionalProperties": false
        });
        let mut values = Values::new(&schema, 5);
        let mut kept = 0;
        for _ in 0..100 {
            let value = values.of(&schema).expect("drawn");
            assert!(value.get("csp").is_none(), "{value}");
            kept += usize::from(value.get("kept").is_some());
        }
        assert!(kept > 10, "{kept} of 100 with the optional member");
        let required =
            json!({"type": "object", "properties": {"csp": {"not": {}}}, "required": ["csp"]});
        let refused = Values::new(&required, 5).of(&required).unwrap_err();
        assert_eq!(
            refused.to_string().split(": ").next(),
            Some("/properties/csp")
        );
    }

    /// `oneOf` whose branches are told apart (types, constants, a required member's constant)
    /// is drawn branch by branch; one whose branches may overlap is refused.
    #[test]
    fn one_of_is_drawn_where_its_branches_are_apart() {
        let schema = json!({
            "$defs": {"Text": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}},
            "oneOf": [
                {"type": "number"},
                {"const": "auto"},
                {"type": "object", "properties": {"type": {"const": "text"}}, "required": ["type"], "allOf": [{"$ref": "#/$defs/Text"}]},
                {"type": "object", "properties": {"type": {"enum": ["image", "audio"]}}, "required": ["type"]}
            ]
        });
        let mut values = Values::new(&schema, 11);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..200 {
            let value = values.of(&schema).expect("drawn");
            let kind = match &value {
                serde_json::Value::Number(_) => "number",
                serde_json::Value::String(text) => {
                    assert_eq!(text, "auto");
                    "auto"
                }
                object => match object["type"].as_str() {
                    Some("text") => {
                        assert!(object["text"].is_string(), "{object}");
                        "text"
                    }
                    Some("image" | "audio") => "media",
                    _ => panic!("{object}"),
                },
            };
            seen.insert(kind);
        }
        assert_eq!(seen.len(), 4, "{seen:?}");

        let overlapping = json!({"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 3}]});
        let refused = Values::new(&overlapping, 1).of(&overlapping).unwrap_err();
        assert!(refused.to_string().starts_with("/oneOf/0: "), "{refused}");
    }
}
