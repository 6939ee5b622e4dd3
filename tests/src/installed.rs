//! The real peers the tests run against, installed on first use so that `cargo test` alone sets
//! everything up: the official TypeScript SDK and server-everything with the Node 22 they run on
//! (npm, pinned by `tests/interop/package-lock.json`), the official Python SDK (PyPI, pinned with
//! hashes by `tests/interop/python/requirements.txt`), the official conformance suite with the
//! Node 22 it runs on (npm, pinned by `tests/interop/conformance/package-lock.json`), and
//! `redis-server` (the Debian package) for the replay store shared by server instances.
//!
//! Each is installed once, under a lock shared by concurrent test processes, and the command run
//! is printed on the terminal (past the test harness's capture). What cannot be installed here
//! (no `npm`, no `python3`) fails the test with what to install: these tests are never skipped.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::listening::Listening;

/// `tests/interop`: the npm peers and their lock file.
pub fn interop_dir() -> PathBuf {
    crate::repo_root().join("tests/interop")
}

/// `tests/interop/python`: the Python peers' scripts and their pinned requirements.
pub fn python_dir() -> PathBuf {
    interop_dir().join("python")
}

/// The folder of the npm package `name` (`@modelcontextprotocol/sdk`), installed by `npm ci`
/// when missing or not the version `package-lock.json` pins. Installing needs `npm` on the PATH.
///
/// The packages go in `tests/interop/node_modules` whatever the target folder: the scripts there
/// (`sdk_client.mjs`, `sdk_example_client.mjs`) import them, and Node finds a script's imports in
/// the `node_modules` beside or above the script, never through a setting.
pub fn npm_package(name: &str) -> PathBuf {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    let dir = interop_dir();
    let pinned = pinned_version(&dir, name);
    let key = format!("node_modules/{name}");
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
            system_npm();
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

/// The Node the npm peers run on: the npm package `node` (a Node 22 binary for this platform,
/// fetched by its install script) pinned by `tests/interop/package-lock.json`, installed with
/// the peers; checked to report the pinned version. The system's `node` only runs `npm`.
pub fn node() -> &'static Path {
    static NODE: OnceLock<PathBuf> = OnceLock::new();
    NODE.get_or_init(|| {
        let node = npm_package("node").join("bin/node");
        let out = Command::new(&node)
            .arg("--version")
            .output()
            .unwrap_or_else(|e| panic!("{}: {e}", node.display()));
        let reported = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        let pinned = pinned_version(&interop_dir(), "node");
        assert_eq!(
            reported,
            format!("v{pinned}"),
            "{} after `npm ci` (were install scripts disabled?)",
            node.display()
        );
        node
    })
}

/// The version of the npm package `name` that `dir`'s `package-lock.json` pins.
fn pinned_version(dir: &Path, name: &str) -> String {
    let lock: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("package-lock.json")).expect("package-lock.json"),
    )
    .expect("package-lock.json is JSON");
    (lock["packages"][&format!("node_modules/{name}")]["version"].as_str())
        .unwrap_or_else(|| panic!("{}/package-lock.json does not pin {name}", dir.display()))
        .to_owned()
}

/// `npm`, checked to run: it installs the npm peers (with the system's `node`, any version
/// that runs it; the peers then run on [`node`]).
fn system_npm() {
    match Command::new("npm").arg("--version").output() {
        Ok(out) if out.status.success() => {}
        Ok(out) => panic!("`npm --version` failed ({})", out.status),
        Err(error) => panic!("`npm` not found ({error}): install Node.js with npm"),
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

/// The report of the pinned Python SDK's interop client (`client.py`: its last line of standard
/// output, JSON) after a run in `era` that must have succeeded: the protocol it spoke, and no
/// error. Panics, saying what the client printed, otherwise.
pub fn python_client_report(era: &str, out: &std::process::Output) -> serde_json::Value {
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{era}: the Python client failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_str(stdout.lines().last().unwrap_or_default()).expect("its report");
    assert_eq!(report["protocol"], era);
    assert_eq!(report["errors"], serde_json::json!([]));
    report
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

/// `tests/interop/conformance`: the conformance suite's `package.json` and its lock file.
pub fn conformance_dir() -> PathBuf {
    interop_dir().join("conformance")
}

/// The official MCP conformance suite (`@modelcontextprotocol/conformance`) and the Node.js it
/// runs on (the npm package `node`, a Node 22 binary for this platform: the suite needs Node 22
/// or later, which the system `node` need not be), both pinned by
/// `tests/interop/conformance/package-lock.json`.
///
/// Installed on first use with `npm ci` in [`target_dir`]`/conformance-suite`, from a copy of
/// the lock file and its `package.json`; a copy of the lock file kept there once the install is
/// complete marks it, so that a changed pin installs again. The `node` package's install script
/// fetches the binary (`npm install node-<os>-<arch>@<version>`): scripts must not be disabled.
/// Installing needs `node` and `npm` on the PATH; running needs nothing more (offline too).
pub fn conformance_suite() -> &'static ConformanceSuite {
    static SUITE: OnceLock<ConformanceSuite> = OnceLock::new();
    SUITE.get_or_init(|| {
        let source = conformance_dir();
        let pinned = std::fs::read_to_string(source.join("package-lock.json"))
            .expect("tests/interop/conformance/package-lock.json");
        let dir = target_dir().join("conformance-suite");
        let suite = ConformanceSuite {
            node: dir.join("node_modules/node/bin/node"),
            cli: dir.join("node_modules/@modelcontextprotocol/conformance/dist/index.js"),
            bin: dir.join("node_modules/.bin"),
            version: pinned_version(&source, "@modelcontextprotocol/conformance"),
            node_version: pinned_version(&source, "node"),
            dir,
        };
        let marker = suite.dir.join("installed-package-lock.json");
        let ready = || {
            std::fs::read_to_string(&marker).is_ok_and(|text| text == pinned)
                && suite.node.is_file()
                && suite.cli.is_file()
        };
        if ready() {
            return suite;
        }
        let _lock = DirLock::acquire(&suite.dir.with_extension("lock"));
        if ready() {
            return suite; // another process installed it meanwhile
        }
        let _ = std::fs::remove_dir_all(&suite.dir);
        std::fs::create_dir_all(&suite.dir).expect("create the conformance suite's folder");
        for file in ["package.json", "package-lock.json"] {
            std::fs::copy(source.join(file), suite.dir.join(file))
                .unwrap_or_else(|e| panic!("copy {file}: {e}"));
        }
        system_npm(); // runs the `node` package's install script too
        run_step(
            Command::new("npm")
                .args(["ci", "--no-audit", "--no-fund", "--prefix"])
                .arg(&suite.dir),
        );
        let out = Command::new(&suite.node)
            .arg("--version")
            .output()
            .unwrap_or_else(|e| panic!("{}: {e}", suite.node.display()));
        let reported = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        assert_eq!(
            reported,
            format!("v{}", suite.node_version),
            "{} after `npm ci` (were install scripts disabled?)",
            suite.node.display()
        );
        std::fs::write(&marker, &pinned).expect("write the marker");
        suite
    })
}

/// The installed conformance suite: see [`conformance_suite`].
#[derive(Debug)]
pub struct ConformanceSuite {
    /// Where it is installed (`package.json`, `node_modules/`).
    pub dir: PathBuf,
    /// The pinned Node binary.
    pub node: PathBuf,
    /// The suite's command-line entry point (`conformance`), a script for [`Self::node`].
    pub cli: PathBuf,
    /// `node_modules/.bin`, first on the PATH of [`Self::command`].
    pub bin: PathBuf,
    /// The pinned version of `@modelcontextprotocol/conformance`.
    pub version: String,
    /// The pinned version of Node (the npm package `node`).
    pub node_version: String,
}

impl ConformanceSuite {
    /// `conformance` (add its arguments) run by the pinned Node, with `node_modules/.bin` first
    /// on the PATH so that any `node` it starts is the pinned one too, and without colours.
    pub fn command(&self) -> Command {
        let mut path = vec![self.bin.clone()];
        path.extend(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        ));
        let mut command = Command::new(&self.node);
        command
            .arg(&self.cli)
            .env("PATH", std::env::join_paths(path).expect("a PATH"))
            .env("NO_COLOR", "1");
        command
    }
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

/// `redis-server`, from the Debian package `redis-server` when it is not on the PATH
/// (`apt-get update`, then `apt-get install -y --no-install-recommends redis-server`, under a
/// lock; the tests run as root). The replay store shared by server instances is tested on it.
pub fn redis_server() -> &'static Path {
    static REDIS: OnceLock<PathBuf> = OnceLock::new();
    REDIS.get_or_init(|| {
        let found = || {
            ["/usr/bin/redis-server", "/usr/local/bin/redis-server"]
                .into_iter()
                .map(PathBuf::from)
                .find(|path| path.is_file())
        };
        if let Some(path) = found() {
            return path;
        }
        let _lock = DirLock::acquire(&target_dir().join("redis-server.lock"));
        if let Some(path) = found() {
            return path; // another process installed it meanwhile
        }
        run_step(Command::new("apt-get").args(["update", "-qq"]));
        run_step(
            Command::new("apt-get")
                .args([
                    "install",
                    "-y",
                    "-qq",
                    "--no-install-recommends",
                    "redis-server",
                ])
                .env("DEBIAN_FRONTEND", "noninteractive"),
        );
        found().unwrap_or_else(|| {
            panic!("redis-server is not on the PATH after installing the Debian package")
        })
    })
}

/// A `redis-server` of its own on a free port of 127.0.0.1, without persistence, killed (and
/// waited for) when dropped.
#[derive(Debug)]
pub struct RedisServer {
    server: Listening,
    /// `redis://127.0.0.1:<port>/`.
    pub url: String,
}

impl RedisServer {
    /// Installs ([`redis_server`]) and starts it, and waits until it answers `PING`.
    pub fn start() -> Self {
        use std::io::{BufRead, BufReader};
        use std::net::{Ipv4Addr, TcpStream};
        let binary = redis_server();
        let pong = |port: u16| {
            let reply = TcpStream::connect((Ipv4Addr::LOCALHOST, port)).and_then(|mut stream| {
                stream.write_all(b"PING\r\n")?;
                let mut line = String::new();
                BufReader::new(stream).read_line(&mut line)?;
                Ok(line)
            });
            reply.is_ok_and(|line| line.starts_with("+PONG"))
        };
        let server = Listening::start(
            "redis-server",
            |port| {
                let mut command = Command::new(binary);
                (command.args(["--port", &port.to_string(), "--bind", "127.0.0.1"])).args([
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--daemonize",
                    "no",
                ]);
                command
            },
            pong,
        );
        let url = format!("redis://127.0.0.1:{}/", server.port);
        Self { server, url }
    }
}

impl RedisServer {
    /// Sends one command (`CONFIG SET maxmemory 1000000`, `INFO memory`) in Redis's inline
    /// form and returns the reply: a status or error line, an integer, or a bulk string's text.
    pub fn command(&self, words: &[&str]) -> String {
        use std::io::{BufRead, BufReader, Read};
        let address = self
            .url
            .trim_start_matches("redis://")
            .trim_end_matches('/');
        let mut stream = std::net::TcpStream::connect(address).expect("redis-server answers");
        stream
            .write_all(format!("{}\r\n", words.join(" ")).as_bytes())
            .expect("a command written");
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        reader.read_line(&mut line).expect("a reply");
        let Some(len) = line.strip_prefix('$') else {
            return line.trim_end().to_owned();
        };
        let len: usize = len.trim_end().parse().expect("a bulk length");
        let mut bulk = vec![0; len];
        reader.read_exact(&mut bulk).expect("a bulk reply");
        String::from_utf8(bulk).expect("UTF-8")
    }

    /// A number of `INFO`'s (`used_memory`, …).
    pub fn info(&self, field: &str) -> u64 {
        let info = self.command(&["INFO", "all"]);
        let value = (info.lines())
            .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
            .unwrap_or_else(|| panic!("no {field} in INFO"));
        value.trim().parse().expect("a number")
    }

    /// Stops the server's process (SIGSTOP): connections are accepted by the kernel and
    /// nothing is answered, as with a server that hangs, until [`RedisServer::resume`].
    pub fn pause(&self) {
        self.signal("-STOP");
    }

    /// Lets a paused server run again (SIGCONT): it then answers what was sent meanwhile.
    pub fn resume(&self) {
        self.signal("-CONT");
    }

    fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([signal, &self.server.pid().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill {signal} failed");
    }
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
    use super::{conformance_dir, interop_dir, pinned_version, target_dir_from};
    use std::ffi::OsString;
    use std::path::PathBuf;

    /// The npm peers and the conformance suite run on one Node: each lock file pins the `node`
    /// it installs (the suite's is installed apart, under the target folder), the same version.
    #[test]
    fn one_node_version_for_every_npm_peer() {
        let interop = pinned_version(&interop_dir(), "node");
        assert_eq!(interop, pinned_version(&conformance_dir(), "node"));
        let major: u32 = interop.split('.').next().unwrap().parse().unwrap();
        assert!(
            major >= 22,
            "Node {interop}: the conformance suite needs 22 or later"
        );
    }

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
