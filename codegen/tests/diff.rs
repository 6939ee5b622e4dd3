//! `mcp-codegen diff`: what changed between two schemas, for Rust code.

use std::path::Path;
use std::process::Command;

use mcp_codegen::diff::{diff, render_markdown, render_text, Change, Impact, Section};
use serde_json::{json, Value};

mod support;
use support::mirror;

fn revision(name: &str) -> mcp_codegen::ir::Module {
    mcp_codegen::load_schema_file(&mirror().join(name).join("schema.json")).expect("loads")
}

fn has(changes: &[Change], section: Section, subject: &str, what: &str, impact: Impact) -> bool {
    changes.iter().any(|c| {
        c.section == section && c.subject == subject && c.what == what && c.impact == impact
    })
}

fn assert_has(changes: &[Change], section: Section, subject: &str, what: &str, impact: Impact) {
    assert!(
        has(changes, section, subject, what, impact),
        "missing {section:?} `{subject}` {what} ({impact:?}); changes:\n{}",
        changes
            .iter()
            .filter(|c| c
                .subject
                .contains(subject.split(['.', ' ']).next().unwrap()))
            .map(|c| format!("  {c:?}\n"))
            .collect::<String>()
    );
}

#[test]
fn from_2025_11_25_to_2026_07_28() {
    let changes = diff(&revision("2025-11-25"), &revision("2026-07-28"));
    use Impact::*;
    use Section::*;
    assert_has(&changes, Definitions, "ServerRequest", "removed", Breaking);
    assert_has(
        &changes,
        Definitions,
        "InputRequiredResult",
        "added (object)",
        Compatible,
    );
    assert_has(
        &changes,
        Definitions,
        "DiscoverRequest",
        "added (object)",
        Compatible,
    );
    for method in ["tasks/get", "tasks/list", "tasks/cancel", "tasks/result"] {
        assert_has(
            &changes,
            Methods,
            &format!("{method} (client request)"),
            "removed",
            Breaking,
        );
        assert_has(
            &changes,
            Methods,
            &format!("{method} (server request)"),
            "removed",
            Breaking,
        );
    }
    assert_has(
        &changes,
        Methods,
        "subscriptions/listen (client request)",
        "added",
        Compatible,
    );
    assert_has(
        &changes,
        Methods,
        "server/discover (client request)",
        "added",
        Compatible,
    );
    assert_has(
        &changes,
        Methods,
        "sampling/createMessage (server request)",
        "removed",
        Breaking,
    );
    // A result without `resultType` still decodes (it is `complete`): compatible.
    assert_has(
        &changes,
        Fields,
        "CallToolResult.resultType",
        "added, required with a default when absent (string)",
        Compatible,
    );
    assert_has(
        &changes,
        Fields,
        "CallToolRequestParams.task",
        "removed",
        Breaking,
    );
    assert_has(
        &changes,
        UnionMembers,
        "ServerResult member InputRequiredResult",
        "added",
        Compatible,
    );
    // A member whose type became a named alias of the same thing has not changed.
    assert!(
        !changes.iter().any(|c| c.subject == "AudioContent._meta"),
        "`_meta: {{string: any}}` → `MetaObject` (an alias of it) is no change"
    );
    // Sorted by section, then subject.
    let mut sorted = changes.clone();
    sorted.sort();
    assert_eq!(sorted, changes);
}

#[test]
fn from_2025_06_18_to_2025_11_25_shows_url_mode_and_the_new_enum_schemas() {
    let changes = diff(&revision("2025-06-18"), &revision("2025-11-25"));
    use Impact::*;
    use Section::*;
    assert_has(
        &changes,
        Definitions,
        "ElicitRequestURLParams",
        "added (object)",
        Compatible,
    );
    assert_has(
        &changes,
        Definitions,
        "ElicitRequestFormParams",
        "added (object)",
        Compatible,
    );
    assert_has(
        &changes,
        Definitions,
        "ElicitationCompleteNotification",
        "added (object)",
        Compatible,
    );
    for schema in [
        "UntitledSingleSelectEnumSchema",
        "TitledSingleSelectEnumSchema",
        "UntitledMultiSelectEnumSchema",
        "TitledMultiSelectEnumSchema",
        "LegacyTitledEnumSchema",
    ] {
        assert_has(&changes, Definitions, schema, "added (object)", Compatible);
        assert_has(
            &changes,
            UnionMembers,
            &format!("PrimitiveSchemaDefinition member {schema}"),
            "added",
            Compatible,
        );
    }
    assert_has(
        &changes,
        Definitions,
        "EnumSchema",
        "changed from object to union",
        Breaking,
    );
    assert_has(
        &changes,
        Methods,
        "notifications/elicitation/complete (server notification)",
        "added",
        Compatible,
    );
}

#[test]
fn a_schema_compared_with_itself_has_no_changes() {
    let module = revision("2026-07-28");
    let changes = diff(&module, &module);
    assert!(changes.is_empty(), "{changes:?}");
    assert!(render_text(&changes, "a", "b", false).contains("no changes"));
}

/// A small draft-07 schema with the given definitions.
fn schema(definitions: Value) -> mcp_codegen::ir::Module {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("schema.json");
    let root =
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "definitions": definitions});
    std::fs::write(&path, root.to_string()).unwrap();
    mcp_codegen::load_schema_file(&path).unwrap()
}

#[test]
fn each_kind_of_member_change_is_classified() {
    let old = schema(json!({
        "Thing": {
            "type": "object",
            "properties": {
                "kind": {"type": "string", "const": "thing"},
                "name": {"type": "string"},
                "size": {"type": "integer"},
                "note": {"type": "string"},
                "gone": {"type": "boolean"}
            },
            "required": ["kind", "name"]
        },
        "Color": {"type": "string", "enum": ["red", "green"]},
        "Either": {"anyOf": [{"type": "string"}, {"$ref": "#/definitions/Thing"}]}
    }));
    let new = schema(json!({
        "Thing": {
            "type": "object",
            "properties": {
                "kind": {"type": "string", "const": "object"},
                "name": {"type": "string"},
                "size": {"type": "number"},
                "note": {"type": "string"},
                "extra": {"type": "string"},
                "must": {"type": "string"}
            },
            "required": ["kind", "note", "must"],
            "additionalProperties": false
        },
        "Color": {"type": "string", "enum": ["red", "blue"]},
        "Either": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"$ref": "#/definitions/Thing"}]},
        "Fresh": {"type": "object", "properties": {"a": {"type": "string"}}}
    }));
    let changes = diff(&old, &new);
    use Impact::*;
    use Section::*;
    assert_has(
        &changes,
        Consts,
        "Thing.kind",
        r#""thing" → "object""#,
        Breaking,
    );
    assert_has(
        &changes,
        Fields,
        "Thing.name",
        "required → optional",
        Breaking,
    );
    assert_has(
        &changes,
        Fields,
        "Thing.note",
        "optional → required",
        Breaking,
    );
    assert_has(
        &changes,
        Fields,
        "Thing.size",
        "type integer → number",
        Breaking,
    );
    assert_has(&changes, Fields, "Thing.gone", "removed", Breaking);
    assert_has(
        &changes,
        Fields,
        "Thing.extra",
        "added, optional (string)",
        Compatible,
    );
    assert_has(
        &changes,
        Fields,
        "Thing.must",
        "added, required (string)",
        Breaking,
    );
    assert_has(
        &changes,
        Fields,
        "Thing (undeclared members)",
        "kept → forbidden",
        Breaking,
    );
    assert_has(&changes, EnumValues, "Color \"green\"", "removed", Breaking);
    assert_has(&changes, EnumValues, "Color \"blue\"", "added", Compatible);
    assert_has(
        &changes,
        UnionMembers,
        "Either member integer",
        "added",
        Compatible,
    );
    assert_has(&changes, Definitions, "Fresh", "added (object)", Compatible);
    assert_eq!(changes.len(), 12, "{changes:#?}");

    let markdown = render_markdown(&changes, "old", "new");
    assert!(
        markdown.starts_with("## MCP schema old → new\n\n12 changes, 8 breaking, 4 compatible\n"),
        "{markdown}"
    );
    assert!(markdown.contains("\n### Fields\n\n"), "{markdown}");
    assert!(
        markdown.contains("- **breaking**: `Thing.gone` removed\n"),
        "{markdown}"
    );
    assert!(
        markdown.contains("- compatible: `Color \"blue\"` added\n"),
        "{markdown}"
    );
    // Sections come in a fixed order.
    let order: Vec<usize> = [
        "### Definitions",
        "### Fields",
        "### Enum values",
        "### Union members",
        "### Constants",
    ]
    .iter()
    .map(|h| {
        markdown
            .find(h)
            .unwrap_or_else(|| panic!("{h} in {markdown}"))
    })
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{markdown}");

    let plain = render_text(&changes, "old", "new", false);
    assert!(!plain.contains('\x1b'));
    assert!(
        plain.contains("  breaking   Thing.gone: removed\n"),
        "{plain}"
    );
    let colored = render_text(&changes, "old", "new", true);
    assert!(
        colored.contains("\x1b[31mbreaking  \x1b[0m Thing.gone: removed"),
        "{colored}"
    );
    assert!(
        colored.contains("\x1b[32mcompatible\x1b[0m Color \"blue\": added"),
        "{colored}"
    );
}

fn codegen(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-codegen"))
        .arg("--root")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .arg("--from")
        .arg(mirror())
        .args(args)
        .env_remove("MCP_SCHEMA_MIRROR")
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_command_takes_revision_names_or_files() {
    let (code, out, err) = codegen(&["diff", "2025-11-25", "2026-07-28", "--format", "markdown"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("## MCP schema 2025-11-25 → 2026-07-28\n"),
        "{out}"
    );
    assert!(
        out.contains("- **breaking**: `ServerRequest` removed\n"),
        "{out}"
    );

    // A pinned revision is compared as generated, errata applied; a file as it is: the one
    // differences between the two are what the errata change.
    let file = mirror().join("2026-07-28/schema.json");
    let (code, out, err) = codegen(&["diff", "2026-07-28", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(": 2 changes, 2 breaking, 0 compatible"),
        "{out}"
    );
    assert!(out.contains("StringSchema.pattern: removed"), "{out}");
    assert!(out.contains("ElicitResultContentValue"), "{out}");
    assert!(!out.contains('\x1b'), "not a terminal: no colors");
    let (code, out, err) = codegen(&["diff", file.to_str().unwrap(), file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("no changes"), "{out}");

    let (code, _, err) = codegen(&["diff", "2026-07-28", "no-such-revision"]);
    assert_eq!(code, 2);
    assert!(err.contains("no-such-revision"), "{err}");
}

#[test]
fn generate_takes_any_schema_file() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("snapshot.rs");
    let schema = mirror().join("2025-06-18/schema.json");
    let args = [
        "generate",
        "--schema",
        schema.to_str().unwrap(),
        "--module",
        "my-snapshot",
        "--out",
        out_file.to_str().unwrap(),
    ];
    let (code, out, err) = codegen(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("wrote"), "{out}");
    let text = std::fs::read_to_string(&out_file).unwrap();
    assert!(
        text.starts_with("// @generated by mcp-codegen from my-snapshot (sha256 "),
        "{}",
        &text[..200]
    );
    assert!(text.contains("pub struct ElicitRequestParams"));
    // The same file is up to date under --check; a changed one is not.
    let (code, out, _) = codegen(&[&args[..], &["--check"]].concat());
    assert_eq!(code, 0, "{out}");
    std::fs::write(&out_file, "// stale\n").unwrap();
    let (code, out, _) = codegen(&[&args[..], &["--check"]].concat());
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("would change"), "{out}");
    // Without --out the code goes to standard output.
    let (code, out, _) = codegen(&args[..5]);
    assert_eq!(code, 0);
    assert!(out.starts_with("// @generated by mcp-codegen from my-snapshot"));
    // A schema the generator cannot read is an error with the file's name.
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{ not json").unwrap();
    let (code, _, err) = codegen(&["generate", "--schema", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("bad.json") && err.contains("not valid JSON"),
        "{err}"
    );
    // --module without --schema is a usage error.
    let (code, _, _) = codegen(&["generate", "--module", "x"]);
    assert_ne!(code, 0);
}
