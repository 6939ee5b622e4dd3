//! `mcp-codegen diff`: what changed between two schemas, in Rust terms, and whether it breaks
//! code written with struct literals, with the constructors, or reading values.
//!
//! - the reports of the pinned revisions, text and Markdown, are golden files
//!   (`tests/diff/golden/`; `UPDATE_GOLDEN=1` rewrites them: review their diff, they are the
//!   specification of the report);
//! - every change of those reports is compiled: a caller of the old API per way of writing code
//!   ([`probe`]), against both sides, in one throwaway crate;
//! - each kind of change on a small schema; the command's exit status, formats and inputs.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use mcp_codegen::diff::{
    diff, render_json, render_markdown, render_text, Change, Gate, Kind, Names, Style,
};
use mcp_codegen::fetch::SchemaSource;
use mcp_codegen::ir::Module;
use mcp_codegen::workspace::Workspace;
use serde_json::{json, Value};

#[path = "support/cargo_check.rs"]
mod cargo_check;
#[path = "diff/probe.rs"]
mod probe;
mod support;
use support::mirror;

/// The pinned pairs whose reports are golden and compiled.
const PAIRS: &[(&str, &str)] = &[("2025-06-18", "2025-11-25"), ("2025-11-25", "2026-07-28")];

fn workspace() -> Workspace {
    Workspace::open(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).expect("schema/revisions.toml")
}

/// A pinned revision as `diff` compares it: errata applied.
fn pinned(name: &str) -> (Module, String) {
    mirror();
    let workspace = workspace();
    let revision = workspace.revisions.get(name).expect("pinned");
    let (_, module) = workspace
        .load(revision, &SchemaSource::resolve(None))
        .expect("loads");
    (module, revision.module.clone())
}

fn names(old: &str, new: &str, old_module: &str, new_module: &str) -> Names {
    Names {
        old_label: old.into(),
        new_label: new.into(),
        old_module: old_module.into(),
        new_module: new_module.into(),
    }
}

/// Compares `text` with the golden file `name`, or rewrites it under `UPDATE_GOLDEN=1`.
fn golden(name: &str, text: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/diff/golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        cargo_check::write_if_changed(&path, text);
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if expected != text {
        let diff = similar::TextDiff::from_lines(&expected, text);
        let shown: String = diff
            .unified_diff()
            .context_radius(2)
            .to_string()
            .lines()
            .take(80)
            .map(|l| format!("{l}\n"))
            .collect();
        panic!(
            "{} is stale (UPDATE_GOLDEN=1 cargo test -p mcp-codegen --test diff rewrites it; \
             review the diff):\n{shown}",
            path.display()
        );
    }
}

#[test]
fn the_reports_of_the_pinned_revisions_are_golden() {
    for (old, new) in PAIRS {
        let ((a, old_module), (b, new_module)) = (pinned(old), pinned(new));
        let changes = diff(&a, &b);
        let names = names(old, new, &old_module, &new_module);
        let gate = Gate::default();
        golden(
            &format!("{old}_{new}.txt"),
            &render_text(&changes, &names, &gate, false),
        );
        golden(
            &format!("{old}_{new}.md"),
            &render_markdown(&changes, &names, &gate),
        );
    }
}

#[test]
fn what_the_reports_say_of_the_pinned_revisions() {
    let ((a, _), (b, _)) = (pinned("2025-11-25"), pinned("2026-07-28"));
    let changes = diff(&a, &b);
    let find = |kind: Kind, path: &str| -> &Change {
        changes
            .iter()
            .find(|c| c.kind == kind && c.item.path() == path)
            .unwrap_or_else(|| panic!("no {} `{path}`", kind.name()))
    };
    let styles = |c: &Change| -> Vec<Style> { c.breaks.iter().copied().collect() };
    // An optional field: literals only.
    let task = find(Kind::StructFieldRemoved, "CallToolRequestParams::task");
    assert_eq!(styles(task), Style::ALL);
    assert_eq!(task.before.as_deref(), Some("Option<TaskMetadata>"));
    let state = find(
        Kind::StructFieldAdded,
        "CallToolRequestParams::request_state",
    );
    assert_eq!(styles(state), [Style::Literals]);
    assert_eq!(state.after.as_deref(), Some("Option<String>"));
    assert_eq!(
        state.pointer,
        "/$defs/CallToolRequestParams/properties/requestState"
    );
    // `resultType`: required, but `new` fills it and old JSON without it decodes.
    let result_type = find(Kind::StructFieldAdded, "CallToolResult::result_type");
    assert_eq!(styles(result_type), [Style::Literals]);
    assert!(!result_type.wire);
    // A new member of a union: exhaustive matches only.
    let input = find(Kind::UnionMemberAdded, "ServerResult::InputRequired");
    assert_eq!(styles(input), [Style::Match]);
    let code = find(
        Kind::ErrorCodeRemoved,
        "error_codes::URL_ELICITATION_REQUIRED_ERROR",
    );
    assert_eq!(code.before.as_deref(), Some("i64 = -32042"));
    // Descriptions changed are listed, breaking nothing.
    assert!(changes
        .iter()
        .any(|c| c.kind == Kind::DocsChanged && !c.is_breaking()));
    // A member whose type became a named alias of the same thing has not changed.
    assert!(
        !changes
            .iter()
            .any(|c| c.item.path() == "AudioContent::meta" && c.kind != Kind::DocsChanged),
        "`_meta: {{string: any}}` → `MetaObject` (an alias of it) is no change"
    );
}

#[test]
fn a_schema_compared_with_itself_has_no_changes() {
    let (module, name) = pinned("2026-07-28");
    let changes = diff(&module, &module);
    assert!(changes.is_empty(), "{changes:?}");
    let names = names("a", "b", &name, &name);
    assert!(render_text(&changes, &names, &Gate::default(), false).contains("no changes"));
}

/// A small draft-07 schema with the given definitions.
fn schema(definitions: Value) -> Module {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("schema.json");
    let root =
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "definitions": definitions});
    std::fs::write(&path, root.to_string()).unwrap();
    mcp_codegen::load_schema_file(&path).unwrap()
}

/// Before and after for [`each_kind_of_change_is_judged`].
fn kinds_fixture() -> (Value, Value) {
    let old = json!({
        "Thing": {
            "type": "object",
            "description": "A thing.",
            "properties": {
                "kind": {"type": "string", "const": "thing"},
                "name": {"type": "string"},
                "size": {"type": "integer"},
                "note": {"type": "string"},
                "gone": {"type": "boolean"},
                "label": {"type": "string", "description": "old words"}
            },
            "required": ["kind", "name"]
        },
        "Color": {"type": "string", "enum": ["red", "green"]},
        "Either": {"anyOf": [{"type": "string"}, {"$ref": "#/definitions/Thing"}]}
    });
    let new = json!({
        "Thing": {
            "type": "object",
            "description": "A thing, better described.",
            "properties": {
                "kind": {"type": "string", "const": "object"},
                "name": {"type": "string"},
                "size": {"type": "number"},
                "note": {"type": "string"},
                "extra_note": {"type": "string"},
                "must": {"type": "string"},
                "label": {"type": "string", "description": "new words"}
            },
            "required": ["kind", "note", "must"],
            "additionalProperties": false
        },
        "Color": {"type": "string", "enum": ["red", "blue"]},
        "Either": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"$ref": "#/definitions/Thing"}]},
        "Fresh": {"type": "object", "properties": {"a": {"type": "string"}}}
    });
    (old, new)
}

#[test]
fn each_kind_of_change_is_judged() {
    let (old, new) = kinds_fixture();
    let changes = diff(&schema(old), &schema(new));
    let got: BTreeSet<(String, String, Vec<&str>, bool)> = changes
        .iter()
        .map(|c| {
            let breaks = c.breaks.iter().map(|s| s.name()).collect();
            (c.kind.name().to_owned(), c.item.path(), breaks, c.wire)
        })
        .collect();
    let l = "literals";
    let k = "constructors";
    let m = "match";
    let expected: BTreeSet<(String, String, Vec<&str>, bool)> = [
        ("struct_constant_value_changed", "Thing::KIND", vec![], true),
        (
            "struct_field_now_optional",
            "Thing::name",
            vec![l, k, m],
            false,
        ),
        (
            "struct_field_now_required",
            "Thing::note",
            vec![l, k, m],
            true,
        ),
        // `i64` converts into `serde_json::Number`: `new`/`with_size` still take it.
        (
            "struct_field_type_changed",
            "Thing::size",
            vec![l, m],
            false,
        ),
        ("struct_field_removed", "Thing::gone", vec![l, k, m], true),
        ("struct_field_added", "Thing::extra_note", vec![l], false),
        (
            "struct_field_added_required",
            "Thing::must",
            vec![l, k],
            true,
        ),
        ("struct_extra_changed", "Thing::extra", vec![l, k, m], true),
        ("enum_variant_removed", "Color::Green", vec![l, k, m], true),
        ("enum_variant_added", "Color::Blue", vec![m], false),
        ("union_member_added", "Either::Integer", vec![m], false),
        ("type_added", "Fresh", vec![], false),
        ("docs_changed", "Thing", vec![], false),
        ("docs_changed", "Thing::label", vec![], false),
    ]
    .into_iter()
    .map(|(kind, path, breaks, wire)| (kind.to_owned(), path.to_owned(), breaks, wire))
    .collect();
    assert_eq!(got, expected, "{changes:#?}");

    // The gate: literal-only breaks pass for constructor users; allowed kinds pass.
    let constructors = Gate {
        styles: [Style::Constructors, Style::Match].into_iter().collect(),
        allowed: BTreeSet::new(),
    };
    let added = changes
        .iter()
        .find(|c| c.kind == Kind::StructFieldAdded)
        .unwrap();
    assert!(Gate::default().fails(added));
    assert!(!constructors.fails(added));
    let allow = Gate {
        allowed: [Kind::EnumVariantAdded].into_iter().collect(),
        ..Gate::default()
    };
    let blue = changes
        .iter()
        .find(|c| c.kind == Kind::EnumVariantAdded)
        .unwrap();
    assert!(!allow.fails(blue) && Gate::default().fails(blue));

    let names = names("old", "new", "old", "new");
    let markdown = render_markdown(&changes, &names, &Gate::default());
    assert!(
        markdown.starts_with(
            "## MCP schema old → new (`old` → `new`)\n\n14 changes: 11 breaking (judged for \
             literals, constructors, match), 0 let through, 1 compatible, 2 documentation only\n"
        ),
        "{markdown}"
    );
    assert!(
        markdown.contains(
            "| `old::Thing::gone` | `Option<bool> → (removed)` | literals, constructors, match, \
             wire | `/definitions/Thing/properties/gone` |\n"
        ),
        "{markdown}"
    );
    // Breaking first, the rest folded.
    let breaking = markdown.find("### Breaking").unwrap();
    let compatible = markdown.find("<summary>Compatible").unwrap();
    assert!(breaking < compatible, "{markdown}");

    let plain = render_text(&changes, &names, &Gate::default(), false);
    assert!(!plain.contains('\x1b'));
    assert!(
        plain.contains(
            "    new::Color::Blue: \"blue\"\n      breaks match; schema /definitions/Color\n"
        ),
        "{plain}"
    );
    let colored = render_text(&changes, &names, &Gate::default(), true);
    assert!(colored.contains("\x1b[31mBreaking\x1b[0m"), "{colored}");

    let report: Value =
        serde_json::from_str(&render_json(&changes, &names, &constructors)).expect("JSON report");
    assert_eq!(report["version"], 1);
    assert_eq!(report["styles"], json!(["constructors", "match"]));
    assert_eq!(report["summary"]["changes"], 14);
    assert_eq!(report["summary"]["let_through"], 1, "{report:#}");
    let first = &report["changes"][0];
    assert_eq!(first["group"], "breaking");
    let entry = report["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "struct_field_added")
        .unwrap();
    assert_eq!(
        *entry,
        json!({"kind": "struct_field_added", "group": "let_through",
               "path": "new::Thing::extra_note", "before": null, "after": "Option<String>",
               "pointer": "/definitions/Thing/properties/extra_note", "breaks": ["literals"],
               "wire": false, "fails": false, "note": null})
    );
}

/// A draft of 2026 renamed `SubscriptionsListenResultMetaObject` to
/// `SubscriptionsListenResultMeta` without changing its members: one rename (the Rust name
/// breaks, the wire does not), and the field that holds it is no wire change either. A type
/// whose members changed too, or a shape two new types share, is no rename.
#[test]
fn a_renamed_type_of_the_same_shape_is_a_rename_not_a_wire_change() {
    let meta = json!({"type": "object", "properties": {
        "progressToken": {"type": "string"}, "cursor": {"type": "string"}}});
    let result = |meta_name: &str| {
        json!({"type": "object", "properties": {
            "_meta": {"$ref": format!("#/definitions/{meta_name}")},
            "count": {"type": "integer"}}})
    };
    let old = json!({
        "SubscriptionsListenResultMetaObject": meta,
        "SubscriptionsListenResult": result("SubscriptionsListenResultMetaObject"),
    });
    let new = json!({
        "SubscriptionsListenResultMeta": meta,
        "SubscriptionsListenResult": result("SubscriptionsListenResultMeta"),
    });
    let changes = diff(&schema(old.clone()), &schema(new));
    let got: Vec<(&str, String, bool)> = (changes.iter())
        .map(|c| (c.kind.name(), c.item.path(), c.wire))
        .collect();
    assert_eq!(
        got,
        [
            (
                "type_renamed",
                "SubscriptionsListenResultMetaObject".to_owned(),
                false
            ),
            (
                "struct_field_type_changed",
                "SubscriptionsListenResult::meta".to_owned(),
                false
            ),
        ],
        "{changes:#?}"
    );
    let rename = &changes[0];
    assert_eq!(
        rename.breaks.len(),
        3,
        "every way of naming the type breaks"
    );
    assert_eq!(
        rename.after.as_deref(),
        Some("SubscriptionsListenResultMeta")
    );
    let names = names("old", "new", "v_old", "v_new");
    let text = render_text(&changes, &names, &Gate::default(), false);
    assert!(
        text.contains(
            "    v_old::SubscriptionsListenResultMetaObject: SubscriptionsListenResultMetaObject \
             → SubscriptionsListenResultMeta\n      breaks literals, constructors, match; the same \
             members: the JSON is unchanged;"
        ),
        "{text}"
    );
    assert!(!text.contains("wire"), "no wire verdict: {text}");

    // A member narrowed on the way: removed and added, and the field breaks the wire.
    let mut narrowed = json!({
        "SubscriptionsListenResultMeta": meta,
        "SubscriptionsListenResult": result("SubscriptionsListenResultMeta"),
    });
    narrowed["SubscriptionsListenResultMeta"]["properties"]["cursor"] = json!({"type": "integer"});
    let changes = diff(&schema(old.clone()), &schema(narrowed));
    let kinds: Vec<(&str, bool)> = changes.iter().map(|c| (c.kind.name(), c.wire)).collect();
    assert_eq!(
        kinds,
        [
            ("type_removed", false),
            ("struct_field_type_changed", true),
            ("type_added", false)
        ],
        "{changes:#?}"
    );

    // A new type of that shape that nothing holds where the old one was held is no rename; two
    // that the old one's holders now hold are not either: the report does not guess.
    let unrelated = json!({
        "ListenMeta": meta,
        "SubscriptionsListenResult": result("SubscriptionsListenResultMetaObject"),
        "SubscriptionsListenResultMetaObject": meta,
    });
    let gone = json!({
        "SubscriptionsListenResultMetaObject": meta,
        "SubscriptionsListenResult": result("SubscriptionsListenResultMetaObject"),
        "Gone": meta,
    });
    let changes = diff(&schema(gone), &schema(unrelated));
    let kinds: Vec<&str> = changes.iter().map(|c| c.kind.name()).collect();
    assert_eq!(kinds, ["type_removed", "type_added"], "{changes:#?}");
    let mut both = result("SubscriptionsListenResultMetaObject");
    both["properties"]["last"] =
        json!({"$ref": "#/definitions/SubscriptionsListenResultMetaObject"});
    let mut split = result("SubscriptionsListenResultMeta");
    split["properties"]["last"] = json!({"$ref": "#/definitions/ListenMeta"});
    let old =
        json!({"SubscriptionsListenResultMetaObject": meta, "SubscriptionsListenResult": both});
    let new = json!({"SubscriptionsListenResultMeta": meta, "ListenMeta": meta,
                     "SubscriptionsListenResult": split});
    let changes = diff(&schema(old), &schema(new));
    assert!(
        changes.iter().all(|c| c.kind != Kind::TypeRenamed)
            && changes.iter().any(|c| c.kind == Kind::TypeRemoved),
        "{changes:#?}"
    );
}

/// Writes the probe crate: the three revisions' modules and, per change of each pinned pair
/// and per style, a probe module against each side. Returns the crate's folder and, per probe
/// module, its line range in `src/probes.rs` and what is expected of it.
fn write_probe_crate() -> (PathBuf, Vec<Probe>) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcp-diff-probes");
    let workspace = workspace();
    let source = SchemaSource::resolve(None);
    mirror();
    let revisions: Vec<&str> = vec!["2025-06-18", "2025-11-25", "2026-07-28"];
    let pinned_revisions: Vec<_> = revisions
        .iter()
        .map(|r| workspace.revisions.get(r).unwrap())
        .collect();
    let rendered = workspace
        .render_all(&pinned_revisions, &source)
        .expect("generates");
    // The revisions in a crate of their own: changing a probe re-checks only the probes.
    let mut lib = String::from("//! Written by codegen/tests/diff.rs: the pinned revisions.\n");
    for r in &pinned_revisions {
        let file = rendered
            .iter()
            .find(|f| f.revision == r.name && f.path.extension().is_some_and(|e| e == "rs"))
            .expect("module file");
        let path = dir.join(format!("revisions/src/{}.rs", r.module));
        cargo_check::write_if_changed(&path, &file.text);
        lib.push_str(&format!("pub mod {};\n", r.module));
    }
    cargo_check::write_if_changed(&dir.join("revisions/src/lib.rs"), &lib);
    let generated = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../generated")
        .canonicalize()
        .unwrap();
    let mcp_typed = format!(
        "mcp-typed = {{ path = {}, default-features = false }}",
        toml::Value::String(generated.display().to_string())
    );
    let manifest = |name: &str, more: &str| {
        format!(
            "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
             publish = false\n\n[features]\nborrowed = []\nregistry = []\nschemars = []\n\n\
             [dependencies]\n{mcp_typed}\n{more}\n[workspace]\n"
        )
    };
    cargo_check::write_if_changed(
        &dir.join("revisions/Cargo.toml"),
        &manifest("mcp-diff-revisions", ""),
    );
    cargo_check::write_if_changed(
        &dir.join("probes/Cargo.toml"),
        &manifest(
            "mcp-diff-probes",
            "mcp-diff-revisions = { path = \"../revisions\" }\n",
        ),
    );
    // The repository's lock file: the same dependency versions, and no registry lookup.
    if let Ok(lock) = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.lock"))
    {
        cargo_check::write_if_changed(&dir.join("probes/Cargo.lock"), &lock);
    }
    cargo_check::write_if_changed(
        &dir.join("probes/src/lib.rs"),
        "//! Written by codegen/tests/diff.rs: callers of each pinned pair's old API.\n\
         #![allow(warnings)]\nmod probes;\n",
    );
    let mut text = String::new();
    let mut probes = Vec::new();
    for (old, new) in PAIRS {
        let (a, old_module) = pinned(old);
        let (b, new_module) = pinned(new);
        let changes = diff(&a, &b);
        for (i, change) in changes.iter().enumerate() {
            for style in Style::ALL {
                // Another change of the same type that breaks this style breaks this probe too
                // (a probe uses the whole type: every field of a literal, every variant of a
                // match, every argument of `new`): it cannot show this change harmless.
                let entangled = changes.iter().any(|other| {
                    other != change
                        && other.item.owner() == change.item.owner()
                        && other.breaks.contains(&style)
                });
                let Some(body) = probe::probe(&a, &b, change, style) else {
                    continue;
                };
                for (side, module) in [("old", &old_module), ("new", &new_module)] {
                    let name = format!("p_{old_module}_{i}_{}_{side}", style.name());
                    let start = text.lines().count() + 1;
                    let imports = imports(&body).join(", ");
                    text.push_str(&format!(
                        "mod {name} {{\n    use ::mcp_diff_revisions::{module}::{{{imports}}};\n    \
                         use ::mcp_typed::{{IndexMap, RawObject}};\n    \
                         use ::mcp_typed::__private::serde_json;\n    {body}\n}}\n"
                    ));
                    let end = text.lines().count();
                    probes.push(Probe {
                        module: name,
                        lines: start..=end,
                        change: format!("{old} → {new}: {} `{}`", change.kind.name(), {
                            change.item.path()
                        }),
                        style,
                        must_fail: side == "new" && change.breaks.contains(&style),
                        entangled: side == "new" && entangled,
                        body: body.clone(),
                    });
                }
            }
        }
    }
    cargo_check::write_if_changed(&dir.join("probes/src/probes.rs"), &text);
    (dir.join("probes"), probes)
}

/// The names a probe takes from the side's module: each capitalized word not after `::`, less
/// the prelude's and the runtime's. Imported by name, a missing one is one cheap error at the
/// `use` (a glob import made rustc search every crate for each unresolved name: a minute more).
fn imports(body: &str) -> Vec<String> {
    const OWN: &[&str] = &[
        "Option",
        "Vec",
        "Box",
        "String",
        "Default",
        "Some",
        "None",
        "IndexMap",
        "RawObject",
    ];
    let mut names = BTreeSet::new();
    let mut rest = body;
    while let Some(start) = rest.find(|c: char| c.is_ascii_alphabetic() || c == '_') {
        let after_path = rest[..start].ends_with("::");
        let word_len = rest[start..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len() - start);
        let word = &rest[start..start + word_len];
        let capitalized = word.starts_with(|c: char| c.is_ascii_uppercase());
        if !after_path && (capitalized || word == "error_codes") && !OWN.contains(&word) {
            names.insert(word.to_owned());
        }
        rest = &rest[start + word_len..];
    }
    names.into_iter().collect()
}

/// One probe module and what is expected of it.
struct Probe {
    module: String,
    lines: std::ops::RangeInclusive<usize>,
    change: String,
    style: Style,
    must_fail: bool,
    /// Against the new side, where another change of the same type breaks the same style.
    entangled: bool,
    body: String,
}

#[test]
fn every_verdict_of_the_pinned_reports_compiles_as_said() {
    let started = std::time::Instant::now();
    let (dir, probes) = write_probe_crate();
    let checked = cargo_check::check(&dir, "mcp-diff-probes");
    eprintln!(
        "{} probe modules checked in {:.1}s",
        probes.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        checked.other.is_empty(),
        "the probe crate could not be checked ({}):\n{}",
        dir.display(),
        checked.other.join("\n")
    );
    let mut by_module: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let mut stray = Vec::new();
    for e in &checked.errors {
        let owner = probes
            .iter()
            .find(|p| e.file.ends_with("probes.rs") && p.lines.contains(&e.line));
        match owner {
            Some(p) => by_module.entry(&p.module).or_default().push(&e.rendered),
            None => stray.push(e.rendered.as_str()),
        }
    }
    assert!(
        stray.is_empty(),
        "errors outside the probes:\n{}",
        stray.join("\n")
    );
    let mut wrong = Vec::new();
    let mut entangled = 0;
    for p in &probes {
        let errors = by_module.get(p.module.as_str());
        match (p.must_fail, errors) {
            (false, Some(_)) if p.entangled => entangled += 1,
            (true, None) => wrong.push(format!(
                "{} ({}): said to break, but compiles against the new side:\n    {}",
                p.change,
                p.style.name(),
                p.body
            )),
            (false, Some(errors)) => wrong.push(format!(
                "{} ({}, {}): {}:\n    {}\n{}",
                p.change,
                p.style.name(),
                p.module,
                if p.module.ends_with("_old") {
                    "the probe does not compile against the old side"
                } else {
                    "said not to break, but does not compile against the new side"
                },
                p.body,
                errors.first().unwrap_or(&"")
            )),
            _ => {}
        }
    }
    eprintln!("{entangled} probes of harmless changes failed with another change of their type");
    assert!(
        wrong.is_empty(),
        "{} of {} probes disagree with the report (crate: {}):\n\n{}",
        wrong.len(),
        probes.len(),
        dir.display(),
        wrong.join("\n\n")
    );
}
