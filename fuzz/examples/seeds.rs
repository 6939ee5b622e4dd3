//! Writes the seed corpus of every target into `<out>/<target>/` (what `scripts/fuzz.sh` runs
//! from): `cargo run --manifest-path fuzz/Cargo.toml --example seeds -- <out>`.

fn main() {
    let out = std::path::PathBuf::from(std::env::args().nth(1).expect("usage: seeds <out dir>"));
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut count = std::collections::BTreeMap::new();
    for (target, seed) in mcp_typed_fuzz::checks::seeds(&root) {
        let dir = out.join(target);
        std::fs::create_dir_all(&dir).expect("create the corpus folder");
        let n = count.entry(target).or_insert(0);
        *n += 1;
        std::fs::write(dir.join(format!("seed-{n:05}")), seed).expect("write a seed");
    }
    for (target, n) in count {
        println!("{target}: {n} seeds");
    }
}
