//! Multi round-trip calls of 2026-07-28 under load, by the clock: two `everything-server`
//! instances (rmcp's Streamable HTTP server with `mcp_typed_rmcp::Eras`) started with the same
//! random `MRTR_STATE_KEY`, and many concurrent calls of `test_input_required_result_multi_round`
//! whose every retry goes to the OTHER instance: the first request to A, the answer of the first
//! round with its sealed `requestState` to B, the answer of the second round to A. Prints the
//! completions per second, the p50 and p99 latency of whole calls (first request sent to the
//! complete result read), and the calls lost (no answer) or wrongly refused (an answer that is
//! not the expected one), which must be none: the program exits with 1 otherwise. Each call is
//! a user of its own (`Authorization: Bearer load-N`, tokens the instances are told to take as
//! principals: `EVERYTHING_SERVER_TOKENS=load-*`), so that the per-principal quota of the
//! replay store is not what is measured.
//!
//! `--replay-store memory,redis` runs the load once per store, each with new instances, in one
//! run: `memory` (each instance its own store), `redis` (both on one `redis-server` the program
//! starts on a free port: `redis-server` must be on the PATH, e.g. from the Debian package), or
//! `none` (replay allowed). After each completed call its last retry is sent again: to the other
//! instance with a shared store, to the same one with `memory`; an accepted replay counts as a
//! failure.
//!
//! ```text
//! cargo run --release --manifest-path bench/Cargo.toml --bin mrtr_load -- \
//!     [--calls 1000] [--concurrency 1000] [--replay-store memory,redis] [--server PATH]
//!     [--timeout SECS] [--new-connections]
//! ```
//!
//! The requests go over pooled keep-alive HTTP/1.1 connections (a pool per instance);
//! `--new-connections` opens a new one for each request instead. `--timeout` bounds the whole
//! load (120 s by default; each request too): a call unfinished by then counts as lost.
//! Without `--server` it builds the release `everything-server` of the repository's workspace
//! (`cargo build --release -p mcp-typed-examples --bin everything-server`) and runs that. Loopback
//! only; the instances are killed when the program ends, also on an error or a panic. The hidden
//! `--mismatched-keys` starts the two with different keys: every call must then be refused (the
//! check that the program sees a failure).

use std::io::Read as _;
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt as _, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioExecutor;
use serde_json::{json, Value};

#[path = "../provenance.rs"]
mod provenance;
use provenance::{commit, today};

const TOOL: &str = "test_input_required_result_multi_round";
const PROTOCOL: &str = "2026-07-28";
/// Bounds on the options: the load stays within the file descriptors and the time of a run.
const MAX_CALLS: usize = 1_000_000;
const MAX_CONCURRENCY: usize = 5_000;
const MAX_TIMEOUT_SECS: u64 = 3_600;
/// How many failures are printed in full.
const SHOWN_FAILURES: usize = 5;

const USAGE: &str =
    "usage: mrtr_load [--calls N (1000)] [--concurrency N (= calls, at most 5000)] \
[--replay-store memory|redis|none[,…] (memory): a load per store] \
[--server PATH (built if absent)] [--timeout SECS (120): the global timeout of the load] \
[--new-connections: each request on a new connection, no keep-alive]";

/// Where the instances record spent states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Store {
    /// Each instance its own (`--replay-store memory`).
    Memory,
    /// Both on one `redis-server`.
    Redis,
    /// Replay allowed.
    None,
}

impl Store {
    fn name(self) -> &'static str {
        match self {
            Store::Memory => "memory",
            Store::Redis => "redis",
            Store::None => "none",
        }
    }

    /// The instance a completed call's last retry is replayed to (it was sent to A): the other
    /// one when the store is shared; none when replay is allowed.
    fn replay_to(self) -> Option<usize> {
        match self {
            Store::Memory => Some(0),
            Store::Redis => Some(1),
            Store::None => None,
        }
    }
}

struct Options {
    calls: usize,
    concurrency: usize,
    stores: Vec<Store>,
    server: Option<PathBuf>,
    timeout: Duration,
    /// Hidden: the two instances get different keys, so that every retry is refused.
    mismatched_keys: bool,
    /// Each request on a new connection (no keep-alive), rather than one from the pool.
    new_connections: bool,
    /// The arguments as given, for the command printed with the figures.
    args: Vec<String>,
}

fn options() -> Result<Options, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut calls = 1_000;
    let mut concurrency = None;
    let mut server = None;
    let mut timeout = 120;
    let mut mismatched_keys = false;
    let mut new_connections = false;
    let mut stores = vec![Store::Memory];
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut value = || {
            rest.next()
                .ok_or_else(|| format!("{arg} needs a value\n{USAGE}"))
        };
        let number = |text: &String| {
            text.parse::<u64>()
                .map_err(|_| format!("{arg}: not a number: {text}"))
        };
        match arg.as_str() {
            "--calls" => calls = number(value()?)? as usize,
            "--concurrency" => concurrency = Some(number(value()?)? as usize),
            "--server" => server = Some(PathBuf::from(value()?)),
            "--timeout" => timeout = number(value()?)?,
            "--mismatched-keys" => mismatched_keys = true,
            "--new-connections" => new_connections = true,
            "--replay-store" => {
                stores = (value()?.split(','))
                    .map(|name| match name {
                        "memory" => Ok(Store::Memory),
                        "redis" => Ok(Store::Redis),
                        "none" => Ok(Store::None),
                        other => Err(format!("--replay-store: not a store: {other}\n{USAGE}")),
                    })
                    .collect::<Result<_, _>>()?;
            }
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument {other}\n{USAGE}")),
        }
    }
    let concurrency = concurrency.unwrap_or(calls);
    if !(1..=MAX_CALLS).contains(&calls) {
        return Err(format!("--calls: from 1 to {MAX_CALLS}"));
    }
    if !(1..=MAX_CONCURRENCY.min(calls)).contains(&concurrency) {
        return Err(format!(
            "--concurrency: from 1 to the calls, at most {MAX_CONCURRENCY}"
        ));
    }
    if !(1..=MAX_TIMEOUT_SECS).contains(&timeout) {
        return Err(format!("--timeout: from 1 to {MAX_TIMEOUT_SECS} seconds"));
    }
    Ok(Options {
        calls,
        concurrency,
        stores,
        server,
        timeout: Duration::from_secs(timeout),
        mismatched_keys,
        new_connections,
        args,
    })
}

// ---------------------------------------------------------------------------------------------
// The two servers.

/// Builds the release `everything-server` of the workspace and returns the path cargo reports.
fn build_server() -> Result<PathBuf, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    eprintln!("mrtr_load: cargo build --release -p mcp-typed-examples --bin everything-server");
    let output = Command::new(cargo)
        .current_dir(&root)
        .args(["build", "--release", "-p", "mcp-typed-examples"])
        .args(["--bin", "everything-server"])
        .args(["--message-format", "json-render-diagnostics"])
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cargo: {e}"))?;
    if !output.status.success() {
        return Err(format!("building everything-server: {}", output.status));
    }
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|message| message["target"]["name"] == "everything-server")
        .find_map(|message| message["executable"].as_str().map(PathBuf::from))
        .ok_or_else(|| "cargo reported no everything-server executable".into())
}

/// 32 random bytes, as the 64 hex digits of `MRTR_STATE_KEY`.
fn random_key() -> Result<String, String> {
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut file| file.read_exact(&mut bytes))
        .map_err(|e| format!("/dev/urandom: {e}"))?;
    Ok(bytes.iter().map(|byte| format!("{byte:02x}")).collect())
}

/// Two free ports of 127.0.0.1 (both held while the second is found, so they differ).
fn free_ports() -> Result<[u16; 2], String> {
    let bind =
        || TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).map_err(|e| format!("a free port: {e}"));
    let (first, second) = (bind()?, bind()?);
    let port = |listener: &TcpListener| {
        (listener.local_addr())
            .map(|address| address.port())
            .map_err(|e| e.to_string())
    };
    Ok([port(&first)?, port(&second)?])
}

/// An `everything-server` on 127.0.0.1, killed when dropped (also while unwinding a panic).
struct Server {
    child: Child,
    port: u16,
    name: &'static str,
}

impl Server {
    fn start(
        path: &Path,
        port: u16,
        key: &str,
        store: &str,
        name: &'static str,
    ) -> Result<Self, String> {
        let child = Command::new(path)
            .args(["--port", &port.to_string(), "--replay-store", store])
            .env("MRTR_STATE_KEY", key)
            // Every `Bearer load-N` a user of its own (any other is an anonymous caller's).
            .env("EVERYTHING_SERVER_TOKENS", "load-*")
            .env_remove("EVERYTHING_SERVER_RECORD")
            .env_remove("MRTR_REPLAY_STORE")
            .env_remove("MRTR_PRINCIPAL_QUOTA")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("starting {}: {e}", path.display()))?;
        Ok(Self { child, port, name })
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }

    /// Waits until the server accepts connections.
    fn wait_ready(&mut self, deadline: Instant) -> Result<(), String> {
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(format!("server {} exited: {status}", self.name));
            }
            if TcpStream::connect((Ipv4Addr::LOCALHOST, self.port)).is_ok() {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(format!("server {} does not accept connections", self.name));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn cpu_seconds(&self) -> Option<f64> {
        cpu_seconds(&format!("/proc/{}/stat", self.child.id()))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A `redis-server` on a free port of 127.0.0.1, without persistence, killed when dropped.
struct Redis {
    child: Child,
    port: u16,
}

impl Redis {
    fn start() -> Result<Self, String> {
        let port = free_ports()?[0];
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| {
                format!(
                    "starting redis-server ({e}): install it, e.g. `apt-get install redis-server`"
                )
            })?;
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect((Ipv4Addr::LOCALHOST, port)).is_err() {
            if Instant::now() > deadline {
                return Err("redis-server does not accept connections".into());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(Self { child, port })
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// User plus system CPU time of a process, all its threads, from `/proc/PID/stat` (Linux; in
/// the kernel's USER_HZ of 100 ticks a second).
fn cpu_seconds(stat: &str) -> Option<f64> {
    let text = std::fs::read_to_string(stat).ok()?;
    // The fields after the command name, which is in parentheses: utime and stime are the
    // 14th and 15th fields of the line, the 12th and 13th after the name.
    let fields: Vec<&str> = text
        .get(text.rfind(')')? + 1..)?
        .split_whitespace()
        .collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

// ---------------------------------------------------------------------------------------------
// One call: three requests, A → B → A.

/// Why a call did not complete as expected.
#[derive(Debug)]
enum Failure {
    /// No answer: a transport error, a timeout, a body without the response.
    Lost(String),
    /// An answer that is not the expected one: an HTTP error status, a JSON-RPC error, another
    /// result.
    Refused(String),
    /// A completed call's last retry, sent again, was served again.
    ReplayAccepted(String),
}

/// The times of a completed call: the whole, and each of its three requests.
struct Times {
    whole: Duration,
    steps: [Duration; 3],
}

/// The HTTP/1.1 client of the load: hyper-util's, with a pool of connections per server.
type Http = hyper_util::client::legacy::Client<
    hyper_util::client::legacy::connect::HttpConnector,
    Full<Bytes>,
>;

struct Client {
    http: Http,
    urls: [hyper::Uri; 2],
    ids: AtomicU64,
    meta: Value,
    /// How long one request may take, its body read.
    timeout: Duration,
    /// The instance a completed call's last retry is sent to again.
    replay_to: Option<usize>,
    /// The calls made so far: each call's principal.
    users: AtomicU64,
}

impl Client {
    /// Posts one `tools/call` and returns its `result`.
    async fn post(
        &self,
        user: u64,
        step: usize,
        server: usize,
        params: Value,
    ) -> Result<Value, Failure> {
        let id = self.ids.fetch_add(1, Ordering::Relaxed);
        let mut params = params;
        params["_meta"] = self.meta.clone();
        let body = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params});
        let at = |what: String| format!("step {step} (server {}): {what}", ["A", "B"][server]);
        let request = hyper::Request::post(self.urls[server].clone())
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", PROTOCOL)
            // The standard headers of 2026-07-28 (SEP-2243), which rmcp checks.
            .header("Mcp-Method", "tools/call")
            .header("Mcp-Name", TOOL)
            .header("Authorization", format!("Bearer load-{user}"))
            .body(Full::new(Bytes::from(body.to_string())))
            .map_err(|e| Failure::Lost(at(format!("request: {e}"))))?;
        let exchange = async {
            let response = self
                .http
                .request(request)
                .await
                .map_err(|e| format!("{e:?}"))?;
            let (parts, body) = response.into_parts();
            let body = body.collect().await.map_err(|e| format!("body: {e:?}"))?;
            Ok::<_, String>((parts, body.to_bytes()))
        };
        let (parts, body) = tokio::time::timeout(self.timeout, exchange)
            .await
            .map_err(|_| Failure::Lost(at(format!("no answer within {:?}", self.timeout))))?
            .map_err(|e| Failure::Lost(at(e)))?;
        let text = String::from_utf8_lossy(&body);
        if !parts.status.is_success() {
            return Err(Failure::Refused(at(format!(
                "HTTP {}: {text}",
                parts.status
            ))));
        }
        let sse = (parts.headers.get("content-type"))
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.starts_with("text/event-stream"));
        let message = response_of(&text, sse, id)
            .ok_or_else(|| Failure::Lost(at(format!("no response {id} in {text:?}"))))?;
        if let Some(error) = message.get("error") {
            return Err(Failure::Refused(at(format!("error {error}"))));
        }
        (message.get("result").cloned())
            .ok_or_else(|| Failure::Refused(at(format!("no result: {message}"))))
    }

    async fn call(&self) -> Result<Times, Failure> {
        let user = self.users.fetch_add(1, Ordering::Relaxed);
        let start = Instant::now();
        let first = self
            .post(user, 1, 0, json!({"name": TOOL, "arguments": {}}))
            .await?;
        let state = input_required(&first, "user_name")
            .map_err(|e| Failure::Refused(format!("step 1 (server A): {e}")))?;
        let one = start.elapsed();

        let answers = json!({"user_name": {"action": "accept", "content": {"name": "Alice"}}});
        let second = self.post(user, 2, 1, retry(state, answers)).await?;
        let state = input_required(&second, "step2")
            .map_err(|e| Failure::Refused(format!("step 2 (server B): {e}")))?;
        let two = start.elapsed();

        let answers = json!({"step2": {"action": "accept", "content": {"color": "blue"}}});
        let last = retry(state, answers);
        let third = self.post(user, 3, 0, last.clone()).await?;
        complete(&third).map_err(|e| Failure::Refused(format!("step 3 (server A): {e}")))?;
        let whole = start.elapsed();
        if let Some(server) = self.replay_to {
            match self.post(user, 4, server, last).await {
                Err(Failure::Refused(why)) if why.contains("-32602") => {}
                Ok(result) => {
                    return Err(Failure::ReplayAccepted(format!(
                        "step 3 replayed to server {}: {result}",
                        ["A", "B"][server]
                    )))
                }
                Err(other) => return Err(other),
            }
        }
        Ok(Times {
            whole,
            steps: [one, two - one, whole - two],
        })
    }
}

fn retry(state: String, answers: Value) -> Value {
    json!({"name": TOOL, "arguments": {}, "inputResponses": answers, "requestState": state})
}

/// The JSON-RPC response with `id`: the JSON body, or the `data:` of the server-sent event that
/// carries it.
fn response_of(text: &str, sse: bool, id: u64) -> Option<Value> {
    let is_it = |message: &Value| message["id"] == id;
    if !sse {
        return serde_json::from_str(text).ok().filter(is_it);
    }
    let text = text.replace("\r\n", "\n");
    text.split("\n\n").find_map(|event| {
        let data: Vec<&str> = (event.lines())
            .filter_map(|line| line.strip_prefix("data:"))
            .map(|data| data.strip_prefix(' ').unwrap_or(data))
            .collect();
        serde_json::from_str(&data.join("\n")).ok().filter(is_it)
    })
}

/// The `requestState` of an `InputRequiredResult` asking for one elicitation under `key`.
fn input_required(result: &Value, key: &str) -> Result<String, String> {
    let asks = result["resultType"] == "input_required"
        && result["inputRequests"][key]["method"] == "elicitation/create";
    match result["requestState"].as_str() {
        Some(state) if asks => Ok(state.to_owned()),
        _ => Err(format!(
            "not an InputRequiredResult asking {key:?}: {result}"
        )),
    }
}

/// A complete result that carries both answers.
fn complete(result: &Value) -> Result<(), String> {
    let complete = matches!(result.get("resultType"), None | Some(Value::Null))
        || result["resultType"] == "complete";
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    if complete && result["isError"] != true && text.contains("Alice") && text.contains("blue") {
        Ok(())
    } else {
        Err(format!("not the complete result: {result}"))
    }
}

// ---------------------------------------------------------------------------------------------
// The load.

struct Outcome {
    times: Vec<Times>,
    lost: Vec<String>,
    refused: Vec<String>,
    replays: Vec<String>,
    /// From the first request to the last call finished.
    wall: Duration,
}

async fn load(client: Arc<Client>, calls: usize, concurrency: usize, timeout: Duration) -> Outcome {
    let permits = Arc::new(tokio::sync::Semaphore::new(concurrency));
    let mut tasks = tokio::task::JoinSet::new();
    let start = Instant::now();
    let deadline = tokio::time::Instant::now() + timeout;
    for _ in 0..calls {
        let (client, permits) = (client.clone(), permits.clone());
        tasks.spawn(async move {
            let _permit = permits
                .acquire_owned()
                .await
                .expect("the semaphore is not closed");
            client.call().await
        });
    }
    let mut outcome = Outcome {
        times: Vec::with_capacity(calls),
        lost: Vec::new(),
        refused: Vec::new(),
        replays: Vec::new(),
        wall: Duration::ZERO,
    };
    loop {
        match tokio::time::timeout_at(deadline, tasks.join_next()).await {
            Ok(None) => break,
            Ok(Some(Ok(Ok(times)))) => outcome.times.push(times),
            Ok(Some(Ok(Err(Failure::Lost(why))))) => outcome.lost.push(why),
            Ok(Some(Ok(Err(Failure::Refused(why))))) => outcome.refused.push(why),
            Ok(Some(Ok(Err(Failure::ReplayAccepted(why))))) => outcome.replays.push(why),
            Ok(Some(Err(e))) => outcome.lost.push(format!("the call's task failed: {e}")),
            Err(_) => {
                let left = tasks.len();
                tasks.abort_all();
                outcome.lost.extend(
                    std::iter::repeat_n("not finished within the global timeout", left)
                        .map(str::to_owned),
                );
                break;
            }
        }
        outcome.wall = start.elapsed();
    }
    outcome
}

/// The value at `quantile` of sorted durations (nearest rank).
fn percentile(sorted: &[Duration], quantile: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = (quantile * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn millis(duration: Duration) -> String {
    let ms = duration.as_secs_f64() * 1e3;
    if ms < 10.0 {
        format!("{ms:.2} ms")
    } else if ms < 100.0 {
        format!("{ms:.1} ms")
    } else {
        format!("{ms:.0} ms")
    }
}

fn run() -> Result<bool, String> {
    let options = options()?;
    let server = match &options.server {
        Some(path) => path.clone(),
        None => build_server()?,
    };
    let mut rows = Vec::new();
    for &store in &options.stores {
        rows.push(load_with(&options, &server, store)?);
    }
    report(&options, rows)
}

/// One load, with new instances (and a new Redis) recording spent states in `store`.
fn load_with(options: &Options, server: &Path, store: Store) -> Result<Row, String> {
    let key = random_key()?;
    let other_key = if options.mismatched_keys {
        random_key()?
    } else {
        key.clone()
    };
    let redis = match store {
        Store::Redis => Some(Redis::start()?),
        _ => None,
    };
    let store_arg = match &redis {
        Some(redis) => format!("redis://127.0.0.1:{}/", redis.port),
        None => store.name().to_owned(),
    };
    let [port_a, port_b] = free_ports()?;
    let mut a = Server::start(server, port_a, &key, &store_arg, "A")?;
    let mut b = Server::start(server, port_b, &other_key, &store_arg, "B")?;
    let ready = Instant::now() + Duration::from_secs(30);
    a.wait_ready(ready)?;
    b.wait_ready(ready)?;

    let mut connector = hyper_util::client::legacy::connect::HttpConnector::new();
    connector.set_connect_timeout(Some(Duration::from_secs(10)));
    connector.set_nodelay(true);
    let mut http = hyper_util::client::legacy::Client::builder(TokioExecutor::new());
    if options.new_connections {
        http.pool_max_idle_per_host(0);
    }
    let http = http.build(connector);
    let url = |server: &Server| {
        (server.url().parse::<hyper::Uri>()).map_err(|e| format!("{}: {e}", server.url()))
    };
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": PROTOCOL,
        "io.modelcontextprotocol/clientInfo": {"name": "mrtr-load", "version": "0.0.0"},
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}, "sampling": {}, "roots": {}},
    });
    let client = Arc::new(Client {
        http,
        urls: [url(&a)?, url(&b)?],
        ids: AtomicU64::new(1),
        meta,
        timeout: options.timeout,
        replay_to: store.replay_to(),
        users: AtomicU64::new(0),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("tokio: {e}"))?;
    let redis_cpu = |redis: &Option<Redis>| {
        (redis.as_ref()).and_then(|redis| cpu_seconds(&format!("/proc/{}/stat", redis.child.id())))
    };
    let cpu_before = [
        a.cpu_seconds(),
        b.cpu_seconds(),
        cpu_seconds("/proc/self/stat"),
        redis_cpu(&redis),
    ];
    let outcome = runtime.block_on(load(
        client,
        options.calls,
        options.concurrency,
        options.timeout,
    ));
    let cpu_after = [
        a.cpu_seconds(),
        b.cpu_seconds(),
        cpu_seconds("/proc/self/stat"),
        redis_cpu(&redis),
    ];
    drop(runtime);
    drop((a, b, redis));
    Ok(Row {
        store,
        outcome,
        cpu_before,
        cpu_after,
    })
}

/// The outcome of one load and the CPU time around it (A, B, this client, Redis).
struct Row {
    store: Store,
    outcome: Outcome,
    cpu_before: [Option<f64>; 4],
    cpu_after: [Option<f64>; 4],
}

fn report(options: &Options, rows: Vec<Row>) -> Result<bool, String> {
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let arch = std::env::consts::ARCH;
    let mut command =
        String::from("cargo run --release --manifest-path bench/Cargo.toml --bin mrtr_load --");
    for arg in &options.args {
        command.push(' ');
        command.push_str(arg);
    }
    println!("| replay store | calls | concurrency | completions/s | p50 (whole call) | p99 (whole call) | lost | wrongly refused | replays accepted |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for row in &rows {
        let outcome = &row.outcome;
        let mut whole: Vec<Duration> = outcome.times.iter().map(|t| t.whole).collect();
        whole.sort_unstable();
        let rate = whole.len() as f64 / outcome.wall.as_secs_f64().max(1e-9);
        println!(
            "| {} | {} | {} | {rate:.0} | {} | {} | {} | {} | {} |",
            row.store.name(),
            options.calls,
            options.concurrency,
            millis(percentile(&whole, 0.5)),
            millis(percentile(&whole, 0.99)),
            outcome.lost.len(),
            outcome.refused.len(),
            match row.store.replay_to() {
                Some(_) => outcome.replays.len().to_string(),
                None => "not checked".into(),
            },
        );
    }
    println!();
    print!(
        "Measured {} on {cores} cores ({arch}), client, both servers and Redis on the same machine",
        today()
    );
    if let Some(commit) = commit() {
        print!(" (commit {commit})");
    }
    println!(", with\n`{command}`.");
    let mut green = true;
    for row in rows {
        green &= details(options, row, cores);
    }
    Ok(green)
}

/// The lines under the table for one load; whether it had no failure.
fn details(options: &Options, row: Row, cores: usize) -> bool {
    let Outcome {
        mut times,
        lost,
        refused,
        replays,
        wall,
    } = row.outcome;
    let completed = times.len();
    let mut whole: Vec<Duration> = times.iter().map(|t| t.whole).collect();
    whole.sort_unstable();
    let mut steps: [Vec<Duration>; 3] = Default::default();
    for t in times.drain(..) {
        for (step, time) in steps.iter_mut().zip(t.steps) {
            step.push(time);
        }
    }
    steps.iter_mut().for_each(|step| step.sort_unstable());
    let store = row.store.name();
    // Three requests a call, and the replay of its last one.
    let requests = completed
        * if row.store.replay_to().is_some() {
            4
        } else {
            3
        };
    println!(
        "- `{store}`: {completed} of {} calls completed in {:.3} s ({requests} requests with the replays, {:.0} requests/s){}.",
        options.calls,
        wall.as_secs_f64(),
        requests as f64 / wall.as_secs_f64().max(1e-9),
        if options.mismatched_keys {
            "; the two instances had DIFFERENT keys (--mismatched-keys)"
        } else {
            ""
        },
    );
    if completed > 0 {
        let step = |i: usize, name: &str| {
            format!(
                "{name} p50 {} / p99 {}",
                millis(percentile(&steps[i], 0.5)),
                millis(percentile(&steps[i], 0.99))
            )
        };
        println!(
            "  Per request: {}; {}; {}. Whole call: max {}.",
            step(0, "1 (A, first)"),
            step(1, "2 (B, retry)"),
            step(2, "3 (A, retry)"),
            millis(*whole.last().unwrap_or(&Duration::ZERO)),
        );
    }
    let used = |i: usize| match (row.cpu_before[i], row.cpu_after[i]) {
        (Some(before), Some(after)) => format!("{:.2} s", after - before),
        _ => "-".into(),
    };
    println!(
        "  CPU time during the load: server A {}, server B {}, this client {}, Redis {} (wall {:.2} s × {cores} cores).",
        used(0),
        used(1),
        used(2),
        used(3),
        wall.as_secs_f64(),
    );
    let kinds = [
        ("lost", &lost),
        ("wrongly refused", &refused),
        ("replay accepted", &replays),
    ];
    for (what, failures) in kinds {
        for failure in failures.iter().take(SHOWN_FAILURES) {
            let mut line = failure.clone();
            if line.len() > 600 {
                let mut end = 600;
                while !line.is_char_boundary(end) {
                    end -= 1;
                }
                line.truncate(end);
                line.push('…');
            }
            eprintln!("{store}: {what}: {line}");
        }
        if failures.len() > SHOWN_FAILURES {
            eprintln!(
                "{store}: … and {} more {what}",
                failures.len() - SHOWN_FAILURES
            );
        }
    }
    let green =
        lost.is_empty() && refused.is_empty() && replays.is_empty() && completed == options.calls;
    if !green {
        eprintln!(
            "mrtr_load: FAILED with `{store}`: {} lost, {} wrongly refused, {} replays accepted of {} calls",
            lost.len(),
            refused.len(),
            replays.len(),
            options.calls
        );
    }
    green
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(message) => {
            eprintln!("mrtr_load: {message}");
            ExitCode::from(2)
        }
    }
}
