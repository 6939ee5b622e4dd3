//! Every official example instance of revision 2026-07-28 decodes into the generated type named
//! by its folder and encodes back to an equal JSON value. One test case per file.

use libtest_mimic::{Arguments, Failed, Trial};
use mcp_schema::v2026_07_28;

fn main() {
    let args = Arguments::from_args();
    let root = mcp_schema_tests::mirror().join("2026-07-28/examples");
    let mut trials = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("examples folder")
        .map(|e| e.expect("entry").path())
        .collect();
    dirs.sort();
    for dir in dirs {
        let definition = dir
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .expect("type folder")
            .map(|e| e.expect("entry").path())
            .collect();
        files.sort();
        for file in files
            .into_iter()
            .filter(|f| f.extension().is_some_and(|e| e == "json"))
        {
            let name = format!(
                "{definition}/{}",
                file.file_name().expect("file").to_string_lossy()
            );
            let definition = definition.clone();
            trials.push(Trial::test(name, move || roundtrip(&definition, &file)));
        }
    }
    assert_eq!(trials.len(), 129, "expected the 129 official examples");
    libtest_mimic::run(&args, trials).exit();
}

fn roundtrip(definition: &str, file: &std::path::Path) -> Result<(), Failed> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let original: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("not JSON: {e}"))?;
    let encoded = v2026_07_28::__roundtrip(definition, &text)
        .ok_or_else(|| format!("no generated type for definition `{definition}`"))?
        .map_err(|e| format!("decode as {definition} failed: {e}"))?;
    if encoded != original {
        return Err(format!(
            "round trip changed the value\n original: {original}\n encoded:  {encoded}"
        )
        .into());
    }
    Ok(())
}
