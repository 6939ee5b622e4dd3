//! `schema/errata.toml`: every erratum is needed (the official schema refuses, or leaves untyped,
//! an instance a real peer sends) and applied (the corrected schema accepts it, the generated type
//! decodes it and writes it back exactly, and its docs name the erratum).

use mcp_codegen::errata::Witness;
use mcp_codegen::fetch::SchemaSource;
use mcp_codegen::workspace::Workspace;
use serde_json::Value;

type Roundtrip = fn(&str, &str) -> Option<Result<Value, serde_json::Error>>;

/// The generated `__roundtrip` lookup of a revision.
fn roundtrip_of(revision: &str) -> Roundtrip {
    use mcp_typed::{draft, v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28};
    match revision {
        "2024-11-05" => v2024_11_05::__roundtrip,
        "2025-03-26" => v2025_03_26::__roundtrip,
        "2025-06-18" => v2025_06_18::__roundtrip,
        "2025-11-25" => v2025_11_25::__roundtrip,
        "2026-07-28" => v2026_07_28::__roundtrip,
        "draft" => draft::__roundtrip,
        other => panic!("unknown revision {other}"),
    }
}

fn workspace() -> (Workspace, SchemaSource) {
    let workspace = Workspace::open(mcp_typed_tests::repo_root()).expect("revisions.toml");
    (workspace, SchemaSource::Dir(mcp_typed_tests::mirror()))
}

/// A validator of definition `name` in `root` (the whole schema with a root `$ref`).
fn validator(root: &Value, name: &str) -> jsonschema::Validator {
    let key = if root.get("$defs").is_some() {
        "$defs"
    } else {
        "definitions"
    };
    let mut root = root.clone();
    root.as_object_mut()
        .expect("object")
        .insert("$ref".into(), Value::from(format!("#/{key}/{name}")));
    jsonschema::validator_for(&root).expect("the schema compiles")
}

fn official_root(revision: &str) -> Value {
    let path = mcp_typed_tests::mirror().join(revision).join("schema.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("schema")).expect("json")
}

/// The members of `instance` that the definition `name` of `root` does not declare.
fn undeclared(root: &Value, name: &str, instance: &Value) -> Vec<String> {
    let key = if root.get("$defs").is_some() {
        "$defs"
    } else {
        "definitions"
    };
    let declared = root[key][name]["properties"]
        .as_object()
        .expect("an object definition");
    instance
        .as_object()
        .expect("an object instance")
        .keys()
        .filter(|member| !declared.contains_key(*member))
        .cloned()
        .collect()
}

#[test]
fn every_erratum_is_needed_and_applied() {
    let (workspace, source) = workspace();
    assert!(
        !workspace.errata.errata.is_empty(),
        "schema/errata.toml lists the known defects"
    );
    let mut checked = 0;
    for erratum in &workspace.errata.errata {
        for Witness {
            revisions,
            definition,
            json,
            official_refuses,
        } in &erratum.witnesses
        {
            let instance: Value = serde_json::from_str(json).expect("a witness is JSON");
            for name in revisions {
                let revision = workspace.revisions.get(name).expect("a pinned revision");
                let what = format!("erratum `{}`, {name}, {definition}", erratum.id);
                let official = official_root(name);
                let (corrected, _) = workspace.load(revision, &source).expect("loads");
                // Needed: the official definition refuses the instance, or accepts it without
                // declaring the member the erratum adds.
                if *official_refuses {
                    assert!(
                        !validator(&official, definition).is_valid(&instance),
                        "{what}: the official schema already accepts {json}: the erratum is stale"
                    );
                } else {
                    assert!(
                        !undeclared(&official, definition, &instance).is_empty(),
                        "{what}: the official schema already declares every member of {json}"
                    );
                    assert!(
                        undeclared(&corrected, definition, &instance).is_empty(),
                        "{what}: the corrected schema declares every member of {json}"
                    );
                }
                // Applied: the corrected schema accepts it, the generated type keeps it exactly.
                assert!(
                    validator(&corrected, definition).is_valid(&instance),
                    "{what}: the corrected schema refuses {json}"
                );
                let encoded = roundtrip_of(name)(definition, json)
                    .unwrap_or_else(|| panic!("{what}: no generated type"))
                    .unwrap_or_else(|e| panic!("{what}: the generated type refuses {json}: {e}"));
                // (The lookup encodes to a `Value`, whose members are sorted: the member order
                // of the text is checked on whole messages below.)
                assert_eq!(encoded, instance, "{what}: written back differently");
                checked += 1;
            }
        }
    }
    assert!(checked >= 7, "only {checked} witnesses checked");
}

/// Each generated module names the errata applied to it in its header, and the rustdoc of every
/// type an erratum changed quotes it; a revision without errata names none.
#[test]
fn generated_code_names_its_errata() {
    let (workspace, _) = workspace();
    for revision in &workspace.revisions.revisions {
        let text =
            std::fs::read_to_string(workspace.generated_path(revision)).expect("generated file");
        let second_line = text.lines().nth(1).unwrap_or_default();
        let ids: Vec<&str> = workspace
            .errata
            .errata
            .iter()
            .filter(|e| {
                e.changes
                    .iter()
                    .any(|c| c.revisions.contains(&revision.name))
            })
            .map(|e| e.id.as_str())
            .collect();
        if ids.is_empty() {
            assert!(!second_line.starts_with("// Errata"), "{}", revision.name);
            continue;
        }
        // A re-exporting module (the draft) has its header, its source module has the docs.
        assert_eq!(
            second_line,
            format!(
                "// Errata applied (schema/errata.toml): {}.",
                ids.join(", ")
            ),
            "{}",
            revision.name
        );
        let body = match workspace.same_schema_as(revision) {
            Some(source) => {
                std::fs::read_to_string(workspace.generated_path(source)).expect("source module")
            }
            None => text,
        };
        for id in ids {
            assert!(
                body.contains(&format!("/// **Erratum** `{id}` (schema/errata.toml): ")),
                "{}: no rustdoc names erratum {id}",
                revision.name
            );
        }
    }
}

/// The corrections as a user meets them: a float answer decodes and is written back as sent, in
/// the live elicitation response of 2025-11-25 and in the `inputResponses` of a 2026-07-28 retry;
/// a form's `pattern` is a typed member.
#[test]
fn float_answers_and_patterns_are_typed() {
    use mcp_typed::v2025_11_25 as live;
    use mcp_typed::v2026_07_28 as mrtr;

    let line = r#"{"jsonrpc":"2.0","id":7,"result":{"action":"accept","content":{"amount":3.5,"ratio":50.0,"guests":4}}}"#;
    let result: live::ElicitResult = serde_json::from_str(
        r#"{"action":"accept","content":{"amount":3.5,"ratio":50.0,"guests":4}}"#,
    )
    .expect("a float answer decodes");
    let content = result.content.as_ref().expect("content");
    assert!(
        matches!(&content["amount"], live::ElicitResultContentValue::Number(n) if n.as_f64() == Some(3.5))
    );
    assert!(matches!(
        &content["guests"],
        live::ElicitResultContentValue::Integer(4)
    ));
    assert_eq!(
        serde_json::to_string(&result).expect("encodes"),
        r#"{"action":"accept","content":{"amount":3.5,"ratio":50.0,"guests":4}}"#
    );
    let message: live::ClientMessage = line.parse().expect("the response decodes");
    assert_eq!(serde_json::to_string(&message).expect("encodes"), line);

    let retry = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"arguments":{},"inputResponses":{"form":{"action":"accept","content":{"amount":3.14}}},"name":"order","requestState":"abc"}}"#;
    let message: mrtr::ClientMessage = retry.parse().expect("a retry with a float answer");
    assert_eq!(serde_json::to_string(&message).expect("encodes"), retry);

    let string: mrtr::StringSchema =
        serde_json::from_str(r#"{"type":"string","pattern":"^[A-Za-z]+$"}"#).expect("decodes");
    assert_eq!(string.pattern.as_deref(), Some("^[A-Za-z]+$"));
    assert!(
        string.extra.is_empty(),
        "pattern is not an undeclared member"
    );
}
