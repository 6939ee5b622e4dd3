//! What a build script compiles when it depends on the generator with its default features: the
//! library and its closure (normal dependencies and their build scripts' own), read by
//! `cargo tree` from the lock file. The command's crates (argument parser, download, archives,
//! text diff) are not in it; `scripts/build-dep-budget.sh` measures the same closure built from
//! clean beside prost-build's and typify's.

use std::collections::BTreeSet;
use std::process::Command;

/// The packages cargo compiles for a build script that depends on `mcp-codegen`, itself included.
fn closure() -> BTreeSet<String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["tree", "--offline", "--locked", "-p", "mcp-codegen"])
        .args(["-e", "normal,build", "--prefix", "none", "--format", "{p}"])
        .arg("--manifest-path")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.toml"))
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo tree: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("UTF-8")
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn a_build_script_compiles_thirty_crates_at_most_none_of_the_commands_and_no_derive_macro() {
    let closure = closure();
    assert!(
        closure.contains("mcp-codegen") && closure.contains("syn"),
        "{closure:?}"
    );
    assert!(
        closure.len() <= 30,
        "a build script depending on mcp-codegen compiles {} crates (at most 30): {closure:?}",
        closure.len()
    );
    for only_the_command in [
        "clap", "ureq", "rustls", "ring", "tar", "flate2", "tempfile", "similar",
    ] {
        assert!(
            !closure.contains(only_the_command),
            "`{only_the_command}` is in a build script's closure: {closure:?}"
        );
    }
    // Derive macros are the dearest crates after syn (serde_derive alone is about 4 s on two
    // cores): the library reads its TOML files and writes its errors by hand.
    for derive_macro in ["serde_derive", "thiserror-impl"] {
        assert!(
            !closure.contains(derive_macro),
            "`{derive_macro}` is in a build script's closure: {closure:?}"
        );
    }
}
