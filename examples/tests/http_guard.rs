//! The example servers as deployed (`mcp_typed_rmcp::http`): a request head that never ends, and
//! a kept-alive connection left idle, are closed after the header-read timeout while complete
//! requests are served; a body of nested
//! arrays is refused at the first byte past the depth limit, fast and without the memory rmcp's
//! parse takes; an oversized body is refused with 413, by its `Content-Length` or as it is
//! counted. Raw TCP throughout: what is measured is the server, not a client library.

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use mcp_typed_tests::memory_kb;
use serde_json::Value;

mod support;

use support::HttpServer;

/// The server's address, from its URL.
fn address(server: &HttpServer) -> SocketAddr {
    let authority = (server.url.strip_prefix("http://"))
        .and_then(|rest| rest.strip_suffix("/mcp"))
        .expect("http://HOST:PORT/mcp");
    authority.parse().expect("an address")
}

/// What came back for one request.
struct Answer {
    status: u16,
    body: String,
    /// From the first byte sent to the end of the response's head.
    head_after: Duration,
}

/// Sends `head` (without its blank line; `Connection: close` is added) and `body`, the body from
/// another thread, so that the server may answer before it is all sent; reads the answer until
/// the server closes.
fn exchange(to: SocketAddr, head: &str, body: Vec<u8>) -> Answer {
    let mut stream = TcpStream::connect(to).expect("connect");
    stream.set_nodelay(true).expect("nodelay");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("read timeout");
    let started = Instant::now();
    stream
        .write_all(format!("{head}\r\nConnection: close\r\n\r\n").as_bytes())
        .expect("the head");
    let mut writer = stream.try_clone().expect("a second handle");
    // A refused body is not read to its end: the server closes, and this write fails.
    let sending = std::thread::spawn(move || {
        let _ = writer.write_all(&body);
    });
    let mut received = Vec::new();
    let mut head_after = None;
    let mut buffer = [0; 8192];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => received.extend_from_slice(&buffer[..n]),
            // The server closed with bytes of the body unread: a reset, after its answer.
            Err(e) if e.kind() == ErrorKind::ConnectionReset && head_after.is_some() => break,
            Err(e) => panic!("reading the answer: {e} (after {received:?})"),
        }
        if head_after.is_none() && received.windows(4).any(|w| w == b"\r\n\r\n") {
            head_after = Some(started.elapsed());
        }
    }
    let _ = stream.shutdown(std::net::Shutdown::Both);
    let _ = sending.join();
    let text = String::from_utf8_lossy(&received).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("a response head");
    let status = (head.split(' ').nth(1))
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("a status line: {head}"));
    Answer {
        status,
        body: body.to_owned(),
        head_after: head_after.expect("a head"),
    }
}

/// A POST to `/mcp` of `to` with these extra header lines (rmcp refuses a `Host` not its own).
fn post_head(to: SocketAddr, extra: &str) -> String {
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {to}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\n{extra}"
    )
}

/// A 2026-07-28 `tools/list`, answered by rmcp behind the guard.
fn tools_list(to: SocketAddr) -> Answer {
    let body = serde_json::json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/list",
        "params": {"_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "guard-test", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {},
        }},
    })
    .to_string();
    let head = post_head(
        to,
        &format!(
            "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\nContent-Length: {}",
            body.len()
        ),
    );
    exchange(to, &head, body.into_bytes())
}

/// The JSON-RPC error of a refusal: code -32600, id null, and its message.
fn refusal_message(answer: &Answer) -> String {
    let error: Value = serde_json::from_str(&answer.body)
        .unwrap_or_else(|e| panic!("a JSON-RPC error: {e}: {}", answer.body));
    assert_eq!(error["jsonrpc"], "2.0", "{error}");
    assert_eq!(error["id"], Value::Null, "{error}");
    assert_eq!(error["error"]["code"], -32600, "{error}");
    error["error"]["message"]
        .as_str()
        .expect("a message")
        .to_owned()
}

/// A kept-alive connection after one complete exchange (a 404 of no body): idle from then on.
fn idle_after_a_request(to: SocketAddr) -> TcpStream {
    let mut stream = TcpStream::connect(to).expect("connect");
    stream
        .write_all(b"GET /none HTTP/1.1\r\nHost: x\r\n\r\n")
        .expect("a request");
    let mut received = Vec::new();
    let mut byte = [0];
    while !received.ends_with(b"\r\n\r\n") {
        assert_eq!(
            stream.read(&mut byte).expect("the response"),
            1,
            "{received:?}"
        );
        received.push(byte[0]);
    }
    assert!(received.starts_with(b"HTTP/1.1 404"), "{received:?}");
    stream
}

#[test]
fn half_sent_heads_are_closed_after_the_timeout_while_requests_are_served() {
    const HALF_SENT: usize = 1000;
    let timeout = Duration::from_millis(5000);
    let server = HttpServer::start(&[(
        "EVERYTHING_SERVER_HEADER_TIMEOUT_MS",
        &timeout.as_millis().to_string(),
    )]);
    let to = address(&server);
    let first = Instant::now();
    let mut open = Vec::with_capacity(HALF_SENT + 1);
    // The timeout bounds a kept-alive connection waiting for its next request too.
    open.push((Instant::now(), idle_after_a_request(to)));
    for _ in 0..HALF_SENT {
        let mut stream = TcpStream::connect(to).expect("connect");
        stream
            .write_all(b"POST /mcp HTTP/1.1\r\nHost: x\r\n")
            .expect("half a head");
        open.push((Instant::now(), stream));
    }
    let opened_in = first.elapsed();
    // Every half-sent head is still open (none has waited the timeout): a request is served.
    let served = tools_list(to);
    let served_at = first.elapsed();
    assert!(
        served_at < timeout,
        "the request was not served while the heads were open ({served_at:?})"
    );
    assert_eq!(served.status, 200, "{}", served.body);
    assert!(served.body.contains("\"tools\""), "{}", served.body);
    // Then each is closed by the server: end of stream, or a reset.
    let mut earliest_close = Duration::MAX;
    for (opened, mut stream) in open {
        stream
            .set_read_timeout(Some(timeout + Duration::from_secs(20)))
            .expect("read timeout");
        let mut buffer = [0; 1024];
        loop {
            match stream.read(&mut buffer) {
                Ok(0) => break,
                // (hyper may answer before closing)
                Ok(_) => continue,
                Err(e) if e.kind() == ErrorKind::ConnectionReset => break,
                Err(e) => panic!("a half-sent head was not closed by the server: {e}"),
            }
        }
        earliest_close = earliest_close.min(opened.elapsed());
    }
    let all_closed = first.elapsed();
    println!(
        "{HALF_SENT} half-sent heads opened in {opened_in:?}; a tools/list served {served_at:?} \
         after the first, in {:?}; all closed {all_closed:?} after the first (timeout {timeout:?})",
        served.head_after
    );
    // Not closed before the timeout (the first read waited for its own connection's close).
    assert!(
        earliest_close + Duration::from_millis(100) >= timeout,
        "closed after {earliest_close:?}, before the timeout"
    );
    // The server is still serving.
    assert_eq!(tools_list(to).status, 200);
}

/// `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` and `[` up to `size` bytes.
fn nested_arrays(size: usize) -> Vec<u8> {
    let mut body = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"#.to_vec();
    body.resize(size, b'[');
    body
}

/// A 4 MiB body of nested arrays (under the size limit) refused at the depth limit: fast, and
/// without the memory a parse takes (rmcp's took about 900 MB and 7 s for 3.9 MB nested 120
/// deep).
fn deep_body_refused(server: &HttpServer, name: &str) {
    let to = address(server);
    // A first request, so that what serving takes is allocated before measuring.
    assert_eq!(tools_list(to).status, 200);
    let pid = server.pid();
    let rss_before = memory_kb(pid, "VmRSS");
    let body = nested_arrays(4 << 20);
    let head = post_head(to, &format!("Content-Length: {}", body.len()));
    let mut times = Vec::new();
    for _ in 0..3 {
        let answer = exchange(to, &head, body.clone());
        assert_eq!(answer.status, 400, "{}", answer.body);
        assert_eq!(
            refusal_message(&answer),
            "request body nested deeper than 64 arrays or objects"
        );
        times.push(answer.head_after);
    }
    let (rss_after, peak) = (memory_kb(pid, "VmRSS"), memory_kb(pid, "VmHWM"));
    // The peak since the server started, over the resident size before: at most what the
    // refusals added (more if starting up peaked higher).
    let extra_kb = peak.saturating_sub(rss_before);
    println!(
        "{name}: 4 MiB of nested arrays refused in {times:?}; VmRSS {rss_before} kB before, \
         {rss_after} kB after, VmHWM {peak} kB: at most {extra_kb} kB more"
    );
    let fastest = times.iter().min().expect("three");
    assert!(
        *fastest < Duration::from_millis(50),
        "{name}: refused after {fastest:?}"
    );
    assert!(
        extra_kb < 20 * 1024,
        "{name}: {extra_kb} kB more for a refused body"
    );
}

#[test]
fn a_deeply_nested_body_is_refused_before_rmcp_parses_it() {
    let everything = HttpServer::start(&[]);
    deep_body_refused(&everything, "everything-server");
    let booking = HttpServer::start_program(env!("CARGO_BIN_EXE_booking-server"), &[]);
    deep_body_refused(&booking, "booking-server");
}

#[test]
fn an_oversized_body_is_refused_with_413() {
    let booking = HttpServer::start_program(env!("CARGO_BIN_EXE_booking-server"), &[]);
    let to = address(&booking);
    // By its Content-Length, before a byte of it is sent.
    let head = post_head(to, &format!("Content-Length: {}", (4 << 20) + 1));
    let answer = exchange(to, &head, Vec::new());
    assert_eq!(answer.status, 413, "{}", answer.body);
    assert_eq!(
        refusal_message(&answer),
        "request body larger than 4194304 bytes"
    );
    // Chunked, without a length: counted as it is read. A shallow body (one long string), so
    // that only its size is at fault.
    let mut chunked = Vec::new();
    let chunk = format!("\"{}\"", "a".repeat(64 << 10));
    for _ in 0..70 {
        chunked.extend_from_slice(format!("{:x}\r\n{chunk}\r\n", chunk.len()).as_bytes());
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    let answer = exchange(to, &post_head(to, "Transfer-Encoding: chunked"), chunked);
    assert_eq!(answer.status, 413, "{}", answer.body);
    assert_eq!(
        refusal_message(&answer),
        "request body larger than 4194304 bytes"
    );
    // The server still serves.
    assert_eq!(tools_list(to).status, 200);
}
