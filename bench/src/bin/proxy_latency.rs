//! The latency `mcp-check proxy` adds on Streamable HTTP, by the clock, and what of it the
//! checking costs: one `everything-server` (rmcp's Streamable HTTP server, examples/) and two
//! `mcp-check proxy --listen 127.0.0.1:0 --upstream http://127.0.0.1:PORT` in front of it, the
//! same proxy with checking off (`--no-check`: it forwards, copies and counts, and skips only
//! the checker) and with it on. The same 2026-07-28 stateless calls (each one POST, its answer
//! one SSE event) go by the three routes in turn (direct, unchecked, checked; the route that
//! goes first rotates from call to call), one at a time, each route over its own keep-alive
//! connection. A call's time runs from sending the request to its whole body read. Prints per
//! kind of call the p50 and p99 of each route, the latency each proxy adds (p50 of the
//! difference to the direct call of the same turn), and the ratio of the two: checked over
//! unchecked, overall and per block of calls (median, lowest–highest over the blocks).
//! Every answer must be the expected result, and each proxy's summary must count every
//! message it was sent (each call's request and response): the program exits with 1
//! otherwise.
//!
//! ```text
//! cargo run --release --manifest-path bench/Cargo.toml --bin proxy_latency -- \
//!     [--calls 5000] [--blocks 10] [--warmup 200] [--server PATH] [--mcp-check PATH]
//! ```
//!
//! Without `--server` and `--mcp-check` it builds both in release in the repository's workspace
//! (`cargo build --release -p mcp-typed-examples --bin everything-server -p mcp-wire-check --bin
//! mcp-check`, one build) and runs those. Loopback only; both processes are killed when the
//! program ends, also on an error. The proxy's report goes to a temporary file (text: a line per
//! violation, none expected), its summary read back when it is stopped with SIGTERM.
//!
//! The proxy checks messages off the forwarding path (a thread of its own, see
//! check/src/proxy/http.rs): what is measured is forwarding, plus whatever the checking thread
//! takes from the two cores the client, the server and the proxy share.

use std::io::{BufRead as _, BufReader, Read as _};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt as _, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioExecutor;
use serde_json::{json, Value};

#[path = "../provenance.rs"]
mod provenance;
use provenance::{commit, today};

const PROTOCOL: &str = "2026-07-28";
const MAX_CALLS: usize = 1_000_000;
const USAGE: &str =
    "usage: proxy_latency [--calls N (5000): per kind and route] [--blocks N (10)] \
[--warmup N (200)] [--server PATH] [--mcp-check PATH] (both built if absent)";

struct Options {
    calls: usize,
    blocks: usize,
    warmup: usize,
    server: Option<PathBuf>,
    mcp_check: Option<PathBuf>,
    args: Vec<String>,
}

fn options() -> Result<Options, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut options = Options {
        calls: 5_000,
        blocks: 10,
        warmup: 200,
        server: None,
        mcp_check: None,
        args: args.clone(),
    };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut value = || {
            rest.next()
                .ok_or_else(|| format!("{arg} needs a value\n{USAGE}"))
        };
        let number = |text: &String| {
            (text.parse::<usize>()).map_err(|_| format!("{arg}: not a number: {text}"))
        };
        match arg.as_str() {
            "--calls" => options.calls = number(value()?)?,
            "--blocks" => options.blocks = number(value()?)?,
            "--warmup" => options.warmup = number(value()?)?,
            "--server" => options.server = Some(PathBuf::from(value()?)),
            "--mcp-check" => options.mcp_check = Some(PathBuf::from(value()?)),
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument {other}\n{USAGE}")),
        }
    }
    if !(1..=MAX_CALLS).contains(&options.calls) {
        return Err(format!("--calls: from 1 to {MAX_CALLS}"));
    }
    if !(1..=options.calls).contains(&options.blocks) {
        return Err("--blocks: from 1 to the calls".into());
    }
    if options.warmup > MAX_CALLS {
        return Err(format!("--warmup: at most {MAX_CALLS}"));
    }
    Ok(options)
}

// ---------------------------------------------------------------------------------------------
// The processes.

/// Builds the release `everything-server` and `mcp-check` of the workspace in one build (so
/// that mcp-typed is built once): their paths as cargo reports them.
fn build() -> Result<(PathBuf, PathBuf), String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let args = [
        "build",
        "--release",
        "-p",
        "mcp-typed-examples",
        "--bin",
        "everything-server",
        "-p",
        "mcp-wire-check",
        "--bin",
        "mcp-check",
    ];
    eprintln!("proxy_latency: cargo {}", args.join(" "));
    let output = Command::new(cargo)
        .current_dir(&root)
        .args(args)
        .args(["--message-format", "json-render-diagnostics"])
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cargo: {e}"))?;
    if !output.status.success() {
        return Err(format!("building: {}", output.status));
    }
    let executable = |name: &str| {
        String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .filter(|message| message["target"]["name"] == name)
            .find_map(|message| message["executable"].as_str().map(PathBuf::from))
            .ok_or_else(|| format!("cargo reported no {name} executable"))
    };
    Ok((executable("everything-server")?, executable("mcp-check")?))
}

/// A child process, killed (and waited for) when dropped, also while unwinding.
struct Process {
    child: Child,
    name: &'static str,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> Result<u16, String> {
    TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .map_err(|e| format!("a free port: {e}"))
}

/// 32 random bytes, as the 64 hex digits of `MRTR_STATE_KEY`.
fn random_key() -> Result<String, String> {
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut file| file.read_exact(&mut bytes))
        .map_err(|e| format!("/dev/urandom: {e}"))?;
    Ok(bytes.iter().map(|byte| format!("{byte:02x}")).collect())
}

/// `everything-server` on a free port: the process and its port, once it accepts connections.
fn start_server(path: &Path) -> Result<(Process, u16), String> {
    let port = free_port()?;
    let child = Command::new(path)
        .args(["--port", &port.to_string()])
        .env("MRTR_STATE_KEY", random_key()?)
        .env_remove("EVERYTHING_SERVER_RECORD")
        .env_remove("MRTR_REPLAY_STORE")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("starting {}: {e}", path.display()))?;
    let mut server = Process {
        child,
        name: "everything-server",
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect((Ipv4Addr::LOCALHOST, port)).is_err() {
        if let Ok(Some(status)) = server.child.try_wait() {
            return Err(format!("{} exited: {status}", server.name));
        }
        if Instant::now() > deadline {
            return Err(format!("{} does not accept connections", server.name));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Ok((server, port))
}

/// The proxy in front of `upstream` (with `check` off: `--no-check`): the process, its address
/// (`127.0.0.1:PORT`, from the line it prints once listening) and the rest of its standard
/// error, line by line.
fn start_proxy(
    path: &Path,
    upstream: &str,
    report: &Path,
    check: bool,
) -> Result<(Process, String, mpsc::Receiver<String>), String> {
    let child = Command::new(path)
        .args(["proxy", "--listen", "127.0.0.1:0", "--upstream", upstream])
        .args((!check).then_some("--no-check"))
        .arg("--report")
        .arg(report)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("starting {}: {e}", path.display()))?;
    let mut proxy = Process {
        child,
        name: "mcp-check proxy",
    };
    let stderr = proxy.child.stderr.take().ok_or("the proxy's stderr")?;
    let (lines, received) = mpsc::channel();
    // Drained by a thread to the end, so that the proxy never blocks on a full pipe.
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match received.recv_timeout(left) {
            Ok(line) => {
                if let Some(address) = line.strip_prefix("mcp-check: listening on http://") {
                    return Ok((proxy, address.trim().to_owned(), received));
                }
                eprintln!("mcp-check proxy: {line}");
            }
            Err(_) => {
                let status = proxy.child.try_wait().ok().flatten();
                return Err(format!(
                    "{} printed no `mcp-check: listening on http://ADDR` ({})",
                    proxy.name,
                    status.map_or("still running".into(), |s| s.to_string())
                ));
            }
        }
    }
}

/// Stops the proxy with SIGTERM (it then writes its summary) and returns the number of
/// messages its summary says it checked, and the summary.
fn stop_proxy(
    mut proxy: Process,
    lines: &mpsc::Receiver<String>,
    report: &Path,
) -> Result<(usize, String), String> {
    let pid = proxy.child.id().to_string();
    let status = Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .map_err(|e| format!("kill -TERM {pid}: {e}"))?;
    if !status.success() {
        return Err(format!("kill -TERM {pid}: {status}"));
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    while proxy.child.try_wait().map_err(|e| e.to_string())?.is_none() {
        if Instant::now() > deadline {
            return Err("the proxy did not end on SIGTERM".into());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut text = std::fs::read_to_string(report).unwrap_or_default();
    // The rest of its standard error: the draining thread ends at its end.
    while let Ok(line) = lines.recv_timeout(Duration::from_secs(5)) {
        text.push_str(&line);
        text.push('\n');
    }
    // `mcp-check: N messages: V valid, I with violations (K violations)`.
    let summary = (text.lines().rev())
        .find(|line| line.contains(" messages: "))
        .ok_or_else(|| format!("no summary from the proxy in {text:?}"))?;
    let after = summary.strip_prefix("mcp-check: ").unwrap_or(summary);
    let messages = (after.split(' ').next())
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("not a summary: {summary}"))?;
    Ok((messages, summary.to_owned()))
}

// ---------------------------------------------------------------------------------------------
// The calls.

/// A kind of call: its method, its params (without `_meta`) and a check of its result.
struct Kind {
    name: &'static str,
    method: &'static str,
    /// `Mcp-Name`, for a call that names a tool, resource or prompt.
    header_name: Option<&'static str>,
    params: Value,
    expected: fn(&Value) -> bool,
}

fn kinds() -> Vec<Kind> {
    vec![
        Kind {
            name: "tools/call `test_simple_text`",
            method: "tools/call",
            header_name: Some("test_simple_text"),
            params: json!({"name": "test_simple_text", "arguments": {}}),
            expected: |result| {
                result["content"][0]["text"] == "This is a simple text response for testing."
            },
        },
        Kind {
            name: "tools/list (about 4 kB)",
            method: "tools/list",
            header_name: None,
            params: json!({}),
            expected: |result| result["tools"].as_array().is_some_and(|t| t.len() > 10),
        },
    ]
}

type Http = hyper_util::client::legacy::Client<
    hyper_util::client::legacy::connect::HttpConnector,
    Full<Bytes>,
>;

struct Client {
    http: Http,
    runtime: tokio::runtime::Runtime,
    ids: u64,
}

impl Client {
    /// One call to `url`: its time (request sent to whole body read), or why it failed.
    fn call(&mut self, url: &hyper::Uri, kind: &Kind) -> Result<Duration, String> {
        self.ids += 1;
        let id = self.ids;
        let mut params = kind.params.clone();
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": PROTOCOL,
            "io.modelcontextprotocol/clientInfo": {"name": "proxy-latency", "version": "0.0.0"},
            "io.modelcontextprotocol/clientCapabilities": {},
        });
        let body = json!({"jsonrpc": "2.0", "id": id, "method": kind.method, "params": params});
        let mut request = hyper::Request::post(url.clone())
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", PROTOCOL)
            .header("Mcp-Method", kind.method);
        if let Some(name) = kind.header_name {
            request = request.header("Mcp-Name", name);
        }
        let request = request
            .body(Full::new(Bytes::from(body.to_string())))
            .map_err(|e| format!("request: {e}"))?;
        let http = &self.http;
        let (start, status, body) = self.runtime.block_on(async {
            let start = Instant::now();
            let exchange = async {
                let response = http.request(request).await.map_err(|e| format!("{e:?}"))?;
                let status = response.status();
                let body = response.into_body().collect().await;
                let body = body.map_err(|e| format!("body: {e:?}"))?.to_bytes();
                Ok::<_, String>((status, body))
            };
            let (status, body) = tokio::time::timeout(Duration::from_secs(30), exchange)
                .await
                .map_err(|_| "no answer within 30 s".to_owned())??;
            Ok::<_, String>((start.elapsed(), status, body))
        })?;
        let text = String::from_utf8_lossy(&body);
        if !status.is_success() {
            return Err(format!("HTTP {status}: {text}"));
        }
        let result = response_of(&text, id).and_then(|m| m.get("result").cloned());
        match result {
            Some(result) if (kind.expected)(&result) => Ok(start),
            _ => Err(format!("not the expected answer: {text}")),
        }
    }
}

/// The JSON-RPC response with `id`: the JSON body, or the `data:` of the SSE event carrying it.
fn response_of(text: &str, id: u64) -> Option<Value> {
    let is_it = |message: &Value| message["id"] == id;
    if let Ok(message) = serde_json::from_str::<Value>(text) {
        return Some(message).filter(is_it);
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

/// The routes, in the order of [`Times::routes`].
const ROUTES: [&str; 3] = [
    "direct",
    "through the proxy, unchecked",
    "through the proxy",
];

/// The times of one kind, per route ([`ROUTES`]): `routes[r][i]` is call `i`'s turn on route `r`.
struct Times {
    routes: [Vec<Duration>; 3],
}

/// `calls` turns of calls of `kind`, one by each route (after `warmup` untimed turns).
fn measure(
    client: &mut Client,
    urls: &[hyper::Uri; 3],
    kind: &Kind,
    calls: usize,
    warmup: usize,
) -> Result<Times, String> {
    let mut times = Times {
        routes: std::array::from_fn(|_| Vec::with_capacity(calls)),
    };
    for i in 0..warmup + calls {
        let mut turn = [Duration::ZERO; 3];
        // Which goes first rotates, so that none always finds the caches warm.
        for step in 0..3 {
            let route = (i + step) % 3;
            turn[route] = client
                .call(&urls[route], kind)
                .map_err(|e| format!("{} {}: {e}", kind.name, ROUTES[route]))?;
        }
        if i >= warmup {
            for (route, time) in turn.into_iter().enumerate() {
                times.routes[route].push(time);
            }
        }
    }
    Ok(times)
}

// ---------------------------------------------------------------------------------------------
// The figures.

/// The value at `quantile` of sorted values (nearest rank).
fn percentile(sorted: &[f64], quantile: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = (quantile * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn sorted(values: impl Iterator<Item = f64>) -> Vec<f64> {
    let mut values: Vec<f64> = values.collect();
    values.sort_by(f64::total_cmp);
    values
}

fn micros(duration: &Duration) -> f64 {
    duration.as_secs_f64() * 1e6
}

/// The p50 of what route `proxied` adds to the direct call of the same turn, over `turns`.
fn added_p50(times: &Times, proxied: usize, turns: std::ops::Range<usize>) -> f64 {
    let direct = &times.routes[0][turns.clone()];
    let through = &times.routes[proxied][turns];
    percentile(
        &sorted(
            direct
                .iter()
                .zip(through)
                .map(|(d, p)| micros(p) - micros(d)),
        ),
        0.5,
    )
}

/// The table row of one kind: p50/p99 of each route, the p50 each proxy adds, and the ratio of
/// the checked proxy's to the unchecked one's, overall and per block.
fn row(kind: &Kind, times: &Times, blocks: usize) -> String {
    let calls = times.routes[0].len();
    let quantiles = |route: usize| {
        let values = sorted(times.routes[route].iter().map(micros));
        format!(
            "{:.0} / {:.0}",
            percentile(&values, 0.5),
            percentile(&values, 0.99)
        )
    };
    let (unchecked, checked) = (added_p50(times, 1, 0..calls), added_p50(times, 2, 0..calls));
    let size = calls.div_ceil(blocks);
    let block_ratios = sorted((0..calls).step_by(size).map(|start| {
        let block = start..(start + size).min(calls);
        added_p50(times, 2, block.clone()) / added_p50(times, 1, block)
    }));
    format!(
        "| {} | {calls} | {} | {} | {} | {unchecked:.0} | {checked:.0} | **{:.2}×** | {:.2}× [{:.2}–{:.2}] |",
        kind.name,
        quantiles(0),
        quantiles(1),
        quantiles(2),
        checked / unchecked,
        percentile(&block_ratios, 0.5),
        block_ratios.first().copied().unwrap_or(f64::NAN),
        block_ratios.last().copied().unwrap_or(f64::NAN),
    )
}

fn run() -> Result<bool, String> {
    let options = options()?;
    let (server_path, check_path) = match (&options.server, &options.mcp_check) {
        (Some(server), Some(check)) => (server.clone(), check.clone()),
        (server, check) => {
            let (built_server, built_check) = build()?;
            (
                server.clone().unwrap_or(built_server),
                check.clone().unwrap_or(built_check),
            )
        }
    };
    let (server, port) = start_server(&server_path)?;
    let report = |name: &str| {
        std::env::temp_dir().join(format!("proxy_latency-{}-{name}.txt", std::process::id()))
    };
    let reports = [report("unchecked"), report("checked")];
    let upstream = format!("http://127.0.0.1:{port}");
    let unchecked = start_proxy(&check_path, &upstream, &reports[0], false)?;
    let checked = start_proxy(&check_path, &upstream, &reports[1], true)?;
    let parse = |url: String| url.parse::<hyper::Uri>().map_err(|e| format!("{url}: {e}"));
    let urls = [
        parse(format!("{upstream}/mcp"))?,
        parse(format!("http://{}/mcp", unchecked.1))?,
        parse(format!("http://{}/mcp", checked.1))?,
    ];
    let mut connector = hyper_util::client::legacy::connect::HttpConnector::new();
    connector.set_nodelay(true);
    // One thread: the client's work stays on one core, as a single caller's would.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("tokio: {e}"))?;
    let http = hyper_util::client::legacy::Client::builder(TokioExecutor::new()).build(connector);
    let mut client = Client {
        http,
        runtime,
        ids: 0,
    };
    let kinds = kinds();
    let mut rows = Vec::new();
    for kind in &kinds {
        let times = measure(&mut client, &urls, kind, options.calls, options.warmup)?;
        rows.push(row(kind, &times, options.blocks));
    }
    let mut summaries = Vec::new();
    for ((proxy, _, lines), report) in [unchecked, checked].into_iter().zip(&reports) {
        summaries.push(stop_proxy(proxy, &lines, report)?);
        let _ = std::fs::remove_file(report);
    }
    drop(server);
    let sent = 2 * kinds.len() * (options.calls + options.warmup);
    println!("| call (2026-07-28, stateless) | turns | direct p50 / p99 (µs) | `mcp-check proxy --no-check` p50 / p99 (µs) | `mcp-check proxy` p50 / p99 (µs) | added p50, unchecked (µs) | added p50, checked (µs) | checked / unchecked | per block of {}: median [lowest–highest] |", options.calls.div_ceil(options.blocks));
    println!("|---|---|---|---|---|---|---|---|---|");
    for row in rows {
        println!("{row}");
    }
    println!(
        "\nMeasured {} on {} cores ({}){}, client, server and both proxies on the same machine,\nwith `cargo run --release --manifest-path bench/Cargo.toml --bin proxy_latency --{}`.\nThe proxies' summaries: `{}` and `{}` ({sent} messages sent through each).",
        today(),
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        std::env::consts::ARCH,
        commit().map_or_else(String::new, |c| format!(" (commit {c})")),
        options.args.iter().map(|a| format!(" {a}")).collect::<String>(),
        summaries[0].1,
        summaries[1].1,
    );
    for (route, (counted, _)) in ROUTES[1..].iter().zip(&summaries) {
        if *counted != sent {
            eprintln!("proxy_latency: FAILED: {route}: the proxy counted {counted} messages of the {sent} sent through it");
            return Ok(false);
        }
    }
    Ok(true)
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(message) => {
            eprintln!("proxy_latency: {message}");
            ExitCode::from(2)
        }
    }
}
