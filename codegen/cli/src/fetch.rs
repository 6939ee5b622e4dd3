//! `fetch` and `pin-examples`: the pinned schemas and examples.

use std::process::ExitCode;

use mcp_codegen::fetch::{FetchOutcome, SchemaSource};
use mcp_codegen::workspace::{Workspace, WorkspaceError};

/// `fetch`: the schemas of the named revisions (or all, and the pinned examples).
pub fn fetch(
    workspace: &Workspace,
    source: &SchemaSource,
    revisions: &[String],
) -> Result<ExitCode, WorkspaceError> {
    for revision in workspace.select(revisions)? {
        let outcome = mcp_codegen::fetch::fetch_revision(
            &workspace.revisions,
            revision,
            &workspace.schema_root(),
            source,
        )?;
        match outcome {
            FetchOutcome::UpToDate => println!("{}: up to date", revision.name),
            FetchOutcome::Fetched { origin } => {
                println!("{}: fetched from {origin}", revision.name)
            }
        }
    }
    if revisions.is_empty() {
        let examples = workspace.pinned_examples()?;
        let mut fetched = 0;
        for file in &examples {
            let outcome = mcp_codegen::fetch::fetch_file(
                &workspace.revisions,
                file,
                &workspace.schema_root(),
                source,
            )?;
            fetched += usize::from(outcome != FetchOutcome::UpToDate);
        }
        println!("examples: {} pinned, {fetched} fetched", examples.len());
    }
    Ok(ExitCode::SUCCESS)
}

/// `pin-examples`: rewrites `schema/examples.sha256` from a revision's examples in the mirror.
pub fn pin_examples(
    workspace: &Workspace,
    source: &SchemaSource,
    revision: &str,
) -> Result<ExitCode, WorkspaceError> {
    let SchemaSource::Dir(dir) = source else {
        eprintln!("pin-examples reads a folder: give --from DIR or set $MCP_SCHEMA_MIRROR");
        return Ok(ExitCode::from(2));
    };
    let lines = mcp_codegen::fetch::manifest_of(dir, revision)?;
    let header = "# The official example instances, pinned by sha256 (sha256sum format, \
                  paths relative to schema/).\n\
                  # `mcp-codegen fetch` fills them like the schemas, from the same mirror \
                  or the same upstream commit;\n\
                  # they are never committed. Regenerate after a pin bump: \
                  `mcp-codegen pin-examples`.\n";
    let path = workspace
        .schema_root()
        .join(mcp_codegen::fetch::EXAMPLES_MANIFEST);
    std::fs::write(&path, format!("{header}{lines}")).map_err(|source| {
        mcp_codegen::fetch::FetchError::Io(mcp_codegen::FileError {
            path: path.clone(),
            source,
        })
    })?;
    println!("wrote {} ({} files)", path.display(), lines.lines().count());
    Ok(ExitCode::SUCCESS)
}
