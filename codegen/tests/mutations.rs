//! Mutation tests: the generator must turn schemas it has never seen into compiling Rust, or
//! refuse them with a precise error, and never panic.
//!
//! Each pinned schema (draft-07 and 2020-12 dialects) is edited the way a spec change could edit
//! it (a definition dropped or renamed, a union member or request method added, a member made
//! optional or nullable, `integer` turned into `number`, …). Every mutation states what it
//! expects: generated code (with what must and must not appear in it) or a refusal at a given
//! JSON pointer. Generation runs inside `catch_unwind`, so a panic is a failure of its own.
//! Everything generated is then compiled once, as the modules of a throwaway workspace (a crate
//! per core, checked side by side) whose build directory persists under `CARGO_TARGET_TMPDIR`
//! (`target/tmp/mcp-mutations`), so that warm reruns are incremental. Output that fails a check
//! is kept in `target/tmp/mcp-mutations-failed`.
//!
//! Each mutation on each of its revisions is a test case of its own (libtest-mimic), named
//! `<mutation>/<revision>`; it fails with its own generator error, failed check or compile
//! errors (those in its module). Cases are filtered as usual:
//! `cargo test -p mcp-codegen --test mutations -- add_enum_value` runs the cases whose names
//! contain `add_enum_value`, `-- --exact odd_names/2025-11-25` one case. The selected cases are
//! still generated in one go, on all cores, and compiled by one `cargo check`.

use std::collections::{BTreeMap, BTreeSet};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use libtest_mimic::{Arguments, Failed, Trial};
use mcp_codegen::{Config, GenerateError};
use serde_json::{json, Map, Value};

mod support;
use support::{escape, mirror};
/// Every revision the mutations run on: 2025-06-18 is the newest in the draft-07 dialect,
/// 2025-11-25 the first in 2020-12, 2026-07-28 the newest (the message layer differs in each).
const ALL: &[&str] = &["2025-06-18", "2025-11-25", "2026-07-28"];
/// One revision of each dialect, for edits of types every revision has alike.
const DIALECTS: &[&str] = &["2025-06-18", "2026-07-28"];
/// Additions that do not depend on the revision run on one, in turn (each compiled module costs
/// about two seconds of `cargo check`).
const DRAFT_07: &[&str] = &["2025-06-18"];
const V2025_11_25: &[&str] = &["2025-11-25"];
const V2026_07_28: &[&str] = &["2026-07-28"];

// ---------------------------------------------------------------------------------------------
// Editing schemas.
// ---------------------------------------------------------------------------------------------

/// A pinned schema being mutated. The helpers panic when the schema does not have what a
/// mutation edits: that is a mistake in the mutation, not a generator failure.
struct Schema {
    revision: &'static str,
    root: Value,
    /// `definitions` (draft-07) or `$defs` (2020-12).
    key: &'static str,
}

impl Schema {
    fn load(revision: &'static str) -> Self {
        let path = mirror().join(revision).join("schema.json");
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (the schema mirror is needed)", path.display()));
        let root: Value = serde_json::from_str(&text).expect("pinned schema is JSON");
        let key = if root.get("$defs").is_some() {
            "$defs"
        } else {
            "definitions"
        };
        Schema {
            revision,
            root,
            key,
        }
    }

    fn defs(&mut self) -> &mut Map<String, Value> {
        self.root[self.key].as_object_mut().expect("definitions")
    }

    fn has(&self, name: &str) -> bool {
        self.root[self.key].get(name).is_some()
    }

    fn def(&mut self, name: &str) -> &mut Value {
        let revision = self.revision;
        self.defs()
            .get_mut(name)
            .unwrap_or_else(|| panic!("mutation bug: {revision} has no definition `{name}`"))
    }

    /// `{"$ref": "#/<definitions>/<name>"}`.
    fn reference(&self, name: &str) -> Value {
        json!({ "$ref": format!("#/{}/{}", self.key, escape(name)) })
    }

    /// The JSON pointer of `path` (`Tool/properties/name`) under the definitions.
    fn at(&self, path: &str) -> String {
        format!("/{}/{path}", self.key)
    }

    fn add(&mut self, name: &str, schema: Value) {
        let old = self.defs().insert(name.to_owned(), schema);
        assert!(old.is_none(), "mutation bug: `{name}` already exists");
    }

    fn properties(&mut self, def: &str) -> &mut Map<String, Value> {
        self.def(def)["properties"]
            .as_object_mut()
            .unwrap_or_else(|| panic!("mutation bug: `{def}` has no properties"))
    }

    fn set_property(&mut self, def: &str, member: &str, schema: Value) {
        self.properties(def).insert(member.to_owned(), schema);
    }

    fn property(&mut self, def: &str, member: &str) -> &mut Value {
        self.properties(def)
            .get_mut(member)
            .unwrap_or_else(|| panic!("mutation bug: `{def}` has no member `{member}`"))
    }

    fn require(&mut self, def: &str, member: &str) {
        let required = self.def(def).as_object_mut().expect("object schema");
        let list = required.entry("required").or_insert_with(|| json!([]));
        list.as_array_mut()
            .expect("required list")
            .push(member.into());
    }

    fn unrequire(&mut self, def: &str, member: &str) {
        let list = self.def(def)["required"]
            .as_array_mut()
            .expect("mutation bug: no `required`");
        let before = list.len();
        list.retain(|m| m != member);
        assert_eq!(
            list.len() + 1,
            before,
            "mutation bug: `{member}` not required"
        );
    }

    /// The `anyOf` / `oneOf` list of a union definition.
    fn members(&mut self, def: &str) -> &mut Vec<Value> {
        let schema = self.def(def);
        let key = if schema.get("anyOf").is_some() {
            "anyOf"
        } else {
            "oneOf"
        };
        schema[key]
            .as_array_mut()
            .unwrap_or_else(|| panic!("mutation bug: `{def}` is not a union"))
    }

    /// Pointers of every `$ref` to the definition `name`.
    fn refs_to(&self, name: &str) -> Vec<String> {
        let target = format!("#/{}/{}", self.key, escape(name));
        let mut out = Vec::new();
        walk(&self.root, String::new(), &mut |pointer, value| {
            if value.get("$ref").and_then(Value::as_str) == Some(&target) {
                out.push(format!("{pointer}/$ref"));
            }
        });
        out
    }

    /// Points every `$ref` to `from` at `to` instead.
    fn retarget_refs(&mut self, from: &str, to: &str) {
        let old = format!("#/{}/{}", self.key, escape(from));
        let new = Value::from(format!("#/{}/{}", self.key, escape(to)));
        walk_mut(&mut self.root, &mut |value| {
            if let Some(r) = value.get_mut("$ref") {
                if r == old.as_str() {
                    *r = new.clone();
                }
            }
        });
    }

    /// Removes a definition and every union member and object member that refers to it.
    fn purge(&mut self, name: &str) {
        for pointer in self.refs_to(name).iter().rev() {
            let holder = pointer.strip_suffix("/$ref").expect("ref pointer");
            let (parent, last) = holder.rsplit_once('/').expect("nested");
            let (grand, kind) = parent.rsplit_once('/').expect("nested");
            match kind {
                "properties" => {
                    self.root
                        .pointer_mut(parent)
                        .and_then(Value::as_object_mut)
                        .expect("properties")
                        .remove(last);
                    if let Some(Value::Array(required)) = self
                        .root
                        .pointer_mut(grand)
                        .and_then(|g| g.get_mut("required"))
                    {
                        required.retain(|m| m != last);
                    }
                }
                "anyOf" | "oneOf" => {
                    let index: usize = last.parse().expect("index");
                    self.root
                        .pointer_mut(parent)
                        .and_then(Value::as_array_mut)
                        .expect("union")
                        .remove(index);
                }
                _ => panic!("mutation bug: cannot purge the reference at {pointer}"),
            }
        }
        self.defs().remove(name);
        assert!(self.refs_to(name).is_empty());
    }
}

fn walk(value: &Value, pointer: String, visit: &mut dyn FnMut(&str, &Value)) {
    visit(&pointer, value);
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                walk(v, format!("{pointer}/{}", escape(k)), visit);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                walk(v, format!("{pointer}/{i}"), visit);
            }
        }
        _ => {}
    }
}

fn walk_mut(value: &mut Value, visit: &mut dyn FnMut(&mut Value)) {
    visit(value);
    match value {
        Value::Object(map) => map.values_mut().for_each(|v| walk_mut(v, visit)),
        Value::Array(items) => items.iter_mut().for_each(|v| walk_mut(v, visit)),
        _ => {}
    }
}

// ---------------------------------------------------------------------------------------------
// Expectations.
// ---------------------------------------------------------------------------------------------

/// What a mutation expects of the generator.
enum Expect {
    /// Generated code, checked by `checks` (then compiled with the rest).
    Generates(Vec<Check>),
    /// Refused with a schema error at one of `pointers` whose message mentions `message`.
    Refused {
        pointers: Vec<String>,
        message: String,
    },
}

/// A fact about generated code.
enum Check {
    /// The source contains this text.
    Has(String),
    /// The source does not contain this text.
    Lacks(String),
    /// The item that starts with the line `head` (`pub enum ContentBlock {`) contains this text.
    ItemHas(&'static str, String),
    /// That item does not contain this text.
    ItemLacks(&'static str, String),
}

fn generates() -> Expect {
    Expect::Generates(Vec::new())
}

fn refused(pointer: String, message: impl Into<String>) -> Expect {
    Expect::Refused {
        pointers: vec![pointer],
        message: message.into(),
    }
}

impl Expect {
    fn check(mut self, check: Check) -> Self {
        match &mut self {
            Expect::Generates(checks) => checks.push(check),
            Expect::Refused { .. } => unreachable!("checks are for generated code"),
        }
        self
    }

    fn has(self, text: impl Into<String>) -> Self {
        self.check(Check::Has(text.into()))
    }

    fn lacks(self, text: impl Into<String>) -> Self {
        self.check(Check::Lacks(text.into()))
    }

    fn item_has(self, head: &'static str, text: impl Into<String>) -> Self {
        self.check(Check::ItemHas(head, text.into()))
    }

    fn item_lacks(self, head: &'static str, text: impl Into<String>) -> Self {
        self.check(Check::ItemLacks(head, text.into()))
    }
}

/// The text of the top-level item whose first line is `head`, up to its closing brace.
fn item<'a>(source: &'a str, head: &str) -> Option<&'a str> {
    let start = source.find(&format!("\n{head}\n"))? + 1;
    let end = source[start..].find("\n}\n")? + start + 3;
    Some(&source[start..end])
}

impl Check {
    fn failure(&self, source: &str) -> Option<String> {
        match self {
            Check::Has(text) => (!source.contains(text.as_str()))
                .then(|| format!("the output does not contain `{text}`")),
            Check::Lacks(text) => source
                .contains(text.as_str())
                .then(|| format!("the output contains `{text}`")),
            Check::ItemHas(head, text) => match item(source, head) {
                None => Some(format!("the output has no item `{head}`")),
                Some(body) if !body.contains(text.as_str()) => {
                    Some(format!("`{head}` does not contain `{text}`:\n{body}"))
                }
                Some(_) => None,
            },
            Check::ItemLacks(head, text) => match item(source, head) {
                None => Some(format!("the output has no item `{head}`")),
                Some(body) if body.contains(text.as_str()) => {
                    Some(format!("`{head}` contains `{text}`:\n{body}"))
                }
                Some(_) => None,
            },
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The mutations.
// ---------------------------------------------------------------------------------------------

struct Mutation {
    name: &'static str,
    revisions: &'static [&'static str],
    apply: fn(&mut Schema) -> Expect,
}

/// Nested objects `depth` deep under one member; returns the schema and the Rust name of the
/// innermost object, given the name of the outermost.
fn nested(depth: usize, outer: &str) -> (Value, String) {
    let mut schema = json!({"type": "object", "properties": {"leaf": {"type": "string"}}});
    let mut names = vec![outer.to_owned()];
    for level in 1..depth {
        let last = names.last().expect("name");
        names.push(format!("{last}Level{level}"));
    }
    for level in (1..depth).rev() {
        let member = format!("level{level}");
        let mut properties = Map::new();
        properties.insert(member.clone(), schema);
        properties.insert("note".into(), json!({"type": "string"}));
        schema = json!({"type": "object", "properties": properties, "required": [member]});
    }
    (schema, names.pop().expect("name"))
}

/// Simple object definitions named `names`, each referenced by an optional member of `Tool`.
fn add_named_objects(s: &mut Schema, names: &[&str]) {
    for (i, name) in names.iter().enumerate() {
        s.add(
            name,
            json!({
                "description": format!("A definition named `{name}`."),
                "type": "object",
                "properties": {"value": {"type": "string"}, "rank": {"type": "integer"}},
                "required": if i % 2 == 0 { json!(["value"]) } else { json!([]) }
            }),
        );
        let reference = s.reference(name);
        let member = format!("with{name}");
        let schema = match i % 3 {
            0 => reference,
            1 => json!({"type": "array", "items": reference}),
            _ => json!({"type": "object", "additionalProperties": reference}),
        };
        s.set_property("Tool", &member, schema);
    }
}

fn rename_property(s: &mut Schema, def: &str, from: &str, to: &str) {
    let schema = s
        .properties(def)
        .remove(from)
        .expect("mutation bug: no such member");
    s.set_property(def, to, schema);
    if let Some(Value::Array(required)) = s.def(def).get_mut("required") {
        for m in required.iter_mut() {
            if m == from {
                *m = to.into();
            }
        }
    }
}

fn mutations() -> Vec<Mutation> {
    Vec::from([
        // --- Definitions appear, disappear and change names. ---
        Mutation {
            name: "drop_definition",
            revisions: DIALECTS,
            apply: |s| {
                // A definition and every member that used it go away.
                s.purge("ToolAnnotations");
                generates()
                    .lacks("ToolAnnotations")
                    .item_has("pub struct Tool {", "pub input_schema: ToolInputSchema,")
            },
        },
        Mutation {
            name: "drop_referenced_definition",
            revisions: ALL,
            apply: |s| {
                // The definition goes but its users still refer to it.
                s.defs().remove("Annotations");
                let pointers = s.refs_to("Annotations");
                assert!(pointers.len() > 1);
                Expect::Refused {
                    pointers,
                    message: format!("dangling reference `#/{}/Annotations`", s.key),
                }
            },
        },
        Mutation {
            name: "rename_definition",
            revisions: DIALECTS,
            apply: |s| {
                let schema = s.defs().remove("Annotations").expect("Annotations");
                s.add("ContentAnnotations", schema);
                s.retarget_refs("Annotations", "ContentAnnotations");
                generates()
                    .has("pub struct ContentAnnotations {")
                    .lacks("pub struct Annotations {")
                    .item_has(
                        "pub struct TextContent {",
                        "pub annotations: Option<ContentAnnotations>,",
                    )
            },
        },
        Mutation {
            name: "rename_error_response",
            revisions: ALL,
            apply: |s| {
                // The message layer needs the JSON-RPC error response under one of its names.
                let old = if s.has("JSONRPCError") {
                    "JSONRPCError"
                } else {
                    "JSONRPCErrorResponse"
                };
                let schema = s.defs().remove(old).expect("error response");
                s.add("JSONRPCFailure", schema);
                s.retarget_refs(old, "JSONRPCFailure");
                refused(String::new(), "no JSONRPCError(Response)")
            },
        },
        Mutation {
            name: "empty_object_definitions",
            revisions: V2025_11_25,
            apply: |s| {
                s.add("Blank", json!({"type": "object"}));
                s.add(
                    "BlankWithProperties",
                    json!({"type": "object", "properties": {}}),
                );
                s.add("Anything", json!({}));
                s.add("AnythingTrue", json!(true));
                for name in ["Blank", "BlankWithProperties", "Anything", "AnythingTrue"] {
                    let reference = s.reference(name);
                    s.set_property("Tool", &format!("some{name}"), reference);
                }
                generates()
                    // A free-form object is kept as its JSON text.
                    .has("pub type Blank = __rt::RawObject;")
                    .has("pub type Anything = __rt::serde_json::Value;")
                    .item_has("pub struct Tool {", "pub some_blank: Option<Blank>,")
            },
        },
        Mutation {
            name: "closed_empty_object",
            revisions: ALL,
            apply: |s| {
                s.add(
                    "Closed",
                    json!({"type": "object", "additionalProperties": false}),
                );
                // zod's `z.object({}).strict()`: a struct without fields, refusing any member.
                generates().has("pub struct Closed {}")
            },
        },
        Mutation {
            name: "prelude_type_names",
            revisions: DIALECTS,
            apply: |s| {
                // Definitions that shadow what the generated code names unqualified.
                let names = [
                    "Option", "Some", "None", "Vec", "String", "Box", "Ok", "Err", "Default",
                    "Map", "Value",
                ];
                add_named_objects(s, &names);
                generates()
                    .has("pub struct Option {")
                    .has("pub struct String {")
                    .item_has(
                        "pub struct Tool {",
                        "pub with_some: ::core::option::Option<::std::vec::Vec<Some>>,",
                    )
            },
        },
        Mutation {
            name: "prelude_trait_names",
            revisions: V2025_11_25,
            apply: |s| {
                let names = [
                    "Into",
                    "From",
                    "Clone",
                    "ToOwned",
                    "ToString",
                    "Iterator",
                    "IntoIterator",
                    "Send",
                    "Sync",
                    "Sized",
                    "Copy",
                    "Drop",
                    "Fn",
                    "PartialEq",
                    "Eq",
                    "Ord",
                    "PartialOrd",
                    "AsRef",
                    "Extend",
                    "Debug",
                    "Display",
                    "Hash",
                    "Serialize",
                    "Deserialize",
                    "Formatter",
                ];
                add_named_objects(s, &names);
                generates()
                    .has("pub struct Clone {")
                    .has("pub struct Into {")
            },
        },
        Mutation {
            name: "self_type_name",
            revisions: DRAFT_07,
            apply: |s| {
                // `Self` cannot be an identifier, not even a raw one.
                add_named_objects(s, &["Self", "Crate", "Super"]);
                s.def("LoggingLevel")["enum"]
                    .as_array_mut()
                    .expect("enum")
                    .push("self".into());
                generates()
                    .has("pub struct Self_ {")
                    .item_has("pub struct Tool {", "pub with_self: Option<Self_>,")
                    .item_has("pub enum LoggingLevel {", "    Self_,\n")
            },
        },
        Mutation {
            name: "odd_names",
            revisions: V2026_07_28,
            apply: |s| {
                // Names that need pointer escaping and members that are not Rust identifiers.
                s.add(
                    "vendor/Thing~x",
                    json!({
                        "type": "object",
                        "properties": {
                            "x-vendor-id": {"type": "string"},
                            "1st": {"type": "integer"},
                            "@context": {"type": "string"},
                            "ünïcödé": {"type": "boolean"},
                            "mode": {"enum": ["", "1", "a b", "ÄÖ", "snake_case"]}
                        },
                        "required": ["x-vendor-id"]
                    }),
                );
                let reference = s.reference("vendor/Thing~x");
                s.set_property("Tool", "thing", reference);
                generates()
                    .has("pub struct VendorThingX {")
                    .item_has("pub struct VendorThingX {", "pub x_vendor_id: String,")
                    .item_has("pub struct VendorThingX {", "pub _1st: Option<i64>,")
                    .item_has("pub struct Tool {", "pub thing: Option<VendorThingX>,")
            },
        },
        // --- Unions gain and lose members. ---
        Mutation {
            name: "add_union_member",
            revisions: ALL,
            apply: |s| {
                let member = s.reference("ListRootsResult");
                s.members("ServerResult").push(member);
                generates().item_has("pub enum ServerResult {", "ListRoots(")
            },
        },
        Mutation {
            name: "add_const_discriminated_variant",
            revisions: DIALECTS,
            apply: |s| {
                let annotations = s.reference("Annotations");
                s.add(
                    "VideoContent",
                    json!({
                        "description": "A video provided to or from an LLM.",
                        "type": "object",
                        "properties": {
                            "type": {"type": "string", "const": "video"},
                            "data": {"type": "string", "format": "byte"},
                            "mimeType": {"type": "string"},
                            "durationMs": {"type": "integer", "minimum": 0},
                            "annotations": annotations
                        },
                        "required": ["type", "data", "mimeType"]
                    }),
                );
                let member = s.reference("VideoContent");
                s.members("ContentBlock").push(member);
                generates()
                    .has("pub struct VideoContent {")
                    .item_has("pub enum ContentBlock {", "VideoContent(")
                    .has("Some(\"video\")")
                    .has(".map(ContentBlock::VideoContent)")
            },
        },
        Mutation {
            name: "structural_union_of_too_many_names",
            revisions: DIALECTS,
            apply: |s| {
                // Structural matching keeps the member names of a union's objects as bit sets.
                let wide = |prefix: &str| {
                    let properties: serde_json::Map<String, Value> = (0..40)
                        .map(|i| (format!("{prefix}{i}"), json!({"type": "string"})))
                        .collect();
                    json!({"type": "object", "properties": properties})
                };
                s.add("Wide", json!({"anyOf": [wide("a"), wide("b")]}));
                let reference = s.reference("Wide");
                s.set_property("Tool", "wide", reference);
                refused(s.at("Wide"), "handles at most 64")
            },
        },
        Mutation {
            name: "one_of_new_shape",
            revisions: DIALECTS,
            apply: |s| {
                // Object members without a discriminating constant, and a string.
                s.add(
                    "Dimensions",
                    json!({
                        "oneOf": [
                            {
                                "type": "object",
                                "properties": {"radius": {"type": "number"}},
                                "required": ["radius"]
                            },
                            {
                                "type": "object",
                                "properties": {
                                    "width": {"type": "number"},
                                    "height": {"type": "number"}
                                },
                                "required": ["width", "height"]
                            },
                            {"type": "string"}
                        ]
                    }),
                );
                let reference = s.reference("Dimensions");
                s.set_property("Tool", "dimensions", reference);
                generates()
                    .item_has("pub enum Dimensions {", "Variant0(DimensionsVariant0),")
                    .item_has("pub enum Dimensions {", "String(String),")
                    .has("pub struct DimensionsVariant1 {")
            },
        },
        Mutation {
            name: "union_of_string_and_object",
            revisions: DIALECTS,
            apply: |s| {
                *s.property("Tool", "description") = json!({
                    "anyOf": [
                        {"type": "string"},
                        {
                            "type": "object",
                            "properties": {
                                "text": {"type": "string"},
                                "format": {"enum": ["plain", "markdown"]}
                            },
                            "required": ["text"]
                        }
                    ]
                });
                generates()
                    .item_has("pub enum ToolDescription {", "String(String),")
                    .has("pub enum ToolDescriptionVariant1Format {")
                    .item_has(
                        "pub struct Tool {",
                        "pub description: Option<ToolDescription>,",
                    )
            },
        },
        Mutation {
            name: "nullable_via_any_of",
            revisions: ALL,
            apply: |s| {
                // `T | null` as TypeScript-to-JSON-Schema tools write it: a nullable `T`.
                let reference = s.reference("Annotations");
                *s.property("TextContent", "annotations") =
                    json!({"anyOf": [reference, {"type": "null"}]});
                generates().item_has(
                    "pub struct TextContent {",
                    "pub annotations: Option<Option<Annotations>>,",
                )
            },
        },
        // --- The message layer. ---
        Mutation {
            name: "add_request_method",
            revisions: ALL,
            apply: |s| {
                let mut echo = s.def("CallToolRequest").clone();
                echo["description"] = "Echoes a message back.".into();
                echo["properties"]["method"]["const"] = "tools/echo".into();
                echo["properties"]["params"] = json!({
                    "type": "object",
                    "properties": {"message": {"type": "string"}},
                    "required": ["message"]
                });
                s.add("EchoRequest", echo);
                s.add(
                    "EchoResult",
                    json!({
                        "description": "The message, echoed.",
                        "type": "object",
                        "properties": {"echoed": {"type": "string"}},
                        "required": ["echoed"]
                    }),
                );
                let request = s.reference("EchoRequest");
                s.members("ClientRequest").push(request);
                let result = s.reference("EchoResult");
                s.members("ServerResult").push(result);
                generates()
                    .item_has("pub enum ClientRequest {", "Echo(EchoRequestParams),")
                    .item_has("pub enum ServerResult {", "Echo(EchoResult),")
                    .has(
                        "impl __rt::jsonrpc::Request for EchoRequest {\n    \
                         const METHOD: &'static str = \"tools/echo\";\n    \
                         type Params = EchoRequestParams;\n    \
                         type Result = EchoResult;\n}",
                    )
                    .has("pub const TOOLS_ECHO: &str = \"tools/echo\";")
            },
        },
        Mutation {
            name: "duplicate_method",
            revisions: ALL,
            apply: |s| {
                let again = s.def("CallToolRequest").clone();
                s.add("CallToolAgainRequest", again);
                let member = s.reference("CallToolAgainRequest");
                s.members("ClientRequest").push(member);
                refused(s.at("ClientRequest"), "method `tools/call` appears twice")
            },
        },
        Mutation {
            name: "remove_notification",
            revisions: ALL,
            apply: |s| {
                s.purge("ToolListChangedNotification");
                generates()
                    .lacks("pub struct ToolListChangedNotification")
                    .lacks("pub const NOTIFICATIONS_TOOLS_LIST_CHANGED")
                    .lacks("ToolListChanged(")
            },
        },
        Mutation {
            name: "drop_client_notifications",
            revisions: ALL,
            apply: |s| {
                // A direction that sends no notifications at all.
                s.defs().remove("ClientNotification");
                generates()
                    .lacks("pub enum ClientNotification")
                    .has("type Notification = __rt::codec::NoCalls;")
            },
        },
        Mutation {
            name: "direction_union_is_a_ref",
            revisions: ALL,
            apply: |s| {
                let only = s.reference("CancelledNotification");
                *s.def("ClientNotification") = only;
                generates()
                    .item_has("pub enum ClientNotification {", "Cancelled(")
                    .lacks("Initialized(")
            },
        },
        Mutation {
            name: "request_without_params",
            revisions: ALL,
            apply: |s| {
                s.properties("ListToolsRequest").remove("params");
                if let Some(Value::Array(required)) = s.def("ListToolsRequest").get_mut("required")
                {
                    required.retain(|m| m != "params");
                }
                generates()
                    .item_has("pub enum ClientRequest {", "    ListTools,\n")
                    .has("type Params = ();")
            },
        },
        Mutation {
            name: "required_params_optional",
            revisions: ALL,
            apply: |s| {
                s.unrequire("CallToolRequest", "params");
                generates().item_has("pub enum ClientRequest {", "CallTool(Option<")
            },
        },
        Mutation {
            name: "change_method_const",
            revisions: ALL,
            apply: |s| {
                *s.property("ListToolsRequest", "method") =
                    json!({"type": "string", "const": "tools/enumerate"});
                generates()
                    .has("pub const TOOLS_ENUMERATE: &str = \"tools/enumerate\";")
                    .lacks("\"tools/list\"")
            },
        },
        Mutation {
            name: "change_discriminator_const",
            revisions: DIALECTS,
            apply: |s| {
                *s.property("TextContent", "type") =
                    json!({"type": "string", "const": "plain_text"});
                generates()
                    .has("Some(\"plain_text\")")
                    .lacks("Some(\"text\")")
            },
        },
        Mutation {
            name: "error_code_constants",
            revisions: DRAFT_07,
            apply: |s| {
                for (name, code) in [
                    ("TeapotError", json!(-32042)),
                    ("ExtremeError", json!(i64::MIN)),
                ] {
                    s.add(
                        name,
                        json!({
                            "type": "object",
                            "properties": {
                                "code": {"type": "integer", "const": code},
                                "message": {"type": "string"}
                            },
                            "required": ["code", "message"]
                        }),
                    );
                }
                generates()
                    .has("pub const TEAPOT_ERROR: i64 = -32042;")
                    .has("pub const EXTREME_ERROR: i64 = -9223372036854775808;")
            },
        },
        Mutation {
            name: "huge_integer_const",
            revisions: ALL,
            apply: |s| {
                s.add(
                    "HugeError",
                    json!({
                        "type": "object",
                        "properties": {"code": {"type": "integer", "const": u64::MAX}},
                        "required": ["code"]
                    }),
                );
                refused(s.at("HugeError/properties/code/const"), "integer")
            },
        },
        Mutation {
            name: "definition_named_like_message_layer",
            revisions: ALL,
            apply: |s| {
                s.add("ClientMessage", json!({"type": "string"}));
                refused(String::new(), "the schema defines `ClientMessage`")
            },
        },
        // --- Members change. ---
        Mutation {
            name: "delete_required",
            revisions: DIALECTS,
            apply: |s| {
                s.def("Tool")
                    .as_object_mut()
                    .expect("object")
                    .remove("required");
                generates()
                    .item_has("pub struct Tool {", "pub name: Option<String>,")
                    .item_has(
                        "pub struct Tool {",
                        "pub input_schema: Option<ToolInputSchema>,",
                    )
            },
        },
        Mutation {
            name: "delete_required_everywhere",
            revisions: ALL,
            apply: |s| {
                // Every member that is not a constant becomes optional, in every object.
                walk_mut(&mut s.root, &mut |v| {
                    let Some(object) = v.as_object_mut() else {
                        return;
                    };
                    let Some(Value::Array(required)) = object.get("required") else {
                        return;
                    };
                    let properties = object.get("properties").cloned().unwrap_or_default();
                    let constants: Vec<Value> = required
                        .iter()
                        .filter(|m| {
                            m.as_str()
                                .and_then(|m| properties.get(m))
                                .is_some_and(|p| p.get("const").is_some())
                        })
                        .cloned()
                        .collect();
                    object.insert("required".into(), constants.into());
                });
                generates()
                    .item_has("pub struct Tool {", "pub name: Option<String>,")
                    .item_has("pub enum ClientRequest {", "CallTool(Option<")
            },
        },
        Mutation {
            name: "optional_method_const",
            revisions: ALL,
            apply: |s| {
                // A request whose `method` may be absent cannot be dispatched.
                s.unrequire("ListToolsRequest", "method");
                refused(
                    s.at("ListToolsRequest"),
                    "`ListToolsRequest` has no constant `method`",
                )
            },
        },
        Mutation {
            name: "make_member_nullable",
            revisions: DIALECTS,
            apply: |s| {
                s.property("Tool", "description")["type"] = json!(["string", "null"]);
                s.property("Implementation", "version")["type"] = json!(["string", "null"]);
                generates()
                    .item_has(
                        "pub struct Tool {",
                        "pub description: Option<Option<String>>,",
                    )
                    .item_has(
                        "pub struct Implementation {",
                        "pub version: Option<String>,",
                    )
            },
        },
        Mutation {
            name: "integer_to_number",
            revisions: ALL,
            apply: |s| {
                walk_mut(&mut s.root, &mut |v| match v.get_mut("type") {
                    Some(Value::String(t)) if t == "integer" => *t = "number".into(),
                    Some(Value::Array(types)) => {
                        for t in types.iter_mut().filter(|t| *t == "integer") {
                            *t = "number".into();
                        }
                    }
                    _ => {}
                });
                generates().item_has("pub enum RequestId {", "Number(__rt::serde_json::Number),")
            },
        },
        Mutation {
            name: "add_all_of",
            revisions: DIALECTS,
            apply: |s| {
                s.add(
                    "Timestamps",
                    json!({
                        "type": "object",
                        "properties": {
                            "createdAt": {"type": "string", "format": "date-time"},
                            "updatedAt": {"type": "string", "format": "date-time"}
                        }
                    }),
                );
                let mut tool = s.defs().remove("Tool").expect("Tool");
                let description = tool
                    .as_object_mut()
                    .and_then(|t| t.remove("description"))
                    .expect("description");
                let base = s.reference("Timestamps");
                s.add(
                    "Tool",
                    json!({"description": description, "allOf": [base, tool]}),
                );
                generates()
                    .item_has("pub struct Tool {", "pub created_at: Option<String>,")
                    .item_has("pub struct Tool {", "pub input_schema: ToolInputSchema,")
            },
        },
        Mutation {
            name: "all_of_conflict",
            revisions: ALL,
            apply: |s| {
                let tool = s.defs().remove("Tool").expect("Tool");
                s.add(
                    "Tool",
                    json!({"allOf": [
                        tool,
                        {"type": "object", "properties": {"name": {"type": "integer"}}}
                    ]}),
                );
                refused(
                    s.at("Tool/allOf/1/properties/name"),
                    "disagree on member `name`",
                )
            },
        },
        Mutation {
            name: "nest_inline_deeper",
            revisions: DIALECTS,
            apply: |s| {
                let old = s
                    .properties("Tool")
                    .remove("inputSchema")
                    .expect("inputSchema");
                s.set_property(
                    "Tool",
                    "inputSchema",
                    json!({
                        "type": "object",
                        "properties": {"schema": old},
                        "required": ["schema"]
                    }),
                );
                generates()
                    .has("pub struct ToolInputSchemaSchema {")
                    .item_has(
                        "pub struct ToolInputSchema {",
                        "pub schema: ToolInputSchemaSchema,",
                    )
            },
        },
        Mutation {
            name: "deeply_nested_inline_objects",
            revisions: V2025_11_25,
            apply: |s| {
                let (schema, innermost) = nested(24, "ImplementationVendor");
                s.set_property("Implementation", "vendor", schema);
                generates().has(format!("pub struct {innermost} {{"))
            },
        },
        Mutation {
            name: "add_enum_value",
            revisions: DIALECTS,
            apply: |s| {
                s.def("LoggingLevel")["enum"]
                    .as_array_mut()
                    .expect("enum")
                    .push("trace".into());
                generates()
                    .item_has("pub enum LoggingLevel {", "Trace,")
                    .has("\"trace\" => ")
                    .has("Self::Trace => \"trace\",")
            },
        },
        Mutation {
            name: "enum_values_collide",
            revisions: ALL,
            apply: |s| {
                s.def("LoggingLevel")["enum"]
                    .as_array_mut()
                    .expect("enum")
                    .push("Debug".into());
                refused(
                    s.at("LoggingLevel/enum/8"),
                    "collide as Rust variant `Debug`",
                )
            },
        },
        Mutation {
            name: "additional_properties_schema",
            revisions: DIALECTS,
            apply: |s| {
                s.def("Root")["additionalProperties"] = json!({
                    "type": "object",
                    "properties": {"weight": {"type": "number"}},
                    "required": ["weight"]
                });
                let role = s.reference("Role");
                s.set_property(
                    "Tool",
                    "labels",
                    json!({"type": "object", "additionalProperties": role}),
                );
                generates()
                    .has("pub struct RootValue {")
                    .item_has(
                        "pub struct Root {",
                        "pub extra: __rt::IndexMap<String, RootValue>,",
                    )
                    .item_has(
                        "pub struct Tool {",
                        "pub labels: Option<__rt::IndexMap<String, Role>>,",
                    )
            },
        },
        Mutation {
            name: "additional_properties_false",
            revisions: V2026_07_28,
            apply: |s| {
                s.def("Implementation")["additionalProperties"] = false.into();
                generates().item_lacks("pub struct Implementation {", "pub extra")
            },
        },
        Mutation {
            name: "members_named_like_keywords",
            revisions: DRAFT_07,
            apply: |s| {
                rename_property(s, "Root", "name", "match");
                rename_property(s, "Root", "uri", "self");
                s.set_property("Root", "type", json!({"type": "string"}));
                s.set_property("Root", "crate", json!({"type": "boolean"}));
                s.set_property("Root", "async", json!({"type": "integer"}));
                s.set_property("Root", "Super", json!({"type": "number"}));
                s.require("Root", "type");
                generates()
                    .item_has("pub struct Root {", "pub r#match: Option<String>,")
                    .item_has("pub struct Root {", "pub self_: String,")
                    .item_has("pub struct Root {", "pub r#type: String,")
                    .item_has("pub struct Root {", "pub crate_: Option<bool>,")
                    .item_has("pub struct Root {", "pub r#async: Option<i64>,")
            },
        },
        Mutation {
            name: "members_collide_after_snake_casing",
            revisions: ALL,
            apply: |s| {
                s.set_property("Root", "fooBar", json!({"type": "string"}));
                s.set_property("Root", "foo_bar", json!({"type": "string"}));
                refused(
                    s.at("Root/properties/foo_bar"),
                    "both become Rust field `foo_bar`",
                )
            },
        },
        Mutation {
            name: "member_named_extra",
            revisions: ALL,
            apply: |s| {
                s.set_property("Root", "extra", json!({"type": "string"}));
                refused(s.at("Root/properties/extra"), "member `extra` collides")
            },
        },
        Mutation {
            name: "const_members",
            revisions: V2026_07_28,
            apply: |s| {
                s.set_property("Implementation", "schemaVersion", json!({"const": 2}));
                s.set_property(
                    "Implementation",
                    "stable",
                    json!({"type": "boolean", "const": true}),
                );
                s.set_property(
                    "Implementation",
                    "kind",
                    json!({"type": "string", "const": "impl"}),
                );
                s.set_property("Implementation", "flavor", json!({"const": "vanilla"}));
                for member in ["schemaVersion", "stable", "kind"] {
                    s.require("Implementation", member);
                }
                generates()
                    .has("pub const SCHEMA_VERSION: i64 = 2;")
                    .has("pub const STABLE: bool = true;")
                    .has("pub const KIND: &'static str = \"impl\";")
                    .item_has(
                        "pub struct Implementation {",
                        "pub flavor: Option<ImplementationFlavor>,",
                    )
            },
        },
        Mutation {
            name: "recursive_definition",
            revisions: DIALECTS,
            apply: |s| {
                let node = s.reference("TreeNode");
                s.add(
                    "TreeNode",
                    json!({
                        "type": "object",
                        "properties": {
                            "label": {"type": "string"},
                            "parent": node,
                            "children": {"type": "array", "items": node},
                            "next": {"anyOf": [node, {"type": "string"}]}
                        },
                        "required": ["label"]
                    }),
                );
                s.set_property("Tool", "tree", node);
                generates().item_has(
                    "pub struct TreeNode {",
                    "pub parent: Option<Box<TreeNode>>,",
                )
            },
        },
        Mutation {
            name: "type_name_not_an_identifier",
            revisions: ALL,
            apply: |s| {
                // `²` is alphanumeric, so it stays in the Rust name, but no identifier holds it.
                add_named_objects(s, &["Area²"]);
                refused(
                    s.at("Area²"),
                    "type name `Area²` is not a valid Rust identifier",
                )
            },
        },
        Mutation {
            name: "member_name_not_an_identifier",
            revisions: ALL,
            apply: |s| {
                s.set_property("Root", "x²", json!({"type": "string"}));
                refused(
                    s.at("Root/properties/x²"),
                    "field name `x²` is not a valid Rust identifier",
                )
            },
        },
        Mutation {
            name: "const_member_not_an_identifier",
            revisions: ALL,
            apply: |s| {
                s.set_property("Root", "k²", json!({"const": 1}));
                s.require("Root", "k²");
                refused(
                    s.at("Root/properties/k²"),
                    "constant name `K²` is not a valid Rust identifier",
                )
            },
        },
        Mutation {
            name: "enum_value_not_an_identifier",
            revisions: ALL,
            apply: |s| {
                s.def("LoggingLevel")["enum"]
                    .as_array_mut()
                    .expect("enum")
                    .push("²".into());
                refused(s.at("LoggingLevel/enum/8"), "enum variant `V²`")
            },
        },
        Mutation {
            name: "method_not_an_identifier",
            revisions: ALL,
            apply: |s| {
                s.property("ListToolsRequest", "method")["const"] = "tools/list²".into();
                refused(
                    s.at("ListToolsRequest/properties/method/const"),
                    "method constant name `TOOLS_LIST²`",
                )
            },
        },
        Mutation {
            name: "inlined_call_variant_not_an_identifier",
            revisions: V2026_07_28,
            apply: |s| {
                // 2026-07-28's `ClientNotification` is its one member, inlined: the variant is
                // named after the method.
                s.property("ClientNotification", "method")["const"] = "notifications/²".into();
                refused(
                    s.at("ClientNotification/properties/method/const"),
                    "call variant `M²` is not a valid Rust identifier",
                )
            },
        },
        Mutation {
            name: "hazardous_text",
            revisions: V2025_11_25,
            apply: |s| {
                // Prose that rustdoc or the Rust lexer could take for something else, and
                // text-direction controls (refused by rustc in comments) in docs and literals.
                let text = concat!(
                    "Ends a \"raw\" string: \"# and \"## and */ /* {@link Tool} <b>bold</b>\n",
                    "```\nfn main() { compile_error!(\"doctest\") }\n```\n",
                    "\tTabbed\r\nand [a link](https://example.com/x_(y)) \\ backslash \u{202e}",
                );
                s.def("Tool")["description"] = text.into();
                s.property("Tool", "name")["description"] = text.into();
                s.def("LoggingLevel")["enum"]
                    .as_array_mut()
                    .expect("enum")
                    .push("a\u{202e}b\"#\\".into());
                s.set_property("Root", "k\u{2066}", json!({"const": "x\u{202e}"}));
                s.require("Root", "k\u{2066}");
                generates()
                    .has("\"a\\u{202e}b\\\"#\\\\\" => ")
                    .has("/// The value of the constant member `k\\u{2066}`.")
            },
        },
    ])
}

// ---------------------------------------------------------------------------------------------
// Running them.
// ---------------------------------------------------------------------------------------------

/// One mutation applied to one revision.
struct Case {
    /// `<mutation>_<revision>`: the module name in the throwaway crate.
    module: String,
    outcome: Outcome,
}

enum Outcome {
    Generated(String),
    /// Refused as expected.
    Refused,
    Failed(String),
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(non-string panic payload)".to_owned())
}

fn run_case(mutation: &Mutation, revision: &'static str) -> Case {
    let module = format!(
        "{}_v{}",
        mutation.name,
        revision.replace('-', "_").trim_start_matches('v')
    );
    let mut schema = Schema::load(revision);
    let expect = (mutation.apply)(&mut schema);
    let bytes = serde_json::to_vec_pretty(&schema.root).expect("serialize");
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir
        .path()
        .join(format!("{revision} {}.json", mutation.name));
    std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let generated = catch_unwind(AssertUnwindSafe(|| {
        Config::new()
            .schema_path(&path)
            .revision_name(revision)
            .registry_feature("registry")
            .schemars_feature("schemars")
            .module_doc(true)
            .generate_string()
    }));
    let outcome = match (generated, expect) {
        (Err(payload), _) => Outcome::Failed(format!(
            "the generator panicked: {}",
            panic_message(payload.as_ref())
        )),
        (Ok(Ok(source)), Expect::Generates(checks)) => {
            let failures: Vec<String> = checks.iter().filter_map(|c| c.failure(&source)).collect();
            if failures.is_empty() {
                Outcome::Generated(source)
            } else {
                // Kept for a look at what was generated instead.
                let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcp-mutations-failed");
                let file = dir.join(format!("{module}.rs"));
                let saved = std::fs::create_dir_all(&dir)
                    .and_then(|()| std::fs::write(&file, &source))
                    .map_or_else(
                        |e| format!("(not saved: {e})"),
                        |()| file.display().to_string(),
                    );
                Outcome::Failed(format!("{}\n(output: {saved})", failures.join("\n")))
            }
        }
        (Ok(Ok(_)), Expect::Refused { pointers, message }) => Outcome::Failed(format!(
            "generated code, but a refusal at {pointers:?} mentioning `{message}` was expected"
        )),
        (Ok(Err(GenerateError::Schema { source, .. })), Expect::Refused { pointers, message }) => {
            if pointers.contains(&source.pointer) && source.message.contains(&message) {
                Outcome::Refused
            } else {
                Outcome::Failed(format!(
                    "refused with `{source}`, but a refusal at {pointers:?} mentioning \
                     `{message}` was expected"
                ))
            }
        }
        (Ok(Err(error)), _) => Outcome::Failed(format!("unexpected error: {error}")),
    };
    Case { module, outcome }
}

/// The name of the test case of `mutation` on `revision` (`drop_definition/2025-06-18`).
fn case_name(mutation: &Mutation, revision: &str) -> String {
    format!("{}/{revision}", mutation.name)
}

/// Runs the mutations of `jobs` (index in [`mutations`], revision), on all cores; the cases
/// come back in the order of `jobs`.
fn run_all(jobs: &[(usize, &'static str)]) -> Vec<Case> {
    let next = Mutex::new(0usize);
    let results = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(8));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let list = mutations();
                loop {
                    let job = {
                        let mut n = next.lock().unwrap();
                        let job = jobs.get(*n).copied().map(|job| (*n, job));
                        *n += 1;
                        job
                    };
                    let Some((at, (i, revision))) = job else {
                        break;
                    };
                    // `run_case` catches the generator's panics; this catches the mutation's.
                    let case = catch_unwind(AssertUnwindSafe(|| run_case(&list[i], revision)))
                        .unwrap_or_else(|payload| Case {
                            module: String::new(),
                            outcome: Outcome::Failed(format!(
                                "the mutation itself panicked (a bug in this test): {}",
                                panic_message(payload.as_ref())
                            )),
                        });
                    results.lock().unwrap().push((at, case));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(at, _)| *at);
    results.into_iter().map(|(_, case)| case).collect()
}

// ---------------------------------------------------------------------------------------------
// Compiling what was generated.
// ---------------------------------------------------------------------------------------------

/// Writes `text` unless the file already holds it (keeps mtimes, so cargo sees nothing new).
fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return;
    }
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// Writes the throwaway workspace: one module per generated case, spread over a crate per core
/// (one `cargo check` runs their rustc processes side by side; a crate's front end is one thread,
/// and checking a module costs about two seconds).
fn write_crate(dir: &Path, modules: &[(&str, &str)]) {
    let parts = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 8));
    let members: Vec<String> = (0..parts).map(|i| format!("part{i}")).collect();
    std::fs::create_dir_all(dir).expect("mkdir");
    let manifest = format!(
        "# Written by codegen/tests/mutations.rs: the code generated from mutated schemas.\n\
         # Not a member of the repository's workspace.\n\
         [workspace]\nresolver = \"2\"\nmembers = {members:?}\n"
    );
    write_if_changed(&dir.join("Cargo.toml"), &manifest);
    // The repository's lock file: the same dependency versions, and no registry lookup.
    let lock = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.lock");
    if let Ok(text) = std::fs::read_to_string(lock) {
        write_if_changed(&dir.join("Cargo.lock"), &text);
    }
    // The largest modules first, each to the lightest crate, so the crates take as long.
    let mut by_size: Vec<&(&str, &str)> = modules.iter().collect();
    by_size.sort_by_key(|(module, source)| (std::cmp::Reverse(source.len()), *module));
    let mut assigned: Vec<(usize, Vec<(&str, &str)>)> = vec![(0, Vec::new()); parts];
    for &(module, source) in by_size {
        let lightest = assigned
            .iter_mut()
            .min_by_key(|(size, _)| *size)
            .expect("parts");
        lightest.0 += source.len();
        lightest.1.push((module, source));
    }
    for (member, (_, mut part)) in members.iter().zip(assigned) {
        part.sort();
        write_part(&dir.join(member), member, &part);
    }
}

/// One crate of the throwaway workspace, holding `modules`.
fn write_part(dir: &Path, name: &str, modules: &[(&str, &str)]) {
    let src = dir.join("src");
    std::fs::create_dir_all(&src).expect("mkdir");
    let generated = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../generated")
        .canonicalize()
        .expect("generated/ exists");
    let manifest = format!(
        "[package]\nname = \"mcp-mutations-{name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
         publish = false\n\n\
         [features]\ndefault = [\"registry\", \"schemars\"]\nregistry = []\n\
         schemars = [\"mcp-typed/schemars\"]\n\n\
         [dependencies]\nmcp-typed = {{ path = {}, default-features = false }}\n",
        toml::Value::String(generated.display().to_string())
    );
    write_if_changed(&dir.join("Cargo.toml"), &manifest);
    let mut lib = String::from(
        "//! The code generated from mutated schemas, one module per mutation and revision.\n\
         // As strict as the `mcp-typed` crate, which includes the generated files.\n\
         #![warn(missing_docs, missing_debug_implementations)]\n\
         #![deny(warnings)]\n\n",
    );
    let keep: BTreeSet<String> = modules.iter().map(|(m, _)| format!("{m}.rs")).collect();
    for (module, source) in modules {
        lib.push_str(&format!("#[rustfmt::skip]\npub mod {module};\n"));
        write_if_changed(&src.join(format!("{module}.rs")), source);
    }
    write_if_changed(&src.join("lib.rs"), &lib);
    // Modules of mutations that no longer exist, no longer generate, or moved to another crate.
    for entry in std::fs::read_dir(&src).expect("read src").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name != "lib.rs" && !keep.contains(&name) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// What `cargo check` said of the throwaway crate.
struct Checked {
    /// The compiler's errors and warnings, by the module (file stem) of their primary span.
    by_module: BTreeMap<String, Vec<String>>,
    /// Why the crate does not compile, when some of that is in no case's module (or cargo said
    /// nothing per module): every generated case fails with it.
    unattributed: Option<String>,
}

/// `cargo check` of the throwaway crates whose case modules are `modules`.
fn check_crate(dir: &Path, modules: &BTreeSet<&str>) -> Checked {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(dir)
        .args(["check", "--workspace", "--quiet", "--message-format=json"])
        .arg("--target-dir")
        .arg(dir.join("target"))
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .output()
        .expect("cargo runs");
    let mut by_module: BTreeMap<String, Vec<String>> = BTreeMap::new();
    if output.status.success() {
        return Checked {
            by_module,
            unattributed: None,
        };
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    for line in stdout.lines() {
        let Ok(message) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if message["reason"] != "compiler-message" {
            continue;
        }
        let diagnostic = &message["message"];
        // A dependency's warnings fail nothing; its errors are reported.
        let own = message["target"]["name"]
            .as_str()
            .is_some_and(|name| name.replace('-', "_").starts_with("mcp_mutations_part"));
        let level = diagnostic["level"].as_str().unwrap_or("");
        if level == "failure-note" || (!own && level != "error") {
            continue;
        }
        // rustc's closing count (`aborting due to 2 previous errors`, `1 warning emitted`).
        let text = diagnostic["message"].as_str().unwrap_or("");
        let no_spans = diagnostic["spans"].as_array().is_none_or(Vec::is_empty);
        if no_spans && (text.starts_with("aborting due to") || text.ends_with(" emitted")) {
            continue;
        }
        let file = diagnostic["spans"]
            .as_array()
            .and_then(|spans| spans.iter().find(|s| s["is_primary"] == true))
            .and_then(|s| s["file_name"].as_str())
            .unwrap_or("(no file)");
        let module = Path::new(file)
            .file_stem()
            .map_or_else(|| file.to_owned(), |s| s.to_string_lossy().into_owned());
        let rendered = diagnostic["rendered"].as_str().unwrap_or("").to_owned();
        by_module.entry(module).or_default().push(rendered);
    }
    let elsewhere: Vec<&String> = by_module
        .keys()
        .filter(|m| !modules.contains(m.as_str()))
        .collect();
    let unattributed = (by_module.is_empty() || !elsewhere.is_empty()).then(|| {
        let mut report = String::from("the crate of generated code does not compile");
        for module in elsewhere {
            report.push_str(&format!("\n\n=== `{module}`\n"));
            report.push_str(&diagnostics(&by_module[module]));
        }
        format!(
            "{report}\n(crate: {})\n{}",
            dir.display(),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    Checked {
        by_module,
        unattributed,
    }
}

/// The first five of `rendered` (compiler diagnostics), and how many more there are.
fn diagnostics(rendered: &[String]) -> String {
    let mut text: String = rendered.iter().take(5).map(String::as_str).collect();
    if rendered.len() > 5 {
        text.push_str(&format!("… and {} more\n", rendered.len() - 5));
    }
    text
}

// ---------------------------------------------------------------------------------------------
// The test cases.
// ---------------------------------------------------------------------------------------------

/// The selected cases, generated together on first demand and then compiled together: one
/// `cargo check` of one crate for all of them, whose result each case reports for its module.
struct Batch {
    /// (index in [`mutations`], revision) of every selected case.
    jobs: Vec<(usize, &'static str)>,
    /// Whether that is every case (else the selection gets a crate of its own: compiling a few
    /// modules in the full crate would make rustc's incremental cache forget the others).
    all: bool,
    cases: OnceLock<Vec<Case>>,
    checked: OnceLock<Checked>,
}

impl Batch {
    fn cases(&self) -> &[Case] {
        self.cases.get_or_init(|| {
            let started = Instant::now();
            let cases = run_all(&self.jobs);
            println!(
                "{} cases generated in {:.1?}",
                cases.len(),
                started.elapsed()
            );
            cases
        })
    }

    fn checked(&self) -> &Checked {
        self.checked.get_or_init(|| {
            let modules: Vec<(&str, &str)> = self
                .cases()
                .iter()
                .filter_map(|case| match &case.outcome {
                    Outcome::Generated(source) => Some((case.module.as_str(), source.as_str())),
                    _ => None,
                })
                .collect();
            let name = if self.all {
                "mcp-mutations"
            } else {
                "mcp-mutations-selected"
            };
            let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
            write_crate(&dir, &modules);
            let started = Instant::now();
            let checked = check_crate(&dir, &modules.iter().map(|(m, _)| *m).collect());
            println!(
                "{} modules checked in {:.1?}",
                modules.len(),
                started.elapsed()
            );
            checked
        })
    }

    /// The outcome of the case at `at` in `jobs`: generated as expected and compiled without a
    /// diagnostic in its module, or refused as expected.
    fn run(&self, at: usize) -> Result<(), Failed> {
        let case = &self.cases()[at];
        match &case.outcome {
            Outcome::Failed(why) => Err(why.as_str().into()),
            Outcome::Refused => Ok(()),
            Outcome::Generated(_) => {
                let checked = self.checked();
                if let Some(rendered) = checked.by_module.get(&case.module) {
                    return Err(format!(
                        "the generated code (module `{}`) does not compile:\n{}",
                        case.module,
                        diagnostics(rendered)
                    )
                    .into());
                }
                match &checked.unattributed {
                    Some(report) => Err(report.as_str().into()),
                    None => Ok(()),
                }
            }
        }
    }
}

fn main() {
    let args = Arguments::from_args();
    let list = mutations();
    let every: Vec<(usize, &'static str)> = list
        .iter()
        .enumerate()
        .flat_map(|(i, m)| m.revisions.iter().map(move |r| (i, *r)))
        .collect();
    // The cases libtest will run (it filters with the same function), for the batch to generate.
    let runs = |name: String| {
        let probe = Trial::test(name, || Ok(()));
        !args.is_filtered_out(&probe) && !args.is_ignored(&probe)
    };
    let jobs: Vec<(usize, &'static str)> = every
        .iter()
        .copied()
        .filter(|&(i, revision)| runs(case_name(&list[i], revision)))
        .collect();
    let batch = Arc::new(Batch {
        all: jobs.len() == every.len(),
        jobs,
        cases: OnceLock::new(),
        checked: OnceLock::new(),
    });
    let mut trials = vec![Trial::test("mutation_names_are_unique", || {
        let names: BTreeSet<&str> = mutations().iter().map(|m| m.name).collect();
        if names.len() != mutations().len() {
            return Err("two mutations have the same name".into());
        }
        if names.len() < 20 {
            return Err(format!("only {} mutations", names.len()).into());
        }
        Ok(())
    })];
    for &(i, revision) in &every {
        let name = case_name(&list[i], revision);
        let at = batch.jobs.iter().position(|&job| job == (i, revision));
        let batch = Arc::clone(&batch);
        trials.push(Trial::test(name, move || match at {
            Some(at) => batch.run(at),
            None => Err("not selected, yet run: the selection differs from libtest's".into()),
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}
