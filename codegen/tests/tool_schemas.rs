//! Schemas as common tools write them (fixtures/tools/: zod, typescript-json-schema, schemars,
//! pydantic), the keywords the generator refuses (each with its pointer and reason) and the path
//! of the types crate (`Config::types_crate`). The command outside this repository is tested
//! with the command (`codegen/cli/tests/cli.rs`).
//!
//! `generated_code_compiles_through_a_renamed_dependency` compiles everything generated here in
//! a scratch crate that depends on `mcp-typed` as `mcp` (a renamed dependency) and re-exports it
//! (a re-export path), as `tests/mutations.rs` does for the mutated official schemas, together
//! with the real third-party schemas of `schema/third-party.toml`; its build
//! directory persists under `CARGO_TARGET_TMPDIR` (`target/tmp/mcp-tool-schemas`).

use std::path::{Path, PathBuf};
use std::process::Command;

use mcp_codegen::Config;
use mcp_codegen::{load_schema, SchemaError};
use serde_json::{json, Value};

mod support;

const FIXTURES: &[&str] = &["zod", "typescript_json_schema", "schemars", "pydantic"];

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/tools")
        .join(format!("{name}.json"))
}

/// The module generated from a fixture, naming the types crate `types_crate`.
fn generate(name: &str, types_crate: &str) -> String {
    let mut config = Config::new();
    if name == "zod" {
        config
            .message_enum("UiRequest", &["RenderWidgetRequest"])
            .message_enum("UiNotification", &["WidgetClosedNotification"]);
    }
    config
        .schema_path(fixture(name))
        .revision_name(name)
        .module_doc(true)
        .schemars_feature("schemars")
        .types_crate(types_crate)
        .generate_string()
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The item of `source` that starts with `head` (up to the next blank line).
fn item<'a>(source: &'a str, head: &str) -> &'a str {
    let start = source
        .find(head)
        .unwrap_or_else(|| panic!("no `{head}` in:\n{source}"));
    let rest = &source[start..];
    &rest[..rest.find("\n}\n").map_or(rest.len(), |end| end + 2)]
}

fn assert_item_has(source: &str, head: &str, texts: &[&str]) {
    let item = item(source, head);
    for text in texts {
        assert!(item.contains(text), "`{head}` lacks `{text}`:\n{item}");
    }
}

#[test]
fn zod_output_generates() {
    let code = generate("zod", "::mcp_typed");
    // `$schema`, `$id` and `$comment` on every definition are accepted; `propertyNames`,
    // bounds, lengths, `pattern` and `format` go to the docs.
    assert_item_has(
        &code,
        "pub struct Widget {",
        &[
            "pub title: Option<String>,",
            "pub align: Option<Alignment>,",
            "pub attributes: Option<__rt::IndexMap<String, String>>,",
            "pub size: Option<WidgetSize>,",
            "pub children: Option<Vec<Widget>>,",
            // (In key order: serde_json sorts a schema's keys.)
            "`maxLength: 64`, `minLength: 1`, `pattern: \"^[a-z][a-z0-9-]*$\"`",
            "`propertyNames: {\"pattern\":\"^data-\",\"type\":\"string\"}`",
            "`format: \"date-time\"`",
        ],
    );
    // An `anyOf` of string constants is a string enum, each value with its description.
    assert_item_has(
        &code,
        "pub enum Alignment {",
        &["Start,", "/// The default.", "Center,", "End,"],
    );
    // zod's `z.record(z.string(), z.unknown())` under `_meta`: `propertyNames: {type: string}`
    // says nothing and is not repeated.
    assert_item_has(
        &code,
        "pub struct RenderWidgetResult {",
        &["pub meta: Option<__rt::RawObject>,"],
    );
    assert!(
        !code.contains("propertyNames: {\"type\":\"string\"}`"),
        "{code}"
    );
}

/// A schema of extension messages, without `ClientRequest`-style unions: each request gets its
/// `jsonrpc::Request` impl, its result found by name or declared, and the message enums named.
#[test]
fn extension_requests_get_request_impls_and_message_enums() {
    let code = Config::new()
        .schema_path(fixture("zod"))
        .message_enum("UiRequest", &["RenderWidgetRequest"])
        .message_enum("UiNotification", &["WidgetClosedNotification"])
        .generate_string()
        .expect("generates");
    assert_item_has(
        &code,
        "impl __rt::jsonrpc::Request for RenderWidgetRequest {",
        &[
            "const METHOD: &'static str = \"ui/renderWidget\";",
            "type Params = RenderWidgetRequestParams;",
            "type Result = RenderWidgetResult;",
        ],
    );
    assert_item_has(
        &code,
        "pub enum UiRequest {",
        &["RenderWidget(Box<RenderWidgetRequestParams>),"],
    );
    assert_item_has(
        &code,
        "pub enum UiNotification {",
        &["WidgetClosed(WidgetClosedNotificationParams),"],
    );
    assert!(
        code.contains("impl __rt::codec::Calls for UiRequest {"),
        "{code}"
    );
    // A result the naming does not give is declared.
    let declared = Config::new()
        .schema_path(fixture("zod"))
        .result_for("RenderWidgetRequest", "Widget")
        .generate_string()
        .expect("generates");
    assert!(declared.contains("type Result = Widget;"), "{declared}");
    // Names that are not there are errors, not silence.
    for config in [
        Config::new()
            .schema_path(fixture("zod"))
            .result_for("NoSuchRequest", "Widget")
            .clone(),
        Config::new()
            .schema_path(fixture("zod"))
            .message_enum("X", &["Widget"])
            .clone(),
        Config::new()
            .schema_path(fixture("zod"))
            .message_enum("X", &["RenderWidgetRequest", "WidgetClosedNotification"])
            .clone(),
    ] {
        assert!(config.generate_string().is_err());
    }
}

/// pydantic writes a message's `Literal` method as an optional member with a default
/// (`{"const": "ping", "default": "ping"}`, not in `required`): the constant that names the
/// message, as a required one is; an optional constant without that default stays a field.
#[test]
fn a_defaulted_method_constant_names_the_message() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("schema.json");
    let method = |default: Value| {
        let mut method = json!({"const": "ping", "title": "Method", "type": "string"});
        if !default.is_null() {
            method["default"] = default;
        }
        json!({"$defs": {
            "PingRequest": {"type": "object", "title": "PingRequest", "properties": {
                "method": method,
                "params": {"anyOf": [{"type": "object"}, {"type": "null"}], "default": null}}},
            "PingResult": {"type": "object", "properties": {}}}})
    };
    let generate = |schema: Value| {
        std::fs::write(&path, schema.to_string()).expect("write");
        Config::new()
            .schema_path(&path)
            .generate_string()
            .expect("generates")
    };
    let code = generate(method(json!("ping")));
    assert_item_has(
        &code,
        "impl __rt::jsonrpc::Request for PingRequest {",
        &[
            "const METHOD: &'static str = \"ping\";",
            "type Result = PingResult;",
        ],
    );
    assert!(
        !item(&code, "pub struct PingRequest {").contains("pub method"),
        "{code}"
    );
    // Another default, or none: an optional member, not the message's name.
    for default in [json!("pong"), Value::Null] {
        let code = generate(method(default));
        assert!(
            item(&code, "pub struct PingRequest {").contains("pub method"),
            "{code}"
        );
        assert!(
            !code.contains("impl __rt::jsonrpc::Request for PingRequest"),
            "{code}"
        );
    }
}

#[test]
fn typescript_json_schema_output_generates() {
    let code = generate("typescript_json_schema", "::mcp_typed");
    // A union with a `null` member is `Option` of the others.
    assert!(
        code.contains("pub type JsonValue = Option<JsonValueInner>;"),
        "{code}"
    );
    assert_item_has(
        &code,
        "pub enum JsonValueInner {",
        &[
            "String(String),",
            "Array(Vec<JsonValue>),",
            "JsonObject(JsonObject),",
        ],
    );
    assert_item_has(
        &code,
        "pub struct LogEntry {",
        &[
            "pub logger: Option<Option<String>>,",
            "pub data: Option<JsonValue>,",
            "pub source: Option<LogEntrySource>,",
            "`uniqueItems: true`",
        ],
    );
    // Recursion through a nullable member is boxed.
    assert_item_has(
        &code,
        "pub struct LogBatch {",
        &["pub next: Option<Box<Option<LogBatch>>>,"],
    );
    // A chain of `$ref`s is a chain of aliases.
    assert!(code.contains("pub type Cursor = OpaqueCursor;"), "{code}");
    assert!(
        code.contains("pub type OpaqueCursor = CursorText;"),
        "{code}"
    );
}

#[test]
fn schemars_output_generates() {
    let code = generate("schemars", "::mcp_typed");
    // The root is a type, named after its `title`; `"$ref": "#"` refers to it.
    assert_item_has(
        &code,
        "pub struct ServerConfig {",
        &[
            "pub fallback: Option<Box<Option<ServerConfig>>>,",
            "pub timeout_ms: Option<Option<i64>>,",
            "`format: \"uint16\"`, `maximum: 65535`, `minimum: 0`",
            // `patternProperties` with no other member allowed types the members.
            "pub extensions: Option<__rt::IndexMap<String, String>>,",
            "`patternProperties: {\"^x-\":{\"type\":\"string\"}}`",
        ],
    );
    assert_item_has(
        &code,
        "pub enum Mode {",
        &["/// Only reads.", "ReadOnly,", "ReadWrite,"],
    );
    // `unevaluatedProperties: false` forbids undeclared members as `additionalProperties` does.
    assert!(
        !item(&code, "pub struct Limits {").contains("pub extra"),
        "{code}"
    );
    // The root type's JSON Schema is the root without its definitions.
    let json_schemas = &code[code.find("json_schema! {").expect("JSON Schema impls")..];
    assert!(json_schemas.contains("ServerConfig ="), "{json_schemas}");
    assert!(!json_schemas.contains("$defs"), "{json_schemas}");
}

#[test]
fn pydantic_output_generates() {
    let code = generate("pydantic", "::mcp_typed");
    assert_item_has(
        &code,
        "pub struct Ticket {",
        &[
            "pub assignee: Option<Option<User>>,",
            // `allOf` of one `$ref`, to carry a description, is the reference.
            "/// Who opened it.",
            "pub owner: User,",
            "pub status: TicketStatus,",
            "pub kind: Option<TicketKind>,",
            "pub score: Option<Option<TicketScore>>,",
            "`exclusiveMinimum: 0`",
        ],
    );
    // `discriminator` is OpenAPI's: the union finds its tag member itself.
    assert_item_has(
        &code,
        "pub enum TicketEvent {",
        &["Created(Created),", "Closed(Closed),"],
    );
    assert!(item(
        &code,
        "impl<'de> __rt::serde::Deserialize<'de> for TicketEvent {"
    )
    .contains("__rt::decode_tagged("));
    assert_item_has(
        &code,
        "pub struct Attachment {",
        &["pub size: Option<Option<i64>>,", "anyOf/0: `minimum: 0`"],
    );
    assert_item_has(
        &code,
        "pub struct Comment {",
        &["pub replies: Option<Vec<Comment>>,"],
    );
}

/// Generation depends on nothing but the schema: the same text twice.
#[test]
fn inline_names_are_deterministic() {
    for name in FIXTURES {
        assert_eq!(
            generate(name, "::mcp_typed"),
            generate(name, "::mcp_typed"),
            "{name}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Keywords refused, accepted and documented.
// ---------------------------------------------------------------------------------------------

fn load(defs: Value) -> Result<mcp_codegen::ir::Module, SchemaError> {
    let root = json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs});
    load_schema(&root)
}

#[test]
fn keywords_that_would_change_the_type_are_refused_with_pointer_and_reason() {
    let object = |extra: Value| {
        let mut schema = json!({"type": "object", "properties": {"kind": {"type": "string"}}});
        schema
            .as_object_mut()
            .expect("object")
            .extend(extra.as_object().expect("object").clone());
        json!({ "A": schema })
    };
    let cases: Vec<(Value, &str, &str)> = vec![
        (
            object(
                json!({"if": {"properties": {"kind": {"const": "a"}}}, "then": {"required": ["x"]}}),
            ),
            "/$defs/A/if",
            "depend on another member's value",
        ),
        (
            json!({"A": {"type": "object", "then": {}}}),
            "/$defs/A/then",
            "`then` is not supported: a conditional schema",
        ),
        (
            json!({"A": {"type": "string", "not": {"const": ""}}}),
            "/$defs/A/not",
            "anything but this",
        ),
        (
            object(json!({"dependentSchemas": {"kind": {"required": ["x"]}}})),
            "/$defs/A/dependentSchemas",
            "adds members when another is present",
        ),
        (
            object(json!({"dependencies": {"kind": {"required": ["x"]}}})),
            "/$defs/A/dependencies",
            "`dependencies` with schemas",
        ),
        (
            json!({"A": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]}}),
            "/$defs/A/prefixItems",
            "a type per position",
        ),
        (
            json!({"A": {"type": "array", "items": [{"type": "string"}]}}),
            "/$defs/A/items",
            "tuple (draft-07)",
        ),
        (
            json!({"A": {"type": "array", "items": {"type": "string"}, "unevaluatedItems": false}}),
            "/$defs/A/unevaluatedItems",
            "tuples",
        ),
        (
            json!({"A": {"$dynamicRef": "#node"}}),
            "/$defs/A/$dynamicRef",
            "use `$ref`",
        ),
        (
            json!({"A": {"type": "object", "properties": {"b": {"$defs": {"B": {}}, "type": "string"}}}}),
            "/$defs/A/properties/b/$defs",
            "move them to the root",
        ),
        (
            json!({"A": {"type": "object", "additionalProperties": {"type": "integer"}, "patternProperties": {"^x-": {"type": "string"}}}}),
            "/$defs/A/patternProperties",
            "would need different Rust types",
        ),
        (
            json!({"A": {"type": "object", "properties": {"b": {"type": "string"}}, "requried": ["b"]}}),
            "/$defs/A/requried",
            "unsupported keyword `requried`: not a keyword of JSON Schema",
        ),
        (
            json!({"A": {"anyOf": [{"type": "string"}, {"type": "integer"}], "unevaluatedProperties": false}}),
            "/$defs/A/unevaluatedProperties",
            "beside `anyOf` is not supported",
        ),
        (
            json!({"A": {"$ref": "#/$defs/B", "properties": {"x": {"type": "string"}}}, "B": {"type": "string"}}),
            "/$defs/A/type",
            "`$ref` with sibling keywords is merged as `allOf` would be",
        ),
        (
            json!({"A": {"$ref": "#anchor"}}),
            "/$defs/A/$ref",
            "or `#` for the root",
        ),
    ];
    for (defs, pointer, reason) in cases {
        let error = load(defs.clone()).expect_err(&format!("refused: {defs}"));
        assert_eq!(error.pointer, pointer, "{error}\n(schema {defs})");
        assert!(
            error.message.contains(reason),
            "`{}` should say `{reason}`",
            error.message
        );
    }
}

#[test]
fn identifiers_annotations_and_extensions_are_accepted_anywhere() {
    let identified = |schema: Value| {
        let mut schema = schema;
        let obj = schema.as_object_mut().expect("object");
        for (key, value) in [
            (
                "$schema",
                json!("https://json-schema.org/draft/2020-12/schema"),
            ),
            ("$id", json!("https://example.com/x")),
            ("$comment", json!("a comment")),
            ("$anchor", json!("here")),
            ("$dynamicAnchor", json!("meta")),
            ("title", json!("Title")),
            ("x-order", json!(3)),
        ] {
            obj.insert(key.into(), value);
        }
        schema
    };
    let module = load(json!({
        "A": identified(json!({
            "type": "object",
            "properties": {
                "b": identified(json!({"type": "string", "readOnly": true, "deprecated": true})),
                "c": identified(json!({"type": "array", "items": identified(json!({"type": "integer"}))})),
            }
        }))
    }))
    .expect("accepted");
    assert!(module.get("A").is_some());
}

#[test]
fn validation_keywords_are_documented_or_not_as_configured() {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {"A": {"type": "object", "properties": {
            "n": {"type": "integer", "minimum": 1, "multipleOf": 2},
            "s": {"type": "array", "items": {"type": "string", "format": "uri"}, "contains": {"const": "x"}, "minContains": 1},
            "m": {"type": "object", "additionalProperties": {"type": "string"}, "minProperties": 1, "dependentRequired": {"a": ["b"]}},
            "e": {"type": "string", "contentEncoding": "base64", "contentMediaType": "image/png"}
        }}}
    });
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("schema.json");
    std::fs::write(&path, schema.to_string()).expect("write");
    let with = Config::new()
        .schema_path(&path)
        .generate_string()
        .expect("generates");
    for text in [
        "`minimum: 1`, `multipleOf: 2`",
        "`contains: {\"const\":\"x\"}`, `minContains: 1`, items: `format: \"uri\"`",
        "`dependentRequired: {\"a\":[\"b\"]}`, `minProperties: 1`",
        "`contentEncoding: \"base64\"`, `contentMediaType: \"image/png\"`",
    ] {
        assert!(with.contains(text), "no `{text}` in:\n{with}");
    }
    let without = Config::new()
        .schema_path(&path)
        .constraint_docs(false)
        .generate_string()
        .expect("generates");
    assert!(!without.contains("Constraints"), "{without}");
}

// ---------------------------------------------------------------------------------------------
// The path of the types crate, and compiling what was generated.
// ---------------------------------------------------------------------------------------------

/// The default path and `::mcp_typed` spelled out give the same file, byte for byte.
#[test]
fn default_types_crate_is_mcp_typed() {
    let path = support::mirror().join("2025-11-25/schema.json");
    let default = Config::new()
        .schema_path(&path)
        .generate_string()
        .expect("generates");
    let spelled = Config::new()
        .schema_path(&path)
        .types_crate("::mcp_typed")
        .generate_string()
        .expect("generates");
    assert_eq!(default, spelled);
    assert!(default.contains("use ::mcp_typed::__private as __rt;"));
    let renamed = Config::new()
        .schema_path(&path)
        .types_crate("::my_sdk::mcp_typed")
        .generate_string()
        .expect("generates");
    assert!(renamed.contains("use ::my_sdk::mcp_typed::__private as __rt;"));
    assert!(!renamed.contains("use ::mcp_typed"));
}

#[test]
fn a_types_crate_that_is_not_a_path_is_refused() {
    let error = Config::new()
        .schema_path(fixture("zod"))
        .types_crate("not a path")
        .generate_string()
        .expect_err("refused");
    assert!(error.to_string().contains("is not a Rust path"), "{error}");
}

/// Every fixture, and an official revision with its message layer, compile in a crate that
/// depends on `mcp-typed` under another name (`mcp`) and reaches it through a re-export.
#[test]
fn generated_code_compiles_through_a_renamed_dependency() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcp-tool-schemas");
    let src = dir.join("src");
    std::fs::create_dir_all(&src).expect("mkdir");
    let generated = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../generated")
        .canonicalize()
        .expect("generated/ exists");
    let manifest = format!(
        "# Written by codegen/tests/tool_schemas.rs.\n\
         [package]\nname = \"mcp-tool-schemas\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
         publish = false\n\n\
         [features]\ndefault = [\"schemars\"]\nschemars = [\"mcp/schemars\"]\n\n\
         [dependencies]\n\
         mcp = {{ package = \"mcp-typed\", path = {}, default-features = false }}\n\n\
         # Not a member of the repository's workspace.\n[workspace]\n",
        toml::Value::String(generated.display().to_string())
    );
    write_if_changed(&dir.join("Cargo.toml"), &manifest);
    let lock = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.lock");
    if let Ok(text) = std::fs::read_to_string(lock) {
        write_if_changed(&dir.join("Cargo.lock"), &text);
    }
    let mut lib = String::from(
        "//! Code generated from schemas as tools write them, naming the types crate `::mcp`.\n\
         #![warn(missing_docs, missing_debug_implementations)]\n\
         #![deny(warnings)]\n\n\
         /// A re-export, as an SDK would offer the types crate.\n\
         pub mod reexport {\n    pub use ::mcp as mcp_typed;\n}\n\n",
    );
    for name in FIXTURES {
        write_if_changed(&src.join(format!("{name}.rs")), &generate(name, "::mcp"));
        lib.push_str(&format!("#[rustfmt::skip]\npub mod {name};\n"));
    }
    let official = Config::new()
        .schema_path(support::mirror().join("2025-11-25/schema.json"))
        .module_doc(true)
        .schemars_feature("schemars")
        .types_crate("crate::reexport::mcp_typed")
        .generate_string()
        .expect("generates");
    write_if_changed(&src.join("official.rs"), &official);
    lib.push_str("#[rustfmt::skip]\npub mod official;\n");
    // The real third-party schemas (`schema/third-party.toml`).
    for (module, text) in third_party_modules() {
        write_if_changed(&src.join(format!("{module}.rs")), &text);
        lib.push_str(&format!("#[rustfmt::skip]\npub mod {module};\n"));
    }
    write_if_changed(&src.join("lib.rs"), &lib);
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(&dir)
        .args(["check", "--quiet"])
        .arg("--target-dir")
        .arg(dir.join("target"))
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "the generated code does not compile (crate {}):\n{}",
        dir.display(),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Each pinned third-party schema, fetched as the build step fetches it and generated with the
/// settings of `mcp-codegen generate --schema <file> --types-crate ::mcp --module-file` (the
/// command's tests check that each flag does what its `Config` setting does): (module name,
/// generated text).
fn third_party_modules() -> Vec<(String, String)> {
    use mcp_codegen::fetch::{fetch_third_party, ThirdPartyPins, MIRROR_ENV};
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let pins = ThirdPartyPins::load(&repo.join("schema/third-party.toml"))
        .expect("schema/third-party.toml");
    let mirror = std::env::var_os(MIRROR_ENV)
        .filter(|dir| !dir.is_empty())
        .map(|dir| repo.join(dir));
    let mut modules = Vec::new();
    for pin in &pins.schemas {
        let fetched = fetch_third_party(pin, &repo.join("schema"), mirror.as_deref())
            .unwrap_or_else(|e| panic!("fetching `{}`: {e}", pin.name));
        let text = Config::new()
            .schema_path(&fetched.schema)
            .revision_name(&pin.name)
            .types_crate("::mcp")
            .module_doc(true)
            .generate_string()
            .unwrap_or_else(|e| panic!("{}: {e}", pin.name));
        // Named after the schema, not as an official revision, and from the pinned bytes.
        let header = format!("from {} (sha256 {}). Do not edit.", pin.name, pin.sha256);
        assert!(
            text.lines().next().is_some_and(|l| l.ends_with(&header)),
            "{}",
            pin.name
        );
        assert!(text.contains(&format!(
            "//! Types generated from the JSON schema `{}`.",
            pin.name
        )));
        modules.push((pin.name.replace('-', "_"), text));
    }
    assert!(
        modules.len() >= 2,
        "two real schemas at least, found {}",
        modules.len()
    );
    modules
}

fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return;
    }
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}
