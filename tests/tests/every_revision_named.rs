//! Every revision of `schema/revisions.toml` is named wherever a crate lists revisions by hand:
//! a revision added to the pins but not to one of these lists fails here, not silently in
//! `mcp-check` (which would call its traffic of an unknown revision) or in the forms.
//!
//! The lists: `mcp-typed`'s features and `#[path]` modules (every revision); `mcp-check`'s
//! `Revision` and its `mcp-typed` features (every released revision: the draft shares a
//! released schema); `mcp-elicit`'s `Revision` and `mcp-typed`'s elicitation conversions
//! (every released revision whose schema has elicitation).

use mcp_codegen::revisions::Revisions;
use mcp_typed_tests::repo_root;

fn read(path: &str) -> String {
    std::fs::read_to_string(repo_root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The pinned revisions, and whether each is a release (named by its date, not `draft`).
fn pinned() -> Vec<(mcp_codegen::revisions::Revision, bool)> {
    let revisions = Revisions::load(&repo_root().join("schema/revisions.toml")).expect("pins");
    (revisions.revisions.into_iter())
        .map(|r| {
            let release =
                r.name.len() == 10 && r.name.bytes().all(|b| b.is_ascii_digit() || b == b'-');
            (r, release)
        })
        .collect()
}

/// The `features = [...]` of the dependency `name` in a manifest's text.
fn features_of_dependency<'a>(manifest: &'a str, name: &str) -> Vec<&'a str> {
    let line = (manifest.lines())
        .find(|l| l.starts_with(&format!("{name} = ")) && l.contains("features"))
        .unwrap_or_else(|| panic!("no `{name}` with features"));
    let list = &line[line.find("features = [").expect("features") + 12..];
    let list = &list[..list.find(']').expect("]")];
    list.split(',')
        .map(|f| f.trim().trim_matches('"'))
        .collect()
}

#[test]
fn the_types_crate_has_a_feature_and_a_module_per_revision() {
    let manifest = read("generated/Cargo.toml");
    let lib = read("generated/src/lib.rs");
    for (revision, _) in pinned() {
        let feature = format!("\n{} = [", revision.feature);
        assert!(
            manifest.contains(&feature),
            "generated/Cargo.toml: no feature `{}`",
            revision.feature
        );
        let module = format!(
            "#[path = \"gen/{}.rs\"]\npub mod {};",
            revision.module, revision.module
        );
        assert!(
            lib.contains(&module),
            "generated/src/lib.rs: no module `{}`",
            revision.module
        );
    }
}

#[test]
fn mcp_check_knows_every_released_revision() {
    let released: Vec<String> = (pinned().into_iter())
        .filter(|(_, release)| *release)
        .map(|(r, _)| r.name)
        .collect();
    let known: Vec<&str> = mcp_wire_check::Revision::ALL
        .iter()
        .map(|r| r.version())
        .collect();
    assert_eq!(
        known, released,
        "check/src/revision.rs: `Revision` and `Revision::ALL`"
    );
    let manifest = read("check/Cargo.toml");
    let features = features_of_dependency(&manifest, "mcp-typed");
    for (revision, release) in pinned() {
        if release {
            assert!(
                features.contains(&revision.feature.as_str()),
                "check/Cargo.toml: mcp-typed without the feature `{}`",
                revision.feature
            );
        }
    }
}

#[test]
fn the_forms_know_every_revision_with_elicitation() {
    let with_elicitation: Vec<_> = (pinned().into_iter())
        .filter(|(r, release)| {
            *release
                && read(&format!("generated/src/gen/{}.rs", r.module))
                    .contains("pub struct ElicitRequest ")
        })
        .map(|(r, _)| r)
        .collect();
    assert!(
        with_elicitation.len() >= 3,
        "2025-06-18 and later have elicitation"
    );
    let known: Vec<&str> = mcp_elicit::Revision::ALL
        .iter()
        .map(|r| r.as_str())
        .collect();
    let names: Vec<&str> = with_elicitation.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        known, names,
        "elicit/src/lib.rs: `Revision` and `Revision::ALL`"
    );
    let conversions = read("generated/src/elicit_revisions.rs");
    for revision in &with_elicitation {
        assert!(
            conversions.contains(&format!("feature = \"{}\"", revision.feature)),
            "generated/src/elicit_revisions.rs: no conversions for `{}`",
            revision.feature
        );
    }
}
