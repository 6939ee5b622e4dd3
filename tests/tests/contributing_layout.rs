//! CONTRIBUTING.md's layout names what the tree has: every top-level folder, every crate of the
//! workspace, every script and every example program. A folder or a program added without a
//! line there fails here, so the map a new engineer reads does not drift from the tree.

use std::path::Path;

/// The text of the layout block (the first fenced block after `## Layout`).
fn layout() -> String {
    let text = std::fs::read_to_string(mcp_typed_tests::repo_root().join("CONTRIBUTING.md"))
        .expect("CONTRIBUTING.md");
    let section = &text[text.find("## Layout").expect("a `## Layout` section")..];
    let start = section.find("```text\n").expect("a text block") + "```text\n".len();
    let end = section[start..]
        .find("\n```")
        .expect("the end of the block");
    section[start..start + end].to_owned()
}

/// The names of the entries of `folder` (below the repository root), hidden ones left out.
fn entries(folder: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(mcp_typed_tests::repo_root().join(folder))
        .unwrap_or_else(|e| panic!("{folder}: {e}"))
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| !name.starts_with('.'))
        .collect();
    names.sort();
    names
}

/// The first word of each line of the block that starts at column 0: the paths it lists.
fn listed_paths(layout: &str) -> Vec<&str> {
    layout
        .lines()
        .filter(|line| !line.starts_with(' '))
        .filter_map(|line| line.split_whitespace().next())
        .collect()
}

#[test]
fn every_top_level_folder_and_workspace_crate_is_listed() {
    let layout = layout();
    let listed = listed_paths(&layout);
    let root = mcp_typed_tests::repo_root();
    // Build output and what tools create beside the sources are not the layout.
    let generated = ["target", "node_modules"];
    for name in entries(".") {
        if root.join(&name).is_dir() && !generated.contains(&name.as_str()) {
            let path = format!("{name}/");
            assert!(
                listed.contains(&path.as_str()),
                "CONTRIBUTING.md's layout does not list the folder `{path}`"
            );
        }
    }
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    let members = &manifest[manifest.find("members = [").expect("workspace members")..];
    let members = &members[..members.find(']').expect("the end of the members")];
    let mut count = 0;
    for member in members.split('"').skip(1).step_by(2) {
        count += 1;
        let path = format!("{member}/");
        assert!(
            listed.contains(&path.as_str()),
            "CONTRIBUTING.md's layout does not list the workspace crate `{path}`"
        );
    }
    assert!(count >= 10, "the members were read: {count}");
}

#[test]
fn every_script_and_example_program_is_named() {
    let layout = layout();
    for script in entries("scripts") {
        assert!(
            layout.contains(&script),
            "CONTRIBUTING.md's layout does not name scripts/{script}"
        );
    }
    for program in entries("examples/src/bin") {
        let stem = Path::new(&program)
            .file_stem()
            .expect("a name")
            .to_string_lossy()
            .replace('_', "-");
        // `server` and `client` are "the stdio server and client".
        let named = match stem.as_str() {
            "server" | "client" => layout.contains("the stdio server and client"),
            other => layout.contains(other),
        };
        assert!(
            named,
            "CONTRIBUTING.md's layout does not name the example program `{stem}`"
        );
    }
    for program in entries("bench/src/bin") {
        let stem = program.trim_end_matches(".rs");
        assert!(
            layout.contains(stem),
            "CONTRIBUTING.md's layout does not name bench/src/bin/{program}"
        );
    }
}
