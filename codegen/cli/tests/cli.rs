//! The command line and the builder API, on a scratch copy of the repository layout.

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};

#[path = "../../tests/support/mod.rs"]
mod support;
use support::{library_dir, mirror};

/// A scratch repository with the real pins and no generated files yet.
fn scratch_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join("schema")).expect("mkdir");
    for pins in ["revisions.toml", "errata.toml", "examples.sha256"] {
        std::fs::copy(
            library_dir().join("../schema").join(pins),
            dir.path().join("schema").join(pins),
        )
        .expect("copy pins");
    }
    dir
}

fn codegen(root: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-codegen"))
        .arg("--root")
        .arg(root)
        .arg("--from")
        .arg(mirror())
        .args(args)
        .env_remove("MCP_SCHEMA_MIRROR")
        .output()
        .expect("runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn generate_then_check_then_detect_a_hand_edit() {
    let repo = scratch_repo();
    let root = repo.path();
    let gen = root.join("generated/src/gen/v2025_06_18.rs");

    let (code, out) = codegen(root, &["generate", "--check", "--revision", "2025-06-18"]);
    assert_eq!(code, 1, "missing file is out of date: {out}");
    assert!(out.contains("v2025_06_18.rs would change"), "{out}");
    assert!(!gen.exists(), "--check writes nothing");

    let (code, out) = codegen(root, &["generate", "--revision", "2025-06-18"]);
    assert_eq!(code, 0, "{out}");
    assert!(gen.is_file());
    let (code, out) = codegen(root, &["generate", "--check", "--revision", "2025-06-18"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("up to date"), "{out}");

    let text = std::fs::read_to_string(&gen).expect("read");
    std::fs::write(
        &gen,
        text.replacen("pub struct Tool ", "pub struct Tol ", 1),
    )
    .expect("edit");
    let (code, out) = codegen(root, &["generate", "--check", "--revision", "2025-06-18"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("-pub struct Tol") && out.contains("+pub struct Tool"),
        "the short diff shows the edit: {out}"
    );
}

#[test]
fn unknown_revision_is_a_clear_error() {
    let repo = scratch_repo();
    let (code, out) = codegen(repo.path(), &["generate", "--revision", "1999-01-01"]);
    assert_eq!(code, 2);
    assert!(out.contains("unknown revision `1999-01-01`"), "{out}");
}

/// `diff` outside a repository: a missing schema file is reported as missing, a name that is
/// no file as neither a file nor a revision (it was taken for a revision and reported as a
/// missing repository, naming the folder).
#[test]
fn diff_names_a_missing_file_and_a_name_that_is_neither() {
    let dir = tempfile::tempdir().expect("tempdir");
    let schema = fixture("zod");
    let schema = schema.to_str().expect("UTF-8 path");
    let (code, _, stderr) = codegen_in(dir.path(), &["diff", "missing.json", schema]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("missing.json: No such file or directory"),
        "{stderr}"
    );
    assert!(!stderr.contains("revisions.toml"), "{stderr}");

    let (code, _, stderr) = codegen_in(dir.path(), &["diff", "2099-01-01", schema]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains(
            "`2099-01-01` is not a schema file, and there is no schema/revisions.toml above"
        ),
        "{stderr}"
    );
}

/// A download that fails (here: a pinned URL on a closed local port) says how to give the
/// schemas without the network.
#[test]
fn a_failed_download_says_how_to_work_offline() {
    let repo = scratch_repo();
    let pins = repo.path().join("schema/revisions.toml");
    let text = std::fs::read_to_string(&pins).expect("read the pins");
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let port = closed.local_addr().expect("its address").port();
    drop(closed);
    let text = text.replacen(
        "url = \"https://raw.githubusercontent.com/{repository}/{commit}/schema/{revision}/schema.json\"",
        &format!("url = \"http://127.0.0.1:{port}/{{revision}}/schema.json\""),
        1,
    );
    std::fs::write(&pins, text).expect("write the pins");
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-codegen"))
        .arg("--root")
        .arg(repo.path())
        .args(["fetch", "--revision", "2025-06-18"])
        .env_remove("MCP_SCHEMA_MIRROR")
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "download of http://127.0.0.1:{port}/2025-06-18/schema.json failed"
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains("help: without network, give the schemas from a folder: --from DIR or MCP_SCHEMA_MIRROR=DIR"),
        "{stderr}"
    );
}

#[test]
fn fetch_fills_the_schema_folder() {
    let repo = scratch_repo();
    let (code, out) = codegen(repo.path(), &["fetch", "--revision", "2024-11-05"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2024-11-05: fetched from"), "{out}");
    assert!(repo.path().join("schema/2024-11-05/schema.json").is_file());
    let (_, out) = codegen(repo.path(), &["fetch", "--revision", "2024-11-05"]);
    assert!(out.contains("2024-11-05: up to date"), "{out}");
}

/// Without `--revision`, `fetch` also fills the official examples pinned by
/// `schema/examples.sha256`, verified like the schemas.
#[test]
fn fetch_fills_the_pinned_examples() {
    let repo = scratch_repo();
    let (code, out) = codegen(repo.path(), &["fetch"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("examples: 129 pinned, 129 fetched"), "{out}");
    let example = repo
        .path()
        .join("schema/2026-07-28/examples/CallToolRequest");
    assert!(example.is_dir(), "{out}");
    // A changed example is refused and replaced by the pinned one.
    let file = std::fs::read_dir(&example)
        .expect("examples")
        .next()
        .expect("one")
        .expect("entry")
        .path();
    std::fs::write(&file, "{}").expect("tamper");
    let (code, out) = codegen(repo.path(), &["fetch"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("examples: 129 pinned, 1 fetched"), "{out}");
    assert_ne!(std::fs::read_to_string(&file).expect("read"), "{}");
}

#[test]
fn builder_api_writes_a_module_for_a_build_script() {
    let out_dir = tempfile::tempdir().expect("tempdir");
    let out = out_dir.path().join("mcp.rs");
    let written = mcp_codegen::Config::new()
        .schema_path(mirror().join("2025-11-25/schema.json"))
        .out_path(&out)
        .generate()
        .expect("generates");
    assert_eq!(written, out);
    let text = std::fs::read_to_string(&out).expect("read");
    assert!(
        text.starts_with("// @generated by mcp-codegen from 2025-11-25 (sha256 268a5f82"),
        "{}",
        &text[..120]
    );
    assert!(text.contains("pub struct CallToolRequest "));
    assert!(!text.contains("__roundtrip"), "the test lookup is opt-in");
}

#[test]
fn builder_api_reports_schema_errors_with_file_and_pointer() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("schema.json");
    std::fs::write(&path, r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","$defs":{"A":{"$ref":"#/$defs/B"}}}"##).expect("write");
    let err = mcp_codegen::Config::new()
        .schema_path(&path)
        .out_path(dir.path().join("x.rs"))
        .generate()
        .expect_err("dangling");
    let text = err.to_string();
    assert!(
        text.contains("schema.json#/$defs/A/$ref") && text.contains("dangling reference"),
        "{text}"
    );
    assert!(!dir.path().join("x.rs").exists());
}

// ---------------------------------------------------------------------------------------------
// `generate --schema`: on par with `Config`.
// ---------------------------------------------------------------------------------------------

fn fixture(name: &str) -> std::path::PathBuf {
    library_dir()
        .join("tests/fixtures/tools")
        .join(format!("{name}.json"))
}

/// The CLI run in `dir`, outside any repository: (exit code, stdout, stderr).
fn codegen_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-codegen"))
        .current_dir(dir)
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

/// `generate --schema FILE` with `flags`, to standard output.
fn cli_text(schema: &Path, flags: &[&str]) -> String {
    let dir = tempfile::tempdir().expect("tempdir");
    let schema = schema.to_str().expect("UTF-8 path");
    let args: Vec<&str> = ["generate", "--schema", schema]
        .into_iter()
        .chain(flags.iter().copied())
        .collect();
    let (code, stdout, stderr) = codegen_in(dir.path(), &args);
    assert_eq!(code, 0, "{args:?}: {stderr}");
    stdout
}

const UI_ENUMS: [&str; 4] = [
    "--message-enum",
    "UiRequest=RenderWidgetRequest",
    "--message-enum",
    "UiNotification=WidgetClosedNotification",
];

/// Each flag of `generate --schema` gives the text `Config` gives with the setting it names.
#[test]
fn every_schema_flag_generates_what_its_config_setting_does() {
    let zod = fixture("zod");
    type Setting = fn(&mut mcp_codegen::Config);
    let cases: Vec<(Vec<&str>, Setting)> = vec![
        (vec![], |_| {}),
        (UI_ENUMS.to_vec(), |c| {
            c.message_enum("UiRequest", &["RenderWidgetRequest"])
                .message_enum("UiNotification", &["WidgetClosedNotification"]);
        }),
        (vec!["--result-for", "RenderWidgetRequest=Widget"], |c| {
            c.result_for("RenderWidgetRequest", "Widget");
        }),
        (vec!["--borrowed"], |c| {
            c.borrowed_types(true);
        }),
        (vec!["--borrowed-feature", "borrowed"], |c| {
            c.borrowed_types_feature("borrowed");
        }),
        (vec!["--no-constraint-docs"], |c| {
            c.constraint_docs(false);
        }),
        (vec!["--registry-feature", "registry"], |c| {
            c.registry_feature("registry");
        }),
        (vec!["--schemars-feature", "schemars"], |c| {
            c.schemars_feature("schemars");
        }),
        (vec!["--types-crate", "::mcp"], |c| {
            c.types_crate("::mcp");
        }),
        (vec!["--module-file", "--module", "ui"], |c| {
            c.module_doc(true).revision_name("ui");
        }),
    ];
    for (flags, setting) in cases {
        let mut config = mcp_codegen::Config::new();
        config.schema_path(&zod);
        setting(&mut config);
        let expected = config.generate_string().expect("generates");
        let text = cli_text(&zod, &flags);
        assert!(
            text == expected,
            "{flags:?}: the CLI's text differs from Config's"
        );
    }
    // The enums themselves, as `Config::message_enum` makes them.
    let text = cli_text(&zod, &UI_ENUMS);
    assert!(text.contains("pub enum UiRequest {"), "{text}");
    assert!(text.contains("pub enum UiNotification {"), "{text}");
    // Include-able by default (no inner docs or attributes: E0753 in an `include!`); the module
    // docs only with `--module-file`.
    assert!(!text
        .lines()
        .any(|l| l.starts_with("//!") || l.starts_with("#![")));
    let module = cli_text(&zod, &["--module-file"]);
    assert!(module.contains("\n//! Types generated from the JSON schema `zod`."));
}

#[test]
fn a_bad_flag_value_says_the_form_expected() {
    let zod = fixture("zod");
    let zod = zod.to_str().expect("UTF-8 path");
    let dir = tempfile::tempdir().expect("tempdir");
    for (flag, value, form) in [
        ("--message-enum", "UiRequest", "expected NAME=DEF[,DEF…]"),
        (
            "--message-enum",
            "UiRequest=A,,B",
            "expected NAME=DEF[,DEF…]",
        ),
        (
            "--result-for",
            "RenderWidgetRequest",
            "expected REQUEST=RESULT",
        ),
        ("--result-for", "A=B=C", "expected REQUEST=RESULT"),
    ] {
        let (code, _, stderr) = codegen_in(dir.path(), &["generate", "--schema", zod, flag, value]);
        assert_eq!(code, 2, "{flag} {value}");
        assert!(stderr.contains(form), "{flag} {value}: {stderr}");
    }
    // A name the schema does not have is the generator's error, with what it names.
    let (code, _, stderr) = codegen_in(
        dir.path(),
        &["generate", "--schema", zod, "--message-enum", "X=Widget"],
    );
    assert_eq!(code, 2);
    assert!(
        stderr.contains("is not a request or a notification"),
        "{stderr}"
    );
}

/// A request-shaped definition (constant `method`, `params`) without a result is a warning
/// naming the rule and the `result_for` fix, on standard error and from `Config`; the pinned
/// revisions have none.
#[test]
fn a_request_without_its_result_is_a_warning() {
    let dir = tempfile::tempdir().expect("tempdir");
    let schema = dir.path().join("ext.json");
    let request = |method: &str| {
        serde_json::json!({"type": "object", "required": ["method", "params"], "properties": {
            "method": {"const": method, "type": "string"},
            "params": {"type": "object"}}})
    };
    let defs = serde_json::json!({"$defs": {
        "PokeRequest": request("x/poke"),
        "Nudge": request("x/nudge"),
        "PokeNotification": request("x/poked"),
        "Answer": {"type": "object"}}});
    std::fs::write(&schema, defs.to_string()).expect("write");
    let (code, _, stderr) = codegen_in(dir.path(), &["generate", "--schema", "ext.json"]);
    assert_eq!(code, 0, "a warning, not an error: {stderr}");
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("warning:"))
        .collect();
    assert_eq!(warnings.len(), 2, "{stderr}");
    // In definition order (serde_json's: sorted by name).
    assert!(
        warnings[0].contains("ext.json#/$defs/Nudge")
            && warnings[0].contains("not named `…Request`")
            && warnings[0].contains("Config::result_for(\"Nudge\""),
        "{stderr}"
    );
    assert!(
        warnings[1].contains("ext.json#/$defs/PokeRequest")
            && warnings[1].contains("naming rule (definition `PokeResult`")
            && warnings[1].contains("`--result-for PokeRequest=<result definition>`"),
        "{stderr}"
    );
    // The fix silences each.
    let (code, _, stderr) = codegen_in(
        dir.path(),
        &[
            "generate",
            "--schema",
            "ext.json",
            "--result-for",
            "PokeRequest=Answer",
            "--result-for",
            "Nudge=Answer",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");
    // `Config` returns them.
    let (_, warnings) = mcp_codegen::Config::new()
        .schema_path(&schema)
        .result_for("Nudge", "Answer")
        .generate_with_warnings()
        .expect("generates");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("`PokeRequest`"), "{warnings:?}");
    // The official revisions: every request answered (2026-07-28's input requests, outside the
    // direction unions, have their results by name).
    let revisions =
        mcp_codegen::revisions::Revisions::load(&library_dir().join("../schema/revisions.toml"))
            .expect("revisions.toml");
    for revision in &revisions.revisions {
        let (_, warnings) = mcp_codegen::Config::new()
            .schema_path(mirror().join(&revision.name).join("schema.json"))
            .generate_with_warnings()
            .expect("generates");
        assert!(warnings.is_empty(), "{}: {warnings:?}", revision.name);
    }
}

/// What `generate --schema --out` writes is `include!`d by a crate (the default form, as
/// `Config` writes it) and compiles: message enums, the borrowed family, and a module file
/// (`--module-file`) beside it. One `cargo check` of a scratch crate depending on `mcp-typed`
/// by path, its build directory kept under `CARGO_TARGET_TMPDIR` (`target/tmp/mcp-cli-include`).
#[test]
fn generated_files_are_included_and_compile() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcp-cli-include");
    let src = dir.join("src");
    std::fs::create_dir_all(&src).expect("mkdir");
    let zod = fixture("zod");
    let zod = zod.to_str().expect("UTF-8 path");
    let pydantic = fixture("pydantic");
    let pydantic = pydantic.to_str().expect("UTF-8 path");
    let runs: [(&str, &[&str]); 3] = [
        (
            "ui.rs",
            &[
                zod,
                "--borrowed",
                "--result-for",
                "RenderWidgetRequest=Widget",
            ],
        ),
        (
            "ui_enums.rs",
            &[zod, UI_ENUMS[0], UI_ENUMS[1], UI_ENUMS[2], UI_ENUMS[3]],
        ),
        ("tickets.rs", &[pydantic, "--module-file"]),
    ];
    for (out, flags) in runs {
        let path = src.join(out);
        let path = path.to_str().expect("UTF-8 path");
        let mut args = vec!["generate", "--out", path, "--schema"];
        args.extend_from_slice(flags);
        let (code, stdout, stderr) = codegen_in(&dir, &args);
        assert_eq!(code, 0, "{args:?}: {stdout}{stderr}");
    }
    let generated = library_dir()
        .join("../generated")
        .canonicalize()
        .expect("generated/ exists");
    write_if_changed(
        &dir.join("Cargo.toml"),
        &format!(
            "# Written by codegen/tests/cli.rs.\n\
             [package]\nname = \"mcp-cli-include\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
             publish = false\n\n\
             [dependencies]\n\
             mcp-typed = {{ path = {}, default-features = false, features = [\"borrowed\"] }}\n\
             serde_json = \"1\"\n\n\
             # Not a member of the repository's workspace.\n[workspace]\n",
            toml::Value::String(generated.display().to_string())
        ),
    );
    if let Ok(lock) = std::fs::read_to_string(library_dir().join("../Cargo.lock")) {
        write_if_changed(&dir.join("Cargo.lock"), &lock);
    }
    write_if_changed(
        &src.join("lib.rs"),
        "//! Files written by `mcp-codegen generate --schema --out`, included as a build \
         script's are.\n#![deny(warnings)]\n\n\
         /// The default form, `include!`d.\npub mod ui {\n    \
         include!(\"ui.rs\");\n}\n\n\
         /// With message enums.\npub mod ui_enums {\n    include!(\"ui_enums.rs\");\n}\n\n\
         /// A module file of its own (`--module-file`).\n#[rustfmt::skip]\npub mod tickets;\n\n\
         /// The enums dispatch on `method`, as `Config::message_enum`'s do.\n\
         pub fn render(request: &str) -> Result<ui_enums::UiRequest, ::serde_json::Error> {\n    \
         ::serde_json::from_str(request)\n}\n",
    );
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(&dir)
        .args(["check", "--quiet", "--target-dir"])
        .arg(dir.join("target"))
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "the included files do not compile (crate {}):\n{}",
        dir.display(),
        String::from_utf8_lossy(&output.stderr)
    );
}

fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return;
    }
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

// ---------------------------------------------------------------------------------------------
// The command line outside this repository.
// ---------------------------------------------------------------------------------------------

#[test]
fn generate_and_diff_work_outside_the_repository() {
    let dir = tempfile::tempdir().expect("tempdir");
    let here = dir.path();
    assert!(
        !here.starts_with(library_dir().join("..")),
        "the temp dir must be outside the repository"
    );
    let schema = fixture("zod");
    let schema = schema.to_str().expect("utf-8 path");

    let (code, stdout, stderr) = codegen_in(
        here,
        &[
            "generate",
            "--schema",
            schema,
            "--out",
            "ui.rs",
            "--types-crate",
            "::mcp",
        ],
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    let text = std::fs::read_to_string(here.join("ui.rs")).expect("written");
    assert!(text.contains("use ::mcp::__private as __rt;"), "{text}");
    assert!(text.contains("pub struct Widget {"));
    let (code, stdout, _) = codegen_in(
        here,
        &[
            "generate",
            "--schema",
            schema,
            "--out",
            "ui.rs",
            "--types-crate",
            "::mcp",
            "--check",
        ],
    );
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("up to date"), "{stdout}");

    // To standard output.
    let (code, stdout, stderr) = codegen_in(here, &["generate", "--schema", schema]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("use ::mcp_typed::__private as __rt;"));

    // A schema error names the file and the pointer.
    std::fs::write(
        here.join("bad.json"),
        r#"{"$defs": {"A": {"type": "string", "not": {"const": ""}}}}"#,
    )
    .expect("write");
    let (code, _, stderr) = codegen_in(here, &["generate", "--schema", "bad.json"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("bad.json#/$defs/A/not"), "{stderr}");

    // `diff` of two files.
    let mut newer: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("zod")).expect("read"))
            .expect("json");
    newer["$defs"]["Widget"]["properties"]["tooltip"] = json!({"type": "string"});
    std::fs::write(here.join("new.json"), newer.to_string()).expect("write");
    // An optional member added breaks struct literals: the gate says so (exit 1).
    let (code, stdout, stderr) = codegen_in(here, &["diff", schema, "new.json"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.contains("Widget::tooltip"), "{stdout}");
    let (code, _, stderr) = codegen_in(
        here,
        &["diff", "--style", "constructors", schema, "new.json"],
    );
    assert_eq!(code, 0, "{stderr}");

    // What needs the pins still says where it looked.
    let (code, _, stderr) = codegen_in(here, &["generate"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("cannot find schema/revisions.toml above"),
        "{stderr}"
    );
}
