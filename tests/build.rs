//! Writes `$OUT_DIR/derived_corpus.rs` for `tests/elicit_derived_corpus.rs`: one
//! `#[derive(Elicit)]` struct per group of `validation-corpus/*.json`, whose fields, types and
//! attributes express the group's schema, and a table mapping each group to its form.
//!
//! - Property names go through `#[serde(rename = "...")]` (fields are `f0`, `f1`, …), so any
//!   name works (`a/b`, `m~n`, `名前`).
//! - A property not listed in `required` is an `Option`.
//! - `"additionalProperties": false` is `#[serde(deny_unknown_fields)]`.
//! - A string is a `String` with `min_length`, `max_length`, `pattern`, `format`, `default`.
//! - A single select is a unit enum deriving `Elicit`, one variant per option (its value through
//!   `#[serde(rename)]`, its title through `#[elicit(title)]`; legacy `enumNames` are titles,
//!   written back as such with `#[elicit(enum_names)]`). A
//!   multi select is a `Vec` of such an enum, with `min_items`/`max_items`.
//! - A number is an `f64`, an integer an integer type: the type whose range is exactly the
//!   group's `minimum..=maximum` if there is one (`0..=255` is `u8`), else `i64` (`u64` when a
//!   bound needs it) with the group's bounds. A bound the group leaves out is then the type's:
//!   that is the one thing a Rust type cannot express, and such a property is listed in the
//!   table's `widened` so that the test checks that the schemas differ by exactly those bounds
//!   and expects the values outside the type's range to be refused.
//!
//! A group that the derive cannot express is listed in `UNEXPRESSED` with the reason, and the
//! test fails naming it: nothing is skipped silently.
//!
//! The generated code uses the names `DerivedGroup`, `Widened`, `Unexpressed`, `run_content`
//! and `run_json` of the file that includes it.

use std::path::{Path, PathBuf};

use serde_json::{Map, Number, Value};

/// The integer types of the derive, with their ranges, in the order they are tried for an
/// exact fit.
const INTS: [(&str, i128, i128); 8] = [
    ("u8", 0, u8::MAX as i128),
    ("i8", i8::MIN as i128, i8::MAX as i128),
    ("u16", 0, u16::MAX as i128),
    ("i16", i16::MIN as i128, i16::MAX as i128),
    ("u32", 0, u32::MAX as i128),
    ("i32", i32::MIN as i128, i32::MAX as i128),
    ("i64", i64::MIN as i128, i64::MAX as i128),
    ("u64", 0, u64::MAX as i128),
];

/// The formats the derive accepts.
const FORMATS: [&str; 4] = ["email", "uri", "date", "date-time"];

fn main() {
    let dir = Path::new(&std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"))
        .join("validation-corpus");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={}", dir.display());

    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("tests/validation-corpus exists")
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();

    let mut gen = Gen::default();
    for file in &files {
        println!("cargo:rerun-if-changed={}", file.display());
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = std::fs::read_to_string(file).expect("readable corpus file");
        let root: Value = serde_json::from_str(&text)
            .unwrap_or_else(|error| panic!("{name}: malformed JSON: {error}"));
        let groups = root["groups"]
            .as_array()
            .unwrap_or_else(|| panic!("{name}: `groups` is not an array"));
        for (index, group) in groups.iter().enumerate() {
            let description = group["description"].as_str().unwrap_or("?");
            gen.group(&name, index, description, &group["schema"]);
        }
    }

    let out = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("derived_corpus.rs");
    std::fs::write(&out, gen.finish()).expect("write derived_corpus.rs");
}

/// A Rust string literal.
fn lit(s: &str) -> String {
    format!("{s:?}")
}

/// A Rust number literal that the derive reads back as the same JSON number: an integer
/// literal for an integer, the shortest round-tripping float literal for a float.
fn num_lit(n: &Number) -> String {
    if let Some(i) = n.as_i64() {
        i.to_string()
    } else if let Some(u) = n.as_u64() {
        u.to_string()
    } else {
        let f = n.as_f64().expect("a JSON number is an integer or a float");
        let text = format!("{f:?}");
        if text.contains(['.', 'e', 'E']) {
            text
        } else {
            format!("{text}.0")
        }
    }
}

fn int_of(n: &Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

#[derive(Default)]
struct Gen {
    /// Struct and enum definitions.
    items: String,
    /// Entries of `DERIVED_GROUPS`.
    table: String,
    /// Entries of `UNEXPRESSED`.
    unexpressed: String,
    count: usize,
}

/// One field of a form being built.
struct Field {
    attrs: Vec<String>,
    elicit: Vec<String>,
    ty: String,
}

impl Gen {
    fn group(&mut self, file: &str, index: usize, description: &str, schema: &Value) {
        let ident = format!("Group{}", self.count);
        self.count += 1;
        match self.form(&ident, schema) {
            Ok((items, widened)) => {
                self.items.push_str(&format!(
                    "// {file}, group {index}: {description}\n{items}\n"
                ));
                self.table.push_str(&format!(
                    "    DerivedGroup {{\n        file: {},\n        index: {index},\n        \
                     description: {},\n        requested_schema: <{ident} as \
                     ::mcp_typed::elicit::Elicit>::requested_schema,\n        from_content: \
                     run_content::<{ident}>,\n        from_json_str: run_json::<{ident}>,\n        \
                     widened: &[{}],\n    }},\n",
                    lit(file),
                    lit(description),
                    widened.join(", "),
                ));
            }
            Err(why) => {
                self.unexpressed.push_str(&format!(
                    "    Unexpressed {{ file: {}, index: {index}, description: {}, why: {} }},\n",
                    lit(file),
                    lit(description),
                    lit(&why),
                ));
            }
        }
    }

    fn finish(self) -> String {
        format!(
            "// Generated by tests/build.rs from tests/validation-corpus/*.json.\n\n{}\
             /// One form per corpus group that the derive can express.\n\
             const DERIVED_GROUPS: &[DerivedGroup] = &[\n{}];\n\n\
             /// The corpus groups that the derive cannot express, with the reason.\n\
             const UNEXPRESSED: &[Unexpressed] = &[\n{}];\n",
            self.items, self.table, self.unexpressed
        )
    }

    /// The struct (and its enums) for one schema, and the `Widened` entries of its integer
    /// properties whose type adds a bound.
    fn form(&self, ident: &str, schema: &Value) -> Result<(String, Vec<String>), String> {
        let root = schema.as_object().ok_or("the schema is not an object")?;
        let mut deny_unknown = false;
        let mut required: Vec<&str> = Vec::new();
        let mut properties = &Map::new();
        for (key, value) in root {
            match key.as_str() {
                "type" if value == "object" => {}
                "properties" => {
                    properties = value.as_object().ok_or("`properties` is not an object")?;
                }
                "required" => {
                    for name in value.as_array().ok_or("`required` is not an array")? {
                        required.push(name.as_str().ok_or("a `required` name is not a string")?);
                    }
                }
                "additionalProperties" => match value {
                    Value::Bool(false) => deny_unknown = true,
                    Value::Bool(true) => {}
                    _ => return Err("`additionalProperties` is not a boolean".into()),
                },
                _ => return Err(format!("top-level keyword `{key}`: {value}")),
            }
        }
        if let Some(name) = required
            .iter()
            .find(|name| !properties.contains_key(**name))
        {
            return Err(format!(
                "`required` names `{name}`, which is not a property: a derived struct only \
                 requires its own fields"
            ));
        }

        let mut enums = String::new();
        let mut fields = String::new();
        let mut widened = Vec::new();
        for (n, (name, property)) in properties.iter().enumerate() {
            let enum_ident = format!("{ident}Options{n}");
            let mut field = self.property(name, property, &enum_ident, &mut enums, &mut widened)?;
            field
                .attrs
                .insert(0, format!("#[serde(rename = {})]", lit(name)));
            // Corpus names are test data, not secrets; `not_sensitive` changes nothing in the
            // schema, so every field gets it rather than a copy of the derive's word list.
            field.elicit.push("not_sensitive".into());
            field
                .attrs
                .push(format!("#[elicit({})]", field.elicit.join(", ")));
            let ty = if required.contains(&name.as_str()) {
                field.ty
            } else {
                format!("Option<{}>", field.ty)
            };
            for attr in &field.attrs {
                fields.push_str(&format!("    {attr}\n"));
            }
            fields.push_str(&format!("    f{n}: {ty},\n"));
        }
        let deny = if deny_unknown {
            "#[serde(deny_unknown_fields)]\n"
        } else {
            ""
        };
        Ok((
            format!(
                "{enums}#[derive(Debug, ::mcp_typed::Elicit)]\n#[allow(dead_code)]\n{deny}\
                 struct {ident} {{\n{fields}}}\n"
            ),
            widened,
        ))
    }

    fn property(
        &self,
        name: &str,
        property: &Value,
        enum_ident: &str,
        enums: &mut String,
        widened: &mut Vec<String>,
    ) -> Result<Field, String> {
        let members = property
            .as_object()
            .ok_or_else(|| format!("property `{name}` is not an object"))?;
        let ty = members
            .get("type")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("property `{name}` has no string `type`"))?;
        let select = members.contains_key("enum") || members.contains_key("oneOf");
        let mut field = Field {
            attrs: Vec::new(),
            elicit: Vec::new(),
            ty: String::new(),
        };
        let mut options: Option<Vec<(String, Option<String>)>> = None;
        let mut enum_names: Option<Vec<String>> = None;
        let mut minimum = None;
        let mut maximum = None;
        let mut default = None;
        for (key, value) in members {
            let bad = || format!("property `{name}`: `{key}` = {value} cannot be written");
            let text = || value.as_str().map(lit).ok_or_else(bad);
            let count = || value.as_u64().ok_or_else(bad);
            match (ty, key.as_str()) {
                (_, "type") => {}
                (_, "title" | "description") => {
                    let s = value.as_str().ok_or_else(bad)?;
                    let lower = s.to_ascii_lowercase();
                    if lower.contains("http://") || lower.contains("https://") {
                        return Err(format!(
                            "property `{name}`: the derive refuses URLs in a {key}"
                        ));
                    }
                    field.elicit.push(format!("{key} = {}", lit(s)));
                }
                (_, "default") => default = Some(value),
                ("string", "minLength" | "maxLength") if !select => {
                    let attr = if key == "minLength" {
                        "min_length"
                    } else {
                        "max_length"
                    };
                    field.elicit.push(format!("{attr} = {}", count()?));
                }
                ("string", "pattern") if !select => {
                    field.elicit.push(format!("pattern = {}", text()?));
                }
                ("string", "format") if !select => {
                    if !FORMATS.iter().any(|f| value == *f) {
                        return Err(format!(
                            "property `{name}`: format {value}, which the derive refuses"
                        ));
                    }
                    field.elicit.push(format!("format = {}", text()?));
                }
                ("string", "enum") => options = Some(untitled(value).ok_or_else(bad)?),
                ("string", "enumNames") => {
                    enum_names = Some(
                        value
                            .as_array()
                            .and_then(|names| {
                                names
                                    .iter()
                                    .map(|n| n.as_str().map(str::to_owned))
                                    .collect()
                            })
                            .ok_or_else(bad)?,
                    );
                }
                ("string", "oneOf") => options = Some(titled(value).ok_or_else(bad)?),
                ("integer" | "number", "minimum") => {
                    minimum = Some(value.as_number().ok_or_else(bad)?);
                }
                ("integer" | "number", "maximum") => {
                    maximum = Some(value.as_number().ok_or_else(bad)?);
                }
                ("array", "minItems" | "maxItems") => {
                    let attr = if key == "minItems" {
                        "min_items"
                    } else {
                        "max_items"
                    };
                    field.elicit.push(format!("{attr} = {}", count()?));
                }
                ("array", "items") => options = Some(items(value).ok_or_else(bad)?),
                _ => return Err(format!("property `{name}`: keyword `{key}` of a {ty}")),
            }
        }
        if let Some(names) = enum_names {
            // Written back as it came: `enum` + `enumNames`.
            field.elicit.push("enum_names".to_owned());
            let values = options
                .as_mut()
                .ok_or_else(|| format!("property `{name}`: `enumNames` without `enum`"))?;
            if names.len() != values.len() || values.iter().any(|(_, t)| t.is_some()) {
                return Err(format!(
                    "property `{name}`: `enumNames` does not match `enum`"
                ));
            }
            for ((_, title), n) in values.iter_mut().zip(names) {
                *title = Some(n);
            }
        }

        match ty {
            "string" | "array" if options.is_some() || ty == "array" => {
                let options = options
                    .ok_or_else(|| format!("property `{name}`: an array without `items`"))?;
                let mut variants = String::new();
                for (k, (value, title)) in options.iter().enumerate() {
                    variants.push_str(&format!("    #[serde(rename = {})]\n", lit(value)));
                    if let Some(title) = title {
                        variants.push_str(&format!("    #[elicit(title = {})]\n", lit(title)));
                    }
                    variants.push_str(&format!("    O{k},\n"));
                }
                enums.push_str(&format!(
                    "#[derive(Debug, ::mcp_typed::Elicit)]\nenum {enum_ident} {{\n{variants}}}\n"
                ));
                match (ty, default) {
                    (_, None) => {}
                    ("string", Some(Value::String(s))) => {
                        field.elicit.push(format!("default = {}", lit(s)));
                    }
                    ("array", Some(Value::Array(list))) => {
                        let list = list
                            .iter()
                            .map(|v| v.as_str().map(lit))
                            .collect::<Option<Vec<_>>>()
                            .ok_or_else(|| format!("property `{name}`: a `default` to check"))?;
                        field
                            .elicit
                            .push(format!("default = [{}]", list.join(", ")));
                    }
                    (_, Some(d)) => return Err(format!("property `{name}`: `default` = {d}")),
                }
                field.ty = if ty == "array" {
                    format!("Vec<{enum_ident}>")
                } else {
                    enum_ident.to_owned()
                };
            }
            "string" => {
                match default {
                    None => {}
                    Some(Value::String(s)) => field.elicit.push(format!("default = {}", lit(s))),
                    Some(d) => return Err(format!("property `{name}`: `default` = {d}")),
                }
                field.ty = "String".into();
            }
            "boolean" => {
                match default {
                    None => {}
                    Some(Value::Bool(b)) => field.elicit.push(format!("default = {b}")),
                    Some(d) => return Err(format!("property `{name}`: `default` = {d}")),
                }
                field.ty = "bool".into();
            }
            "number" => {
                for (attr, bound) in [("minimum", minimum), ("maximum", maximum)] {
                    if let Some(bound) = bound {
                        field.elicit.push(format!("{attr} = {}", num_lit(bound)));
                    }
                }
                match default {
                    None => {}
                    Some(Value::Number(d)) => {
                        field.elicit.push(format!("default = {}", num_lit(d)));
                    }
                    Some(d) => return Err(format!("property `{name}`: `default` = {d}")),
                }
                field.ty = "f64".into();
            }
            "integer" => {
                let int = |bound: Option<&Number>| match bound {
                    None => Ok(None),
                    Some(n) => int_of(n).map(Some).ok_or_else(|| {
                        format!(
                            "property `{name}`: the integer bound {n} is written as a float; \
                             the derive writes integer bounds as integers"
                        )
                    }),
                };
                let (lo, hi) = (int(minimum)?, int(maximum)?);
                let exact = INTS
                    .iter()
                    .find(|(_, min, max)| lo == Some(*min) && hi == Some(*max));
                let fits = |(_, min, max): &&(&str, i128, i128)| {
                    lo.is_none_or(|lo| lo >= *min) && hi.is_none_or(|hi| hi <= *max)
                };
                let (rust, min, max) = match exact {
                    Some(int) => *int,
                    None => *INTS[6..].iter().find(fits).ok_or_else(|| {
                        format!("property `{name}`: the bounds {lo:?}..{hi:?} fit no integer type")
                    })?,
                };
                if exact.is_none() {
                    for (attr, bound) in [("minimum", lo), ("maximum", hi)] {
                        if let Some(bound) = bound {
                            field.elicit.push(format!("{attr} = {bound}"));
                        }
                    }
                }
                if lo.is_none() || hi.is_none() {
                    let bound = |b: Option<i128>, v: i128| match b {
                        None => format!("Some({v})"),
                        Some(_) => "None".into(),
                    };
                    widened.push(format!(
                        "Widened {{ property: {}, ty: {}, minimum: {}, maximum: {} }}",
                        lit(name),
                        lit(rust),
                        bound(lo, min),
                        bound(hi, max)
                    ));
                }
                match default {
                    None => {}
                    Some(Value::Number(d)) if int_of(d).is_some() => {
                        field.elicit.push(format!("default = {}", num_lit(d)));
                    }
                    Some(d) => return Err(format!("property `{name}`: `default` = {d}")),
                }
                field.ty = rust.into();
            }
            _ => return Err(format!("property `{name}`: type `{ty}`")),
        }
        Ok(field)
    }
}

/// `["a", "b"]`.
fn untitled(value: &Value) -> Option<Vec<(String, Option<String>)>> {
    value
        .as_array()?
        .iter()
        .map(|v| Some((v.as_str()?.to_owned(), None)))
        .collect()
}

/// `[{"const": "a", "title": "A"}, …]`.
fn titled(value: &Value) -> Option<Vec<(String, Option<String>)>> {
    value
        .as_array()?
        .iter()
        .map(|option| {
            let option = option.as_object()?;
            if option.keys().any(|k| k != "const" && k != "title") {
                return None;
            }
            Some((
                option.get("const")?.as_str()?.to_owned(),
                Some(option.get("title")?.as_str()?.to_owned()),
            ))
        })
        .collect()
}

/// The `items` of a multi select: `{"type": "string", "enum": [...]}` or `{"anyOf": [...]}`
/// (with or without `"type": "string"`).
fn items(value: &Value) -> Option<Vec<(String, Option<String>)>> {
    let items = value.as_object()?;
    let mut options = None;
    for (key, value) in items {
        match key.as_str() {
            "type" if value == "string" => {}
            "enum" => options = Some(untitled(value)?),
            "anyOf" => options = Some(titled(value)?),
            _ => return None,
        }
    }
    options
}
