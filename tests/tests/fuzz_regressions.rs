//! The fuzz targets' properties (`fuzz/src/checks.rs`) on every seed (official examples and
//! schemas, captured peer traffic, the validation corpus, real sealed tokens) and on every input
//! a fuzz run ever found (`fuzz/regressions/<target>/`): what fuzzing found stays fixed, on the
//! stable toolchain, in `cargo test --workspace`.

#[path = "../../fuzz/src/checks.rs"]
#[allow(dead_code)]
mod checks;

use std::panic::{catch_unwind, AssertUnwindSafe};

#[test]
fn every_seed_and_every_found_input_keeps_its_property() {
    let root = mcp_typed_tests::repo_root();
    // The official examples and schemas are seeds: make sure they are there.
    let _ = mcp_typed_tests::mirror();
    let mut cases: Vec<(String, &str, Vec<u8>)> = checks::seeds(&root)
        .into_iter()
        .enumerate()
        .map(|(i, (target, data))| (format!("seed {i}"), target, data))
        .collect();
    for (target, _) in checks::TARGETS {
        let dir = root.join("fuzz/regressions").join(target);
        for entry in std::fs::read_dir(&dir).expect("fuzz/regressions/<target>") {
            let path = entry.expect("entry").path();
            if path.file_name().is_some_and(|n| n != ".keep") {
                let data = std::fs::read(&path).expect("read");
                cases.push((path.display().to_string(), target, data));
            }
        }
    }
    for (target, _) in checks::TARGETS {
        assert!(
            cases.iter().any(|(_, t, _)| *t == target),
            "no seed for target {target}"
        );
    }
    let mut failures = Vec::new();
    for (name, target, data) in &cases {
        let (_, check) = checks::TARGETS
            .iter()
            .find(|(t, _)| t == target)
            .expect("a known target");
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| check(data))) {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failures.push(format!("{target} / {name}: {message}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
