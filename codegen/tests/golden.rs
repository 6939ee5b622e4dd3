//! Golden files: one small hand-written schema per emitter path (`tests/golden/<case>/schema.json`)
//! and the Rust the generator makes of it (`tests/golden/<case>/expected.rs`), compared byte for
//! byte as `mcp-codegen generate --check` compares the checked-in revisions. A change to the
//! emitter shows here as a diff of a few dozen readable lines rather than of a whole revision.
//!
//! After an intended change, rewrite the expected files and review their diff:
//!
//! ```text
//! UPDATE_GOLDEN=1 cargo test -p mcp-codegen --test golden
//! ```
//!
//! Each expected file is compiled, and some decoded and re-encoded, by
//! `tests/tests/golden_compiles.rs` (crate `mcp-typed-tests`).

use std::path::{Path, PathBuf};

use mcp_codegen::Config;

/// The environment variable that makes the tests rewrite the expected files.
const UPDATE: &str = "UPDATE_GOLDEN";

/// Diff lines shown per stale file.
const MAX_DIFF_LINES: usize = 60;

/// One test per case, each with the settings it is generated with; `CASES` lists them all.
macro_rules! cases {
    ($($(#[$doc:meta])* $name:ident => $configure:expr,)*) => {
        const CASES: &[&str] = &[$(stringify!($name)),*];
        $(
            $(#[$doc])*
            #[test]
            fn $name() {
                check(stringify!($name), $configure);
            }
        )*
    };
}

cases! {
    /// Required constants (string, integer, boolean), an optional one, required and optional
    /// members, undeclared members kept, refused and typed, an inline object, a constraint doc.
    struct_consts => |_| {},
    /// `enum` and `anyOf` of documented constants, values renamed, a one-`const` definition.
    string_enum => |_| {},
    /// Object members told apart by a constant `type` (one optional: the default), and inline
    /// members tagged by `kind`.
    tagged_union => |_| {},
    /// Object members told apart by the member names only one of them declares.
    keyed_union => |_| {},
    /// Members told apart by shape alone, and by the value of a member they all require.
    structural_union => |_| {},
    /// A method's result or an `InputRequiredResult`, told apart by the value of `resultType`
    /// (a spec rule: any value but "input_required" is the method's result), in both families.
    result_type_union => |config| {
        config.borrowed_types(true);
    },
    /// Members told apart by the kind of JSON value (`RequestId`: string | integer).
    scalar_union => |_| {},
    /// `type: [T, "null"]`, `anyOf` with null, a nullable definition (draft-07).
    nullable => |_| {},
    /// An extension's requests paired with results, and its message enums.
    extension_messages => |config| {
        config
            .result_for("SnapshotRequest", "ImageResult")
            .message_enum("UiRequest", &["RenderRequest", "SnapshotRequest"])
            .message_enum("UiNotification", &["ClosedNotification", "ResizedNotification"]);
    },
    /// The message layer of a minimal core schema, and the borrowed family (`…Ref<'de>`).
    borrowed_messages => |config| {
        config.borrowed_types(true);
    },
    /// Constraint keywords (SEP-2778-like limits, `pattern`, `format`, counts, `uniqueItems`,
    /// `multipleOf`, an alias's `maxLength`) and the `Validate` impls that check them.
    validation => |_| {},
}

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// Generates case `name` with the settings `configure` adds and compares it with its expected
/// file, or rewrites that file when `UPDATE_GOLDEN` is set.
fn check(name: &str, configure: impl FnOnce(&mut Config)) {
    let dir = golden_dir().join(name);
    let mut config = Config::new();
    config
        .schema_path(dir.join("schema.json"))
        .revision_name(name);
    configure(&mut config);
    let text = config
        .generate_string()
        .unwrap_or_else(|e| panic!("golden case `{name}`: {e}"));
    let expected_path = dir.join("expected.rs");
    let current = std::fs::read_to_string(&expected_path).unwrap_or_default();
    if current == text {
        return;
    }
    if std::env::var_os(UPDATE).is_some_and(|v| !v.is_empty() && v != "0") {
        std::fs::write(&expected_path, &text)
            .unwrap_or_else(|e| panic!("writing {}: {e}", expected_path.display()));
        eprintln!("updated {}", expected_path.display());
        return;
    }
    panic!(
        "{} would change:\n{}\nIf the change is intended, rewrite the expected files with\n    \
         {UPDATE}=1 cargo test -p mcp-codegen --test golden\nand review their diff.",
        expected_path.display(),
        short_diff(&current, &text),
    );
}

/// A unified diff, cut to [`MAX_DIFF_LINES`] lines.
fn short_diff(old: &str, new: &str) -> String {
    let diff = similar::TextDiff::from_lines(old, new);
    let text = diff
        .unified_diff()
        .context_radius(2)
        .header("expected.rs", "generated")
        .to_string();
    let total = text.lines().count();
    let mut out: String = text
        .lines()
        .take(MAX_DIFF_LINES)
        .flat_map(|line| [line, "\n"])
        .collect();
    if total > MAX_DIFF_LINES {
        out.push_str(&format!("… {} more diff lines\n", total - MAX_DIFF_LINES));
    }
    out
}

/// Every folder of `tests/golden/` is a case above (a folder left out would never be checked)
/// and holds its schema (a missing expected file fails its case).
#[test]
fn every_golden_folder_is_a_case() {
    let mut folders: Vec<String> = std::fs::read_dir(golden_dir())
        .expect("tests/golden")
        .map(|entry| entry.expect("tests/golden entry"))
        .filter(|entry| entry.path().is_dir())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    let mut cases: Vec<String> = CASES.iter().map(|c| (*c).to_owned()).collect();
    cases.sort();
    assert_eq!(
        folders, cases,
        "tests/golden/ folders and the cases of golden.rs"
    );
    for case in CASES {
        let schema = golden_dir().join(case).join("schema.json");
        assert!(schema.is_file(), "{case}: no {}", schema.display());
    }
}
