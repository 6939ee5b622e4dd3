//! The real peers the tests run against, installed on first use so that `cargo test` alone sets
//! everything up: the official TypeScript SDK and server-everything (npm, pinned by
//! `tests/interop/package-lock.json`), and the official Python SDK (PyPI, pinned with hashes by
//! `tests/interop/python/requirements.txt`).
//!
//! Each is installed once, under a lock shared by concurrent test processes, and the command run
//! is printed on the terminal (past the test harness's capture). What cannot be installed here
//! (no `node`, no `python3`) fails the test with what to install: these tests are never skipped.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::Value;

/// `tests/interop`: the npm peers and their lock file.
pub fn interop_dir() -> PathBuf {
    crate::repo_root().join("tests/interop")
}

/// `tests/interop/python`: the Python peers' scripts and their pinned requirements.
pub fn python_dir() -> PathBuf {
    interop_dir().join("python")
}

/// The folder of the npm package `name` (`@modelcontextprotocol/sdk`), installed by `npm ci`
/// when missing or not the version `package-lock.json` pins. Needs Node 20 or later.
///
/// The packages go in `tests/interop/node_modules` whatever the target folder: the scripts there
/// (`sdk_client.mjs`, `sdk_example_client.mjs`) import them, and Node finds a script's imports in
/// the `node_modules` beside or above the script, never through a setting.
pub fn npm_package(name: &str) -> PathBuf {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    let dir = interop_dir();
    let lock: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("package-lock.json")).expect("package-lock.json"),
    )
    .expect("package-lock.json is JSON");
    let key = format!("node_modules/{name}");
    let pinned = lock["packages"][&key]["version"]
        .as_str()
        .unwrap_or_else(|| panic!("package-lock.json does not pin {name}"))
        .to_owned();
    let package = dir.join(&key);
    let installed = || -> bool {
        std::fs::read_to_string(package.join("package.json"))
            .ok()
            .and_then(|text| serde_json::from_str::<Value>(&text).ok())
            .is_some_and(|manifest| manifest["version"] == pinned.as_str())
    };
    INSTALLED.get_or_init(|| {
        if installed() {
            return;
        }
        let _lock = DirLock::acquire(&dir.join("node_modules.lock"));
        if !installed() {
            node();
            run_step(
                Command::new("npm")
                    .args(["ci", "--no-audit", "--no-fund", "--prefix"])
                    .arg(&dir),
            );
        }
    });
    assert!(
        installed(),
        "{name} {pinned} is not installed after `npm ci`"
    );
    package
}

/// `node`, checked to run.
pub fn node() -> &'static str {
    match Command::new("node").arg("--version").output() {
        Ok(out) if out.status.success() => "node",
        Ok(out) => panic!("`node --version` failed ({})", out.status),
        Err(error) => panic!("`node` not found ({error}): install Node.js 20 or later"),
    }
}

/// The cargo target folder the peers are installed under (those that need not sit beside their
/// scripts, see [`npm_package`]): `$CARGO_TARGET_DIR` when it is set (a relative one is taken from
/// the repository root, where cargo is run), else the checkout's `target/`.
pub fn target_dir() -> PathBuf {
    target_dir_from(std::env::var_os("CARGO_TARGET_DIR"))
}

fn target_dir_from(cargo_target_dir: Option<std::ffi::OsString>) -> PathBuf {
    match cargo_target_dir {
        // An absolute path replaces the root in `join`.
        Some(dir) if !dir.is_empty() => crate::repo_root().join(dir),
        _ => crate::repo_root().join("target"),
    }
}

/// The Python of a virtual environment holding the pinned SDK (hashes checked), made in
/// [`target_dir`]`/python-sdk-venv` on first use with `python3 -m venv` and
/// `pip install --require-hashes`. Needs a Python 3.10 or later on the PATH as `python3`.
pub fn python() -> &'static Path {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON.get_or_init(|| {
        let requirements = python_dir().join("requirements.txt");
        let pinned = std::fs::read_to_string(&requirements).expect("requirements.txt");
        let venv = target_dir().join("python-sdk-venv");
        let python = venv.join("bin/python");
        // A copy of the requirements it was made from marks a complete environment.
        let marker = venv.join("installed-requirements.txt");
        let ready = || std::fs::read_to_string(&marker).is_ok_and(|text| text == pinned);
        if ready() {
            return python;
        }
        let _lock = DirLock::acquire(&venv.with_extension("lock"));
        if ready() {
            return python; // another process made it meanwhile
        }
        let _ = std::fs::remove_dir_all(&venv);
        run_step(
            Command::new(system_python())
                .args(["-m", "venv"])
                .arg(&venv),
        );
        run_step(
            Command::new(&python)
                .args([
                    "-m",
                    "pip",
                    "install",
                    "--quiet",
                    "--disable-pip-version-check",
                ])
                .args(["--require-hashes", "--no-deps", "-r"])
                .arg(&requirements),
        );
        std::fs::write(&marker, &pinned).expect("write the marker");
        python
    })
}

/// `python3`, checked to be 3.10 or later (what `mcp` 2.3.0 needs).
fn system_python() -> &'static str {
    let version = Command::new("python3")
        .args(["-c", "import sys; print(sys.version_info >= (3, 10))"])
        .output()
        .unwrap_or_else(|e| {
            panic!("`python3` not found ({e}): install Python 3.10 or later, with its venv module")
        });
    assert_eq!(
        String::from_utf8_lossy(&version.stdout).trim(),
        "True",
        "python3 is older than 3.10: the Python SDK 2.3.0 needs 3.10 or later"
    );
    "python3"
}

/// Runs one set-up command, saying so on the terminal.
fn run_step(command: &mut Command) {
    let _ = writeln!(std::io::stderr(), "peer set-up: running {command:?}");
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("{command:?}: {e}"));
    assert!(
        out.status.success(),
        "{command:?} failed ({}):\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A lock between processes: a directory only one of them can create. A lock older than ten
/// minutes is from a run that died, and is broken.
struct DirLock(PathBuf);

impl DirLock {
    fn acquire(path: &Path) -> Self {
        if let Some(parent) = path.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        let started = Instant::now();
        loop {
            match std::fs::create_dir(path) {
                Ok(()) => return Self(path.to_owned()),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let stale = std::fs::metadata(path)
                        .and_then(|m| m.modified())
                        .is_ok_and(|t| t.elapsed().unwrap_or_default() > Duration::from_secs(600));
                    if stale {
                        let _ = std::fs::remove_dir(path);
                    }
                    assert!(
                        started.elapsed() < Duration::from_secs(900),
                        "waited 15 minutes for {}",
                        path.display()
                    );
                    std::thread::sleep(Duration::from_millis(200));
                }
                Err(e) => panic!("cannot create {}: {e}", path.display()),
            }
        }
    }
}

impl Drop for DirLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::target_dir_from;
    use std::ffi::OsString;
    use std::path::PathBuf;

    #[test]
    fn peers_follow_cargo_target_dir() {
        let root = crate::repo_root();
        assert_eq!(target_dir_from(None), root.join("target"));
        assert_eq!(target_dir_from(Some(OsString::new())), root.join("target"));
        assert_eq!(
            target_dir_from(Some("/elsewhere/target".into())),
            PathBuf::from("/elsewhere/target")
        );
        assert_eq!(
            target_dir_from(Some("build/cargo".into())),
            root.join("build/cargo")
        );
    }
}
