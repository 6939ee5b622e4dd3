//! `mcp-check proxy --listen ADDR --upstream URL|--forward`, the Streamable HTTP proxy: the
//! pinned Python SDK 2.3.0's client and server through the `mcp-check` binary in both eras,
//! reverse and forward (`HTTP_PROXY`); every byte and header through the library's proxy to an
//! upstream written here (SSE event by event, GET with `Last-Event-ID`, DELETE); absolute-form
//! requests through the forward proxy to two servers, CONNECT refused; a 502 for an upstream
//! that is not there.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use mcp_typed_tests::installed::{python, python_client_report, python_dir};
use mcp_typed_tests::listening::{accepts, free_port, Listening};
use mcp_wire_check::proxy::http::{self, ForwardProxy, HttpProxy};
use mcp_wire_check::proxy::Limits;
use mcp_wire_check::Checker;
use serde_json::Value;

const MCP_CHECK: &str = env!("CARGO_BIN_EXE_mcp-check");

fn report_path(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcp-check-http-proxy");
    std::fs::create_dir_all(&dir).expect("mkdir");
    dir.join(name)
}

/// A child process killed (and waited for) when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_python_sdk_talks_streamable_http_through_the_proxy_in_both_eras() {
    let server = Listening::start(
        "the Python server",
        |port| {
            let mut command = Command::new(python());
            (command.arg(python_dir().join("server.py"))).args(["--http", &port.to_string()]);
            command
        },
        accepts,
    );
    let port = server.port;

    let report = report_path("python.jsonl");
    let record = report_path("python-record.jsonl");
    let upstream = format!("http://127.0.0.1:{port}");
    let (proxy, stderr, proxy_url) = proxy_process(
        &[
            "--upstream",
            &upstream,
            "--record",
            record.to_str().unwrap(),
        ],
        &report,
    );
    for era in ["2025-11-25", "2026-07-28"] {
        python_client(era, &format!("{proxy_url}/mcp"), None);
    }
    let verdicts = stop_and_read(proxy, stderr, &report);
    both_eras_checked(&verdicts, "http");
    // The recording: read back by `mcp-check FILE`, conversation by conversation (a session, or
    // a sessionless exchange), with the proxy's verdicts.
    recording_checked_as_live(&record, &verdicts);

    // The same through a forward proxy: the client keeps the server's URL and reaches it
    // through HTTP_PROXY; its conversations are named after the server.
    let report = report_path("python-forward.jsonl");
    let (proxy, stderr, proxy_url) = proxy_process(&["--forward"], &report);
    for era in ["2025-11-25", "2026-07-28"] {
        let url = format!("http://127.0.0.1:{port}/mcp");
        python_client(era, &url, Some(&proxy_url));
    }
    let verdicts = stop_and_read(proxy, stderr, &report);
    both_eras_checked(&verdicts, &format!("http://127.0.0.1:{port}"));
}

/// `mcp-check --format json RECORD`: as many messages as the live report, all valid, in
/// several conversations, each message's revision and sender as the proxy found them.
fn recording_checked_as_live(record: &Path, live: &[Value]) {
    let out = Command::new(MCP_CHECK)
        .args(["--format", "json"])
        .arg(record)
        .output()
        .expect("mcp-check runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}: {stdout}", out.status);
    let read: Vec<Value> = (stdout.lines())
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    assert_eq!(read.len(), live.len(), "{stdout}");
    let conversations: std::collections::BTreeSet<&str> =
        read.iter().filter_map(|v| v["file"].as_str()).collect();
    assert!(conversations.len() > 2, "{conversations:?}");
    for (read, live) in read.iter().zip(live) {
        assert_eq!(read["valid"], true, "{read}");
        for member in ["from", "method", "revision", "id"] {
            assert_eq!(read[member], live[member], "{member}: {read} / {live}");
        }
    }
}

/// What a proxy's report of the Python client's run in both eras holds: at least 30 messages
/// of each, the calls, the session of 2025-11-25 as one conversation (`SERVER[SESSION-ID]`,
/// `server` the report's name for a sessionless exchange).
fn both_eras_checked(verdicts: &[Value], server: &str) {
    for era in ["2025-11-25", "2026-07-28"] {
        let of_era: Vec<&Value> = verdicts.iter().filter(|v| v["revision"] == era).collect();
        assert!(of_era.len() >= 30, "{era}: {} messages", of_era.len());
        for (side, method) in [
            ("client", "tools/call"),
            ("server", "tools/call"),
            ("client", "tools/list"),
            ("server", "notifications/progress"),
        ] {
            assert!(
                of_era
                    .iter()
                    .any(|v| v["from"] == side && v["method"] == method),
                "{era}: no {side} {method}"
            );
        }
        // The 2025-11-25 session is one conversation (`http[<Mcp-Session-Id>]`), with the
        // server's live requests answered by POSTs; 2026-07-28's exchanges stand alone.
        let sessions = of_era.iter().filter(|v| v["file"] != server).count();
        let session_prefix = format!("{server}[");
        assert!(
            of_era.iter().all(|v| v["file"] == server
                || v["file"]
                    .as_str()
                    .is_some_and(|f| f.starts_with(&session_prefix))),
            "{era}: not all of {server}"
        );
        match era {
            "2025-11-25" => {
                assert_eq!(sessions, of_era.len(), "{era}");
                assert!(of_era
                    .iter()
                    .any(|v| v["from"] == "server" && v["method"] == "elicitation/create"));
                assert!(of_era
                    .iter()
                    .any(|v| v["from"] == "client" && v["method"] == "elicitation/create"));
            }
            _ => assert_eq!(sessions, 0, "{era}"),
        }
    }
}

/// `mcp-check proxy --listen 127.0.0.1:0 --format json --report REPORT ARGS…`, its standard
/// error after the first line, and its URL read from that line.
fn proxy_process(args: &[&str], report: &Path) -> (Killed, BufReader<ChildStderr>, String) {
    let mut proxy = Killed(
        Command::new(MCP_CHECK)
            .args(["proxy", "--listen", "127.0.0.1:0", "--format", "json"])
            .args(args)
            .arg("--report")
            .arg(report)
            .stdin(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("mcp-check runs"),
    );
    // The documented first line: `mcp-check: listening on http://127.0.0.1:PORT`.
    let mut stderr = BufReader::new(proxy.0.stderr.take().expect("piped"));
    let mut first = String::new();
    stderr.read_line(&mut first).expect("its first line");
    let proxy_url = first
        .trim()
        .strip_prefix("mcp-check: listening on ")
        .unwrap_or_else(|| panic!("not the documented line: {first:?}"))
        .to_owned();
    assert!(proxy_url.starts_with("http://127.0.0.1:"), "{proxy_url}");
    (proxy, stderr, proxy_url)
}

/// Runs the Python SDK's client against `url` in `era` (through `http_proxy`, an HTTP proxy
/// it must use whatever the environment's `NO_PROXY` says); it must pass.
fn python_client(era: &str, url: &str, http_proxy: Option<&str>) {
    let mut client = Command::new(python());
    client
        .arg(python_dir().join("client.py"))
        .args(["--protocol", era, "--url", url]);
    if let Some(proxy) = http_proxy {
        client
            .env("HTTP_PROXY", proxy)
            .env("http_proxy", proxy)
            .env_remove("NO_PROXY")
            .env_remove("no_proxy")
            // A CGI environment makes clients ignore HTTP_PROXY (httpoxy).
            .env_remove("REQUEST_METHOD");
    }
    let out = client.output().expect("the Python client runs");
    let client = python_client_report(era, &out);
    assert_eq!(client["tools"].as_object().map(|t| t.len()), Some(10));
}

/// Ends the proxy with SIGTERM (status 0, the summary last on standard error); the verdicts of
/// its report, none invalid.
fn stop_and_read(
    mut proxy: Killed,
    mut stderr: BufReader<ChildStderr>,
    report: &Path,
) -> Vec<Value> {
    let pid = proxy.0.id().to_string();
    let killed = Command::new("kill").args(["-TERM", &pid]).status();
    assert!(killed.expect("kill runs").success());
    let status = proxy.0.wait().expect("the proxy ends");
    assert!(status.success(), "{status}");
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).expect("its stderr");
    let verdicts: Vec<Value> = std::fs::read_to_string(report)
        .expect("the proxy's report")
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    let invalid: Vec<&Value> = verdicts.iter().filter(|v| v["valid"] != true).collect();
    assert!(invalid.is_empty(), "{invalid:#?}");
    assert!(
        rest.contains(&format!(
            "mcp-check: {} messages: {0} valid",
            verdicts.len()
        )),
        "{rest}"
    );
    verdicts
}

/// One request as the upstream read it: its head's lines, its body.
#[derive(Debug)]
struct Seen {
    request_line: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Seen {
    fn header(&self, name: &str) -> Option<&str> {
        (self.headers.iter())
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Reads one HTTP/1.1 request (a `Content-Length` body, or none).
fn read_request(stream: &mut BufReader<TcpStream>) -> Seen {
    let mut request_line = String::new();
    stream.read_line(&mut request_line).expect("a request line");
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        stream.read_line(&mut line).expect("a header line");
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':').expect("name: value");
        headers.push((name.to_owned(), value.trim().to_owned()));
    }
    let mut seen = Seen {
        request_line: request_line.trim_end().to_owned(),
        headers,
        body: Vec::new(),
    };
    let length: usize = seen
        .header("content-length")
        .map_or(0, |v| v.parse().expect("a length"));
    seen.body.resize(length, 0);
    stream.read_exact(&mut seen.body).expect("the body");
    seen
}

/// Writes `chunk` in the chunked encoding.
fn chunk(stream: &mut TcpStream, chunk: &[u8]) {
    write!(stream, "{:x}\r\n", chunk.len()).unwrap();
    stream.write_all(chunk).unwrap();
    stream.write_all(b"\r\n").unwrap();
    stream.flush().unwrap();
}

/// The first event of the POST's stream: a message, odd bytes in a comment, CRLF line ends.
const EVENT_1: &[u8] =
    b"id: 1\r\n: \xff\xfe not UTF-8\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\r\n\r\n";
/// The second, sent only once the client has the first.
const EVENT_2: &[u8] = b"event: message\ndata: not json\n\n";

/// The upstream: answers a POST with an event stream in two chunks (the second only once
/// `got_first` says the client has the first), a GET with one event, a DELETE with 200; sends
/// each request it read, and whether the client had the first event within 20 s.
fn upstream(
    listener: TcpListener,
    got_first: mpsc::Receiver<()>,
    seen: mpsc::Sender<(Seen, bool)>,
) {
    for stream in listener.incoming().take(3) {
        let mut stream = stream.expect("a connection");
        let mut reader = BufReader::new(stream.try_clone().expect("clone"));
        let request = read_request(&mut reader);
        let method = request.request_line.split(' ').next().unwrap_or_default();
        let mut streamed = true;
        match method {
            "POST" => {
                stream
                    .write_all(
                        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
                          Mcp-Session-Id: s-1\r\nX-Odd:  two  spaces \r\n\
                          Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n",
                    )
                    .unwrap();
                chunk(&mut stream, EVENT_1);
                streamed = got_first.recv_timeout(Duration::from_secs(20)).is_ok();
                chunk(&mut stream, EVENT_2);
                stream.write_all(b"0\r\n\r\n").unwrap();
            }
            "GET" => {
                let event = b"id: 8\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n";
                write!(
                    stream,
                    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: {}\r\n\
                     Connection: close\r\n\r\n",
                    event.len()
                )
                .unwrap();
                stream.write_all(event).unwrap();
            }
            _ => stream
                .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                .unwrap(),
        }
        stream.flush().unwrap();
        let _ = seen.send((request, streamed));
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into()
}

#[test]
fn every_byte_and_header_passes_and_events_stream_one_by_one() {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).expect("bind");
    let upstream_addr = listener.local_addr().expect("its address");
    let (got_first, first_received) = mpsc::channel();
    let (seen_tx, seen) = mpsc::channel();
    let upstream = std::thread::spawn(move || upstream(listener, first_received, seen_tx));
    let report = report_path("bytes.jsonl");
    let proxy = http::start(HttpProxy {
        listen: SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
        upstream: format!("http://{upstream_addr}/base/"),
        checker: Checker::default(),
        report: Box::new(std::fs::File::create(&report).expect("the report")),
        json: true,
        limits: Default::default(),
        record: None,
        check: true,
    })
    .expect("the proxy starts");
    let base = format!("http://{}", proxy.local_addr());
    let agent = agent();

    // A POST: odd bytes, headers of every kind; its event stream read as it comes.
    let body: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\xff\r\n";
    let response = agent
        .post(&format!("{base}/mcp?x=1&y=%20"))
        .header("Origin", "http://evil.example")
        .header("Mcp-Session-Id", "s-1")
        .header("MCP-Protocol-Version", "2025-11-25")
        .header("X-Custom", "a, b ;c")
        .header("Content-Type", "application/json")
        .send(body)
        .expect("the POST");
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["x-odd"], "two  spaces");
    assert_eq!(response.headers()["mcp-session-id"], "s-1");
    let mut reader = response.into_body().into_reader();
    let mut received = vec![0; EVENT_1.len()];
    reader.read_exact(&mut received).expect("the first event");
    got_first.send(()).expect("the upstream waits");
    reader.read_to_end(&mut received).expect("the rest");
    assert_eq!(received, [EVENT_1, EVENT_2].concat());
    let (post, streamed) = seen.recv().expect("the upstream read the POST");
    assert!(
        streamed,
        "the first event did not reach the client before the second was sent"
    );
    assert_eq!(post.request_line, "POST /base/mcp?x=1&y=%20 HTTP/1.1");
    assert_eq!(post.body, body);
    // Host as the client sent it: the server's DNS-rebinding protection judges the client's.
    let proxy_authority = base.trim_start_matches("http://");
    for (name, value) in [
        ("host", proxy_authority),
        ("origin", "http://evil.example"),
        ("mcp-session-id", "s-1"),
        ("mcp-protocol-version", "2025-11-25"),
        ("x-custom", "a, b ;c"),
    ] {
        assert_eq!(post.header(name), Some(value), "{name}: {:?}", post.headers);
    }

    // A GET stream resumed, then the session's DELETE.
    let response = agent
        .get(&format!("{base}/mcp"))
        .header("Mcp-Session-Id", "s-1")
        .header("Last-Event-ID", "7")
        .header("Accept", "text/event-stream")
        .call()
        .expect("the GET");
    assert_eq!(response.status(), 200);
    let text = response.into_body().read_to_string().expect("its event");
    assert!(text.starts_with("id: 8\ndata: "), "{text}");
    let (get, _) = seen.recv().expect("the upstream read the GET");
    assert_eq!(get.header("last-event-id"), Some("7"));
    let response = agent
        .delete(&format!("{base}/mcp"))
        .header("Mcp-Session-Id", "s-1")
        .call()
        .expect("the DELETE");
    assert_eq!(response.status(), 200);
    let (delete, _) = seen.recv().expect("the upstream read the DELETE");
    assert_eq!(delete.request_line, "DELETE /base/mcp HTTP/1.1");
    upstream.join().expect("the upstream");

    // Every message was checked, in the session: the bad ones reported, none lost.
    let summary = proxy.stop();
    assert_eq!((summary.messages, summary.invalid), (4, 2), "{summary}");
    let verdicts: Vec<Value> = std::fs::read_to_string(&report)
        .expect("the report")
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    let seen: Vec<(&str, &str, bool)> = verdicts
        .iter()
        .map(|v| {
            (
                v["file"].as_str().unwrap_or_default(),
                v["from"].as_str().unwrap_or_default(),
                v["valid"] == true,
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            // The body is not JSON (the byte after the message).
            ("http[s-1]", "client", false),
            ("http[s-1]", "server", true),
            // `not json`.
            ("http[s-1]", "server", false),
            ("http[s-1]", "server", true),
        ]
    );
}

#[test]
fn an_upstream_that_is_not_there_is_a_502() {
    let dead = free_port();
    let proxy = reverse_proxy(format!("http://127.0.0.1:{dead}"), Limits::default())
        .expect("the proxy starts");
    for _ in 0..2 {
        let response = agent()
            .post(&format!("http://{}/mcp", proxy.local_addr()))
            .send(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
            .expect("a response");
        assert_eq!(response.status(), 502);
        let text = response.into_body().read_to_string().expect("its body");
        assert!(text.starts_with("mcp-check proxy: the upstream"), "{text}");
    }
    // Nobody read the requests' bodies: nothing reached a server, nothing to check.
    let summary = proxy.stop();
    assert_eq!(summary.messages, 0, "{summary}");

    // And what cannot start says why.
    let bad = reverse_proxy("https://example.com".into(), Limits::default());
    assert!(bad
        .unwrap_err()
        .to_string()
        .contains("https is not supported"));
}

/// The library's reverse proxy to `upstream` within `limits`, checking, its report dropped.
fn reverse_proxy(upstream: String, limits: Limits) -> std::io::Result<http::Running> {
    http::start(HttpProxy {
        listen: SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
        upstream,
        checker: Checker::default(),
        report: Box::new(std::io::sink()),
        json: false,
        limits,
        record: None,
        check: true,
    })
}

/// Sends `request` as it is on a connection of its own and reads the answer to its end (the
/// request says `Connection: close`): the status line, the head, the body.
fn raw_exchange(proxy: SocketAddr, request: &[u8]) -> (String, String, Vec<u8>) {
    let mut stream = TcpStream::connect(proxy).expect("connect to the proxy");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("a timeout");
    stream.write_all(request).expect("the request");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).expect("the answer");
    let end = (answer.windows(4))
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no head: {:?}", String::from_utf8_lossy(&answer)));
    let head = String::from_utf8_lossy(&answer[..end]).into_owned();
    let status = head.lines().next().unwrap_or_default().to_owned();
    (status, head, answer[end + 4..].to_vec())
}

/// An upstream that answers one request with `response` and sends what it read.
fn one_shot(response: &'static [u8]) -> (SocketAddr, mpsc::Receiver<Seen>) {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).expect("bind");
    let addr = listener.local_addr().expect("its address");
    let (seen_tx, seen) = mpsc::channel();
    std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().expect("a connection");
        let mut reader = BufReader::new(stream.try_clone().expect("clone"));
        let request = read_request(&mut reader);
        stream.write_all(response).expect("the response");
        stream.flush().expect("flushed");
        let _ = seen_tx.send(request);
    });
    (addr, seen)
}

#[test]
fn a_forward_proxy_goes_where_each_request_says_and_refuses_connect() {
    const ANSWER: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\r\n";
    let response = |session: &str| -> &'static [u8] {
        let text = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nMcp-Session-Id: {session}\r\n\
             X-Odd:  two  spaces \r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            ANSWER.len()
        );
        Box::leak([text.as_bytes(), ANSWER].concat().into_boxed_slice())
    };
    // Two servers handing out the same session id: two conversations.
    let (a, seen_a) = one_shot(response("s-1"));
    let (b, seen_b) = one_shot(response("s-1"));
    let report = report_path("forward.jsonl");
    let proxy = http::start_forward(ForwardProxy {
        listen: SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
        checker: Checker::new(Some("2025-11-25".parse().expect("a revision"))),
        report: Box::new(std::fs::File::create(&report).expect("the report")),
        json: true,
        limits: Default::default(),
        record: None,
        check: true,
    })
    .expect("the proxy starts");
    let at = proxy.local_addr();

    // An absolute-form POST, as a client configured with HTTP_PROXY sends it: every byte of
    // the body and the answer unchanged, the target's Host, the proxy's own headers dropped.
    let body: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\xff\r\n";
    let request = [
        format!(
            "POST http://{a}/mcp?x=1&y=%20 HTTP/1.1\r\nHost: stale.example\r\n\
             Proxy-Authorization: Basic eDp5\r\nProxy-Connection: keep-alive\r\n\
             Connection: close\r\nContent-Type: application/json\r\nMcp-Session-Id: s-1\r\n\
             Origin: http://evil.example\r\nX-Custom: a, b ;c\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )
        .as_bytes(),
        body,
    ]
    .concat();
    let (status, head, answer) = raw_exchange(at, &request);
    assert_eq!(status, "HTTP/1.1 200 OK", "{head}");
    assert!(
        head.to_ascii_lowercase().contains("\r\nx-odd: two  spaces"),
        "{head}"
    );
    assert_eq!(answer, ANSWER);
    let post = seen_a.recv().expect("the server read the POST");
    assert_eq!(post.request_line, "POST /mcp?x=1&y=%20 HTTP/1.1");
    assert_eq!(post.body, body);
    let authority = a.to_string();
    for (name, value) in [
        ("host", Some(authority.as_str())),
        ("origin", Some("http://evil.example")),
        ("mcp-session-id", Some("s-1")),
        ("x-custom", Some("a, b ;c")),
        ("proxy-authorization", None),
        ("proxy-connection", None),
    ] {
        assert_eq!(post.header(name), value, "{name}: {:?}", post.headers);
    }
    // The same through the second server.
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let request = format!(
        "POST http://{b}/mcp HTTP/1.1\r\nHost: {b}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nMcp-Session-Id: s-1\r\nContent-Length: {}\r\n\r\n\
         {ping}",
        ping.len()
    );
    let (status, _, answer) = raw_exchange(at, request.as_bytes());
    assert_eq!((status.as_str(), &answer[..]), ("HTTP/1.1 200 OK", ANSWER));
    assert_eq!(
        seen_b.recv().expect("read").request_line,
        "POST /mcp HTTP/1.1"
    );

    // What it cannot carry, it says so: a tunnel (https), a request not meant for a proxy.
    for (request, expected, why) in [
        (
            format!("CONNECT {a} HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\n\r\n"),
            "HTTP/1.1 501 Not Implemented",
            "CONNECT is not supported",
        ),
        (
            format!("GET https://{a}/mcp HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\n\r\n"),
            "HTTP/1.1 501 Not Implemented",
            "only http:// targets",
        ),
        (
            format!("GET /mcp HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\n\r\n"),
            "HTTP/1.1 400 Bad Request",
            "absolute-form",
        ),
    ] {
        let (status, _, text) = raw_exchange(at, request.as_bytes());
        let text = String::from_utf8_lossy(&text);
        assert_eq!(status, expected, "{request}");
        assert!(text.contains(why), "{text}");
    }
    // A server that is not there: a 502.
    let dead = free_port();
    let request = format!(
        "POST http://127.0.0.1:{dead}/mcp HTTP/1.1\r\nHost: 127.0.0.1:{dead}\r\n\
         Connection: close\r\nContent-Length: 2\r\n\r\n{{}}"
    );
    let (status, _, text) = raw_exchange(at, request.as_bytes());
    assert_eq!(status, "HTTP/1.1 502 Bad Gateway");
    assert!(
        String::from_utf8_lossy(&text).starts_with("mcp-check proxy: the upstream"),
        "{}",
        String::from_utf8_lossy(&text)
    );

    // Each server's session is a conversation of its own; what was refused was never checked.
    let summary = proxy.stop();
    assert_eq!((summary.messages, summary.invalid), (4, 1), "{summary}");
    let verdicts: Vec<(String, String, bool)> = std::fs::read_to_string(&report)
        .expect("the report")
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).expect("a JSON line"))
        .map(|v| {
            let text = |key: &str| v[key].as_str().unwrap_or_default().to_owned();
            (text("file"), text("from"), v["valid"] == true)
        })
        .collect();
    let (a, b) = (format!("http://{a}[s-1]"), format!("http://{b}[s-1]"));
    let expected = [
        // The body is not JSON (the bytes after the message).
        (a.clone(), "client".to_owned(), false),
        (a, "server".to_owned(), true),
        (b.clone(), "client".to_owned(), true),
        (b, "server".to_owned(), true),
    ];
    assert_eq!(verdicts, expected);
}

/// A `--listen` address other machines reach is refused without `--allow-remote` (with
/// `--forward` it would be an open proxy), before anything listens; with the flag it listens.
#[test]
fn a_listen_address_other_machines_reach_needs_allow_remote() {
    for mode in [
        &["--forward"][..],
        &["--upstream", "http://127.0.0.1:9"][..],
    ] {
        let out = Command::new(MCP_CHECK)
            .args(["proxy", "--listen", "0.0.0.0:0"])
            .args(mode)
            .stdin(Stdio::null())
            .output()
            .expect("mcp-check runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{mode:?}: {stderr}");
        assert!(
            stderr.contains("--listen 0.0.0.0:0 is reachable from other machines")
                && stderr.contains("--allow-remote")
                && !stderr.contains("listening on"),
            "{mode:?}: {stderr}"
        );
    }
    let out = Command::new(MCP_CHECK)
        .args(["proxy", "--listen", "0.0.0.0:0", "--forward"])
        .output()
        .expect("mcp-check runs");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("an open proxy"),
        "the forward mode says what it would be"
    );

    let mut proxy = Killed(
        Command::new(MCP_CHECK)
            .args([
                "proxy",
                "--listen",
                "0.0.0.0:0",
                "--forward",
                "--allow-remote",
            ])
            .stdin(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("mcp-check runs"),
    );
    let mut first = String::new();
    BufReader::new(proxy.0.stderr.take().expect("piped"))
        .read_line(&mut first)
        .expect("its first line");
    assert!(
        first.starts_with("mcp-check: listening on http://0.0.0.0:"),
        "{first}"
    );
}

/// An upstream that reads each request to its end without keeping its body, and answers with
/// a JSON body of `answer_bytes` bytes, sent in 1 MiB writes (none: a `202 Accepted`).
fn draining_upstream(answer_bytes: usize) -> SocketAddr {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).expect("bind");
    let addr = listener.local_addr().expect("its address");
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut reader = BufReader::new(stream.try_clone().expect("clone"));
            let mut length = 0u64;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 {
                    break;
                }
                if line.trim_end().is_empty() {
                    break;
                }
                if let Some((name, value)) = line.split_once(':') {
                    if name.eq_ignore_ascii_case("content-length") {
                        length = value.trim().parse().expect("a length");
                    }
                }
            }
            let read = std::io::copy(&mut (&mut reader).take(length), &mut std::io::sink());
            assert_eq!(read.expect("the body"), length);
            if answer_bytes == 0 {
                let _ = stream.write_all(
                    b"HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                );
                continue;
            }
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \
                 {answer_bytes}\r\nConnection: close\r\n\r\n"
            );
            let _ = stream.write_all(head.as_bytes());
            let chunk = vec![b'x'; 1 << 20];
            let mut left = answer_bytes;
            while left > 0 {
                let n = left.min(chunk.len());
                if stream.write_all(&chunk[..n]).is_err() {
                    break;
                }
                left -= n;
            }
        }
    });
    addr
}

#[cfg(target_os = "linux")]
#[test]
fn bodies_of_256_mib_each_way_go_through_as_they_come_and_are_not_held() {
    const BODY: usize = 256 << 20;
    let upstream = draining_upstream(BODY);
    let report = report_path("large-bodies.jsonl");
    let (mut proxy, _stderr, url) =
        proxy_process(&["--upstream", &format!("http://{upstream}")], &report);
    let pid = proxy.0.id();
    let address = url.strip_prefix("http://").expect("http://ADDR");
    let mut client = TcpStream::connect(address).expect("connect to the proxy");
    write!(
        client,
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {BODY}\r\n\
         Connection: close\r\n\r\n"
    )
    .expect("the head");
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..BODY / chunk.len() {
        client.write_all(&chunk).expect("a chunk of the body");
    }
    let mut answer = BufReader::new(client);
    let mut status = String::new();
    answer.read_line(&mut status).expect("the status line");
    assert!(status.starts_with("HTTP/1.1 200"), "{status}");
    let read = std::io::copy(&mut answer, &mut std::io::sink()).expect("the answer");
    assert!(read > BODY as u64, "{read} bytes of head and body");
    let peak = mcp_typed_tests::memory_kb(pid, "VmHWM");
    assert!(
        peak < 100 << 10,
        "the proxy held {peak} kB at its peak for 256 MiB each way"
    );
    let killed = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status();
    assert!(killed.expect("kill runs").success());
    assert!(proxy.0.wait().expect("the proxy ends").success());
    let notes: Vec<Value> = std::fs::read_to_string(&report)
        .expect("the report")
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    let expected = format!(
        "a message of {BODY} bytes was forwarded but not checked: it is larger than \
         --max-message-bytes (16777216)"
    );
    assert_eq!(notes.len(), 2, "{notes:#?}");
    assert!(notes.iter().all(|n| n["note"] == expected), "{notes:#?}");
}

#[test]
fn a_request_head_that_does_not_come_is_timed_out() {
    let proxy = reverse_proxy(
        format!("http://{}", draining_upstream(0)),
        Limits {
            header_timeout: Duration::from_secs(1),
            ..Default::default()
        },
    )
    .expect("the proxy starts");
    let mut stream = TcpStream::connect(proxy.local_addr()).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("a timeout");
    let started = Instant::now();
    stream
        .write_all(b"POST /mcp HTTP/1.1\r\nHost: x\r\n")
        .expect("half a head");
    let mut answer = Vec::new();
    // The proxy ends the connection (an error or its end, never the 30 s of this side).
    let _ = stream.read_to_end(&mut answer);
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(900) && waited < Duration::from_secs(10),
        "closed after {waited:?}: {:?}",
        String::from_utf8_lossy(&answer)
    );
    proxy.stop();
}

/// At the cap of connections the proxy accepts no more, and those that come wait in its listen
/// backlog (1,024, not the standard library's 128: past it each would wait a second for a SYN
/// retry), and are served once a place is free.
#[test]
fn connections_past_the_cap_wait_in_the_backlog_and_are_served_when_a_place_frees() {
    let proxy = reverse_proxy(
        format!("http://{}", draining_upstream(0)),
        Limits {
            max_connections: 1,
            ..Default::default()
        },
    )
    .expect("the proxy starts");
    let address = proxy.local_addr();
    // The one place, held by a connection that sends nothing (for the 30 s of the head's timeout).
    let held = TcpStream::connect(address).expect("connect");
    let mut waiting: Vec<TcpStream> = (0..500)
        .map(|i| {
            TcpStream::connect_timeout(&address, Duration::from_millis(500))
                .unwrap_or_else(|e| panic!("connection {i} waited: {e}"))
        })
        .collect();
    let mut last = waiting.pop().expect("a waiting connection");
    last.write_all(b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
        .expect("a request");
    last.set_read_timeout(Some(Duration::from_millis(300)))
        .expect("a timeout");
    let mut byte = [0; 1];
    assert!(
        last.read(&mut byte).is_err(),
        "answered while the place was held"
    );
    // The held connection and the 499 others go: a place frees, and the last is served.
    drop(held);
    drop(waiting);
    last.set_read_timeout(Some(Duration::from_secs(30)))
        .expect("a timeout");
    let mut answer = String::new();
    last.read_to_string(&mut answer).expect("an answer");
    assert!(answer.starts_with("HTTP/1.1 202"), "{answer}");
    proxy.stop();
}

#[test]
fn made_up_session_ids_do_not_pile_up() {
    let report = report_path("sessions.jsonl");
    let proxy = http::start(HttpProxy {
        listen: SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
        upstream: format!("http://{}", draining_upstream(0)),
        checker: Checker::new(Some("2025-11-25".parse().expect("a revision"))),
        report: Box::new(std::fs::File::create(&report).expect("the report")),
        json: true,
        limits: Limits {
            max_sessions: 2,
            ..Default::default()
        },
        record: None,
        check: true,
    })
    .expect("the proxy starts");
    let url = format!("http://{}/mcp", proxy.local_addr());
    for session in ["a", "b", "a", "c", "d"] {
        let response = agent()
            .post(&url)
            .header("Content-Type", "application/json")
            .header("Mcp-Session-Id", session)
            .send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .expect("a response");
        assert_eq!(response.status(), 202);
    }
    let summary = proxy.stop();
    assert_eq!(summary.messages, 5, "{summary}");
    let notes: Vec<String> = std::fs::read_to_string(&report)
        .expect("the report")
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).expect("a JSON line"))
        .filter_map(|line| line["note"].as_str().map(str::to_owned))
        .collect();
    // Two kept: `c` pushes out `b` (`a` was used after it), `d` pushes out `a`.
    assert_eq!(notes.len(), 2, "{notes:#?}");
    assert!(notes[0].starts_with("session b of "), "{notes:#?}");
    assert!(notes[1].starts_with("session a of "), "{notes:#?}");
    assert!(
        notes[0].ends_with("forgotten: more than 2 sessions at once (--max-sessions); a later message of it is checked without its `initialize`"),
        "{notes:#?}"
    );
}
