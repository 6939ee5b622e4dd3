//! `mcp-check proxy --listen ADDR --upstream URL`: a reverse proxy between a Streamable HTTP
//! client and server that checks every JSON-RPC message passing through it.
//!
//! **Forwarding.** Every request, whatever its method and path (`/mcp`, and the OAuth metadata
//! paths too), goes to the upstream at the same path (after the upstream URL's own path, if it
//! has one) and query. Headers pass unchanged both ways, `Host` and `Origin` included (so the
//! server's DNS-rebinding protection judges what the client sent), except the hop-by-hop ones
//! HTTP requires a proxy to drop (`Connection` and those it names, `Keep-Alive`, `TE`,
//! `Trailer`, `Transfer-Encoding`, `Upgrade`, `Proxy-Connection`). Bodies are streamed: each
//! chunk is passed on as it arrives, so an SSE response (on a POST or a GET, resumed with
//! `Last-Event-ID` or not) reaches the client event by event. An upstream that cannot be
//! reached is a `502 Bad Gateway` to the client; the proxy itself never refuses a request.
//! HTTP/1.1 on both sides, plain `http://` upstreams.
//!
//! **Checking, off the forwarding path.** The forwarding tasks only push copies of the bytes
//! into an unbounded channel (never waiting); a thread of its own reassembles them: a POST
//! body is what the client sent (one message, or each member of a batch), a JSON response body
//! or the `data` of each SSE event is what the server sent. JSON that is not JSON-RPC (OAuth
//! metadata, client registrations, OAuth errors: neither `jsonrpc` nor `method`) is not MCP
//! traffic and is not checked, except as the successful answer to a JSON-RPC request; a body
//! sent as `application/json` that is not JSON is reported. Conversations:
//!
//! - an exchange with an `Mcp-Session-Id` (on the request, or on the response that opens the
//!   session) belongs to that session's [`Checker`], kept until a successful `DELETE`;
//! - an exchange without one (2026-07-28's stateless wire, or a server without sessions) is a
//!   conversation of its own: its request states its revision (`_meta`, or the
//!   `MCP-Protocol-Version` header, which feeds [`Entry::header_version`]), and the response in
//!   the same exchange answers that request, whatever ids other clients reuse.
//!
//! A request's body is checked once the response's head says which conversation it belongs
//! to, and the server's messages of an exchange after the client's.
//!
//! **Reports.** As the stdio proxy's, a line per violation (text) or per message (JSON), each
//! written when found; `file` is `http` for a sessionless exchange and `http[SESSION-ID]` for
//! a session's, `line` is the exchange's number (from 1, in the order requests arrived), and a
//! JSON line also carries the message's `id`.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::task::{Context, Poll};
use std::thread;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{combinators::BoxBody, BodyExt, Full};
use hyper::body::{Body, Frame, Incoming};
use hyper::header::{HeaderMap, HeaderName, CONNECTION, CONTENT_TYPE};
use hyper::{Method, Request, Response, StatusCode, Uri};
use hyper_util::client::legacy::{connect::HttpConnector, Client};
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use serde_json::Value;
use tokio::sync::oneshot;

use super::{ReportSink, Reporter};
use crate::report::Summary;
use crate::revision::{Revision, Side};
use crate::session::Checker;
use crate::traffic::Entry;

/// What [`start`] needs.
pub struct HttpProxy {
    /// The address to listen on (port 0: any free port; see [`Running::local_addr`]).
    pub listen: SocketAddr,
    /// The server's base URL, `http://host:port` with an optional path prefix.
    pub upstream: String,
    /// The revision assumed for traffic that states none (`--revision`).
    pub revision: Option<Revision>,
    /// Where the reports go.
    pub report: ReportSink,
    /// A JSON line per message instead of a line per violation.
    pub json: bool,
}

impl std::fmt::Debug for HttpProxy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpProxy")
            .field("listen", &self.listen)
            .field("upstream", &self.upstream)
            .field("revision", &self.revision)
            .field("json", &self.json)
            .finish_non_exhaustive()
    }
}

/// A proxy running on threads of its own; [`Running::stop`] (or dropping it) ends it.
#[derive(Debug)]
pub struct Running {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<thread::JoinHandle<Summary>>,
}

impl Running {
    /// The address it listens on (with the port chosen, for port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops accepting and forwarding, checks what was copied, and returns the totals.
    pub fn stop(mut self) -> Summary {
        self.shut_down()
    }

    fn shut_down(&mut self) -> Summary {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        (self.thread.take())
            .and_then(|thread| thread.join().ok())
            .unwrap_or_default()
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.shut_down();
    }
}

/// Binds `proxy.listen` and starts forwarding to `proxy.upstream` (its runtime and its
/// checker on threads of their own). Errors: the upstream URL is not `http://host[:port][/path]`,
/// the address cannot be bound.
pub fn start(proxy: HttpProxy) -> std::io::Result<Running> {
    let upstream = Upstream::parse(&proxy.upstream)?;
    let listener = std::net::TcpListener::bind(proxy.listen)?;
    listener.set_nonblocking(true)?;
    let addr = listener.local_addr()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("mcp-check-http")
        .enable_all()
        .build()?;
    let (copies, received) = mpsc::channel();
    let (revision, report, json) = (proxy.revision, proxy.report, proxy.json);
    let checker = thread::Builder::new()
        .name("mcp-check-checker".into())
        .spawn(move || check_all(received, revision, Reporter::new(report, json)))?;
    let (stop, stopped) = oneshot::channel();
    let thread = thread::Builder::new()
        .name("mcp-check-proxy".into())
        .spawn(move || {
            let shared = Arc::new(Shared {
                // The timer lets idle upstream connections expire (90 s).
                client: Client::builder(TokioExecutor::new())
                    .pool_timer(TokioTimer::new())
                    .build(HttpConnector::new()),
                upstream,
                copies,
                exchanges: AtomicU64::new(0),
            });
            runtime.block_on(accept_all(listener, shared, stopped));
            // Streams still open (a GET SSE stream waits for the server) end here; with them
            // the last senders of copies, which ends the checker.
            runtime.shutdown_timeout(Duration::from_secs(1));
            checker.join().unwrap_or_default()
        })?;
    Ok(Running {
        addr,
        stop: Some(stop),
        thread: Some(thread),
    })
}

/// The upstream's scheme and authority, and the path its requests go under.
#[derive(Debug, Clone)]
struct Upstream {
    authority: String,
    prefix: String,
}

impl Upstream {
    fn parse(url: &str) -> std::io::Result<Upstream> {
        let invalid = |why: String| std::io::Error::new(std::io::ErrorKind::InvalidInput, why);
        let uri: Uri = url
            .parse()
            .map_err(|e| invalid(format!("the upstream URL {url:?}: {e}")))?;
        if uri.scheme_str() != Some("http") || uri.authority().is_none() {
            return Err(invalid(format!(
                "the upstream URL {url:?} is not http://host[:port][/path] (https is not \
                 supported: put the proxy in front of the plain HTTP server)"
            )));
        }
        Ok(Upstream {
            authority: uri.authority().map(ToString::to_string).unwrap_or_default(),
            prefix: uri.path().trim_end_matches('/').to_owned(),
        })
    }

    /// Where a request for `path_and_query` goes.
    fn uri(&self, path_and_query: &str) -> Result<Uri, hyper::http::Error> {
        let path = format!("{}{path_and_query}", self.prefix);
        let path = if path.is_empty() {
            "/".to_owned()
        } else {
            path
        };
        Uri::builder()
            .scheme("http")
            .authority(self.authority.as_str())
            .path_and_query(path)
            .build()
    }
}

/// What every exchange shares.
struct Shared {
    client: Client<HttpConnector, Tap>,
    upstream: Upstream,
    copies: mpsc::Sender<Seen>,
    exchanges: AtomicU64,
}

/// Accepts connections until told to stop; each is served on a task of its own.
async fn accept_all(
    listener: std::net::TcpListener,
    shared: Arc<Shared>,
    mut stopped: oneshot::Receiver<()>,
) {
    let listener = match tokio::net::TcpListener::from_std(listener) {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("mcp-check: cannot listen: {e}");
            return;
        }
    };
    loop {
        let (stream, _) = tokio::select! {
            _ = &mut stopped => return,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of descriptors, a connection reset before it was accepted: try again.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        let shared = shared.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request| {
                let shared = shared.clone();
                async move { Ok::<_, Infallible>(forward(&shared, request).await) }
            });
            // A connection that fails (the client went away) ends alone.
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// The body the proxy answers with: the upstream's, or its own (a 502).
type ProxyBody = BoxBody<Bytes, Box<dyn std::error::Error + Send + Sync>>;

/// Forwards one request to the upstream and its response back, copies going to the checker.
async fn forward(shared: &Shared, request: Request<Incoming>) -> Response<ProxyBody> {
    let exchange = shared.exchanges.fetch_add(1, Ordering::Relaxed) + 1;
    let (mut parts, body) = request.into_parts();
    let header = |headers: &HeaderMap, name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let _ = shared.copies.send(Seen::Open {
        exchange,
        session: header(&parts.headers, "mcp-session-id"),
        version: header(&parts.headers, "mcp-protocol-version"),
        delete: parts.method == Method::DELETE,
        json_request: header(&parts.headers, CONTENT_TYPE.as_str())
            .is_some_and(|t| BodyKind::of(&t) == BodyKind::Json),
    });
    let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    parts.uri = match shared.upstream.uri(path) {
        Ok(uri) => uri,
        Err(e) => return bad_gateway(shared, exchange, &format!("the upstream URL: {e}")),
    };
    remove_hop_by_hop(&mut parts.headers);
    let body = Tap::new(body, exchange, Side::Client, shared.copies.clone());
    let response = match shared
        .client
        .request(Request::from_parts(parts, body))
        .await
    {
        Ok(response) => response,
        Err(e) => return bad_gateway(shared, exchange, &format!("the upstream: {e}")),
    };
    let (mut parts, body) = response.into_parts();
    let content_type = header(&parts.headers, CONTENT_TYPE.as_str()).unwrap_or_default();
    let _ = shared.copies.send(Seen::Head {
        exchange,
        status: parts.status,
        session: header(&parts.headers, "mcp-session-id"),
        kind: BodyKind::of(&content_type),
    });
    remove_hop_by_hop(&mut parts.headers);
    let body = Tap::new(body, exchange, Side::Server, shared.copies.clone());
    Response::from_parts(parts, body.map_err(Into::into).boxed())
}

/// A `502 Bad Gateway`, the exchange ended for the checker.
fn bad_gateway(shared: &Shared, exchange: u64, why: &str) -> Response<ProxyBody> {
    let _ = shared.copies.send(Seen::End { exchange });
    let mut response = Response::new(
        Full::new(Bytes::from(format!("mcp-check proxy: {why}\n")))
            .map_err(|never| match never {})
            .boxed(),
    );
    *response.status_mut() = StatusCode::BAD_GATEWAY;
    response.headers_mut().insert(
        CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// Drops the headers that concern one connection, not the message (RFC 9110 §7.6.1).
fn remove_hop_by_hop(headers: &mut HeaderMap) {
    let named: Vec<HeaderName> = (headers.get_all(CONNECTION).iter())
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|name| HeaderName::from_bytes(name.trim().as_bytes()).ok())
        .collect();
    for name in named {
        headers.remove(name);
    }
    for name in [
        "connection",
        "keep-alive",
        "proxy-connection",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
    ] {
        headers.remove(name);
    }
}

/// A body passed on frame by frame, a copy of each data frame sent to the checker.
struct Tap {
    inner: Incoming,
    exchange: u64,
    side: Side,
    copies: mpsc::Sender<Seen>,
    ended: bool,
}

impl Tap {
    fn new(inner: Incoming, exchange: u64, side: Side, copies: mpsc::Sender<Seen>) -> Tap {
        Tap {
            inner,
            exchange,
            side,
            copies,
            ended: false,
        }
    }

    fn end(&mut self) {
        if !self.ended {
            self.ended = true;
            let exchange = self.exchange;
            let _ = self.copies.send(match self.side {
                Side::Client => Seen::ClientEnd { exchange },
                Side::Server => Seen::End { exchange },
            });
        }
    }
}

impl Body for Tap {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        match &polled {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(bytes) = frame.data_ref() {
                    let copy = Seen::Data {
                        exchange: self.exchange,
                        side: self.side,
                        bytes: bytes.clone(),
                    };
                    let _ = self.copies.send(copy);
                }
            }
            Poll::Ready(_) => self.end(),
            Poll::Pending => {}
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for Tap {
    fn drop(&mut self) {
        // A body dropped before its end (the client or the server went away) ends the copy.
        self.end();
    }
}

/// What the forwarding tells the checker, in the order it happens for each exchange.
#[derive(Debug)]
enum Seen {
    /// A request arrived.
    Open {
        exchange: u64,
        session: Option<String>,
        version: Option<String>,
        delete: bool,
        /// Its `Content-Type` is `application/json`.
        json_request: bool,
    },
    /// A chunk of a body.
    Data {
        exchange: u64,
        side: Side,
        bytes: Bytes,
    },
    /// The request's body is over.
    ClientEnd { exchange: u64 },
    /// The response's head.
    Head {
        exchange: u64,
        status: StatusCode,
        session: Option<String>,
        kind: BodyKind,
    },
    /// The exchange is over (its response body ended, or it failed).
    End { exchange: u64 },
}

/// How a response body carries messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BodyKind {
    Json,
    EventStream,
    /// Anything else (an empty 202, a plain-text error): not read.
    Other,
}

impl BodyKind {
    fn of(content_type: &str) -> BodyKind {
        let media = content_type.split(';').next().unwrap_or_default().trim();
        if media.eq_ignore_ascii_case("application/json") {
            BodyKind::Json
        } else if media.eq_ignore_ascii_case("text/event-stream") {
            BodyKind::EventStream
        } else {
            BodyKind::Other
        }
    }
}

/// One exchange as the checker sees it.
#[derive(Default)]
struct Exchange {
    session: Option<String>,
    version: Option<String>,
    delete: bool,
    json_request: bool,
    /// Its request carried JSON-RPC.
    mcp: bool,
    client: Vec<u8>,
    client_done: bool,
    head: Option<(StatusCode, BodyKind)>,
    /// Server bytes not yet read (all of a JSON body; an event stream's incomplete line).
    server: Vec<u8>,
    events: EventStream,
    /// Whether the request's messages were checked (the server's wait for them).
    client_checked: bool,
    /// The conversation of a sessionless exchange.
    own: Option<Checker>,
}

impl Exchange {
    /// Keeps what the forwarding saw of it.
    fn add(&mut self, seen: Seen) {
        match seen {
            Seen::Data { side, bytes, .. } => match side {
                Side::Client => self.client.extend_from_slice(&bytes),
                Side::Server => self.server.extend_from_slice(&bytes),
            },
            Seen::ClientEnd { .. } => self.client_done = true,
            Seen::Head {
                status,
                session,
                kind,
                ..
            } => {
                self.head = Some((status, kind));
                // The response that opens a session names it.
                self.session = self.session.take().or(session);
            }
            Seen::Open { .. } | Seen::End { .. } => {}
        }
    }
}

/// The checker's side: exchanges in progress, a checker per session.
struct Conversations {
    assumed: Option<Revision>,
    reporter: Reporter,
    exchanges: HashMap<u64, Exchange>,
    sessions: HashMap<String, Checker>,
}

/// Checks the copies as they come, until every sender is gone; the totals.
fn check_all(
    copies: mpsc::Receiver<Seen>,
    assumed: Option<Revision>,
    reporter: Reporter,
) -> Summary {
    let mut conversations = Conversations {
        assumed,
        reporter,
        exchanges: HashMap::new(),
        sessions: HashMap::new(),
    };
    for seen in copies {
        conversations.take(seen);
    }
    let open: Vec<u64> = conversations.exchanges.keys().copied().collect();
    for exchange in open {
        conversations.take(Seen::End { exchange });
    }
    conversations.reporter.finish()
}

impl Conversations {
    fn take(&mut self, seen: Seen) {
        let exchange = match seen {
            Seen::Open {
                exchange,
                session,
                version,
                delete,
                json_request,
            } => {
                let state = Exchange {
                    session,
                    version,
                    delete,
                    json_request,
                    ..Exchange::default()
                };
                self.exchanges.insert(exchange, state);
                exchange
            }
            Seen::End { exchange } => return self.advance(exchange, true),
            Seen::Data { exchange, .. }
            | Seen::ClientEnd { exchange }
            | Seen::Head { exchange, .. } => {
                // What comes after its end (a request body dropped late) is not read.
                let Some(state) = self.exchanges.get_mut(&exchange) else {
                    return;
                };
                state.add(seen);
                exchange
            }
        };
        self.advance(exchange, false);
    }

    /// Checks what can be checked of `exchange`; with `ended`, all of it, and forgets it.
    fn advance(&mut self, number: u64, ended: bool) {
        let Some(mut exchange) = self.exchanges.remove(&number) else {
            return;
        };
        let ready = exchange.client_done && exchange.head.is_some();
        if !exchange.client_checked && (ready || ended) {
            exchange.client_checked = true;
            let body = std::mem::take(&mut exchange.client);
            // A JSON document that is not JSON-RPC (an OAuth client registration through the
            // proxy) is not MCP traffic; a body sent as JSON that is not JSON is reported.
            let found = messages(&body).into_iter().filter(|message| match message {
                Ok(value) => claims_jsonrpc(value),
                Err(_) => exchange.json_request,
            });
            for message in found.collect::<Vec<_>>() {
                exchange.mcp = true;
                self.check(number, &mut exchange, Side::Client, message);
            }
        }
        if exchange.client_checked {
            let kind = exchange.head.map(|(_, kind)| kind);
            let mut found = Vec::new();
            match kind {
                Some(BodyKind::EventStream) => {
                    let bytes = std::mem::take(&mut exchange.server);
                    found.extend(exchange.events.feed(&bytes));
                }
                Some(BodyKind::Json) if ended => {
                    // What answers JSON-RPC with a success is JSON-RPC; any other JSON (OAuth
                    // metadata, an OAuth error with a 401) only when it says it is.
                    let answer = exchange.mcp
                        && (exchange.head).is_some_and(|(status, _)| status.is_success());
                    let body = std::mem::take(&mut exchange.server);
                    found.extend(messages(&body).into_iter().filter(|message| match message {
                        Ok(value) => answer || claims_jsonrpc(value),
                        Err(_) => answer,
                    }));
                }
                Some(BodyKind::Other) => exchange.server.clear(),
                _ => {}
            }
            for message in found {
                self.check(number, &mut exchange, Side::Server, message);
            }
        }
        if !ended {
            self.exchanges.insert(number, exchange);
            return;
        }
        let deleted =
            exchange.delete && exchange.head.is_some_and(|(status, _)| status.is_success());
        if let (true, Some(session)) = (deleted, &exchange.session) {
            self.sessions.remove(session);
        }
    }

    /// Checks one message of `exchange` in its conversation and reports it.
    fn check(
        &mut self,
        number: u64,
        exchange: &mut Exchange,
        from: Side,
        message: Result<Value, String>,
    ) {
        let entry = Entry {
            line: usize::try_from(number).unwrap_or(usize::MAX),
            from: Some(from),
            header_version: exchange.version.clone(),
            message,
            // A body may hold a batch: each member is written out from its value.
            text: None,
        };
        let assumed = self.assumed;
        let (file, checker) = match &exchange.session {
            Some(session) => (
                format!("http[{session}]"),
                self.sessions
                    .entry(session.clone())
                    .or_insert_with(|| Checker::new(assumed)),
            ),
            None => (
                "http".to_owned(),
                exchange.own.get_or_insert_with(|| Checker::new(assumed)),
            ),
        };
        self.reporter.check(checker, &file, &entry);
    }
}

/// Whether a JSON document presents itself as JSON-RPC: an object with `jsonrpc` or `method`,
/// or a batch holding one.
fn claims_jsonrpc(value: &Value) -> bool {
    match value {
        Value::Object(object) => object.contains_key("jsonrpc") || object.contains_key("method"),
        Value::Array(batch) => batch.iter().any(claims_jsonrpc),
        _ => false,
    }
}

/// The messages of a body holding JSON: one, or each member of a batch; nothing for an empty
/// body; why it is not JSON otherwise.
fn messages(body: &[u8]) -> Vec<Result<Value, String>> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Vec::new();
    }
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Array(batch)) => batch.into_iter().map(Ok).collect(),
        Ok(message) => vec![Ok(message)],
        Err(e) => vec![Err(format!("not JSON: {e}"))],
    }
}

/// An event stream read as it comes: complete lines, and the `data` of each event, as the SSE
/// spec (WHATWG HTML §9.2.6) reads them. Not `sse-stream` (rmcp's parser, in the tree): it
/// refuses what the spec allows (a line without `:`, an unknown field, a repeated `id` or
/// `event`), and a referee must read a stream as a browser does, not stop where it stops.
#[derive(Debug, Default)]
struct EventStream {
    line: Vec<u8>,
    data: Option<String>,
    /// The last byte fed was a CR: an LF right after it ends the same line.
    after_cr: bool,
}

impl EventStream {
    /// Reads `bytes`; the messages of the events they complete (an event without data, as the
    /// priming event of a resumable stream, is none).
    fn feed(&mut self, bytes: &[u8]) -> Vec<Result<Value, String>> {
        let mut found = Vec::new();
        for &byte in bytes {
            let after_cr = std::mem::replace(&mut self.after_cr, byte == b'\r');
            match byte {
                b'\n' if after_cr => {}
                b'\n' | b'\r' => {
                    let line = std::mem::take(&mut self.line);
                    if let Some(data) = self.line_done(&line) {
                        found.extend(messages(data.as_bytes()));
                    }
                }
                _ => self.line.push(byte),
            }
        }
        found
    }

    /// A complete line; the event's data when it ends one.
    fn line_done(&mut self, line: &[u8]) -> Option<String> {
        if line.is_empty() {
            return self.data.take();
        }
        let line = String::from_utf8_lossy(line);
        let (field, value) = line.split_once(':').unwrap_or((&line, ""));
        if field == "data" {
            let value = value.strip_prefix(' ').unwrap_or(value);
            let data = self.data.get_or_insert_with(String::new);
            if !data.is_empty() {
                data.push('\n');
            }
            data.push_str(value);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_read_across_chunks_and_line_endings() {
        let mut stream = EventStream::default();
        assert!(stream
            .feed(b"id: 1\ndata:\n\n: comment\r\ndata: {\"a\"")
            .is_empty());
        let found = stream.feed(b":1}\r\n\r\ndata: [1,\r\ndata: 2]\r\r");
        let found: Vec<Value> = found.into_iter().map(Result::unwrap).collect();
        assert_eq!(
            found,
            [serde_json::json!({"a": 1}), 1.into(), 2.into()],
            "a message, then a batch split over two data lines"
        );
    }

    #[test]
    fn upstream_urls() {
        let upstream = Upstream::parse("http://127.0.0.1:9/base/").unwrap();
        assert_eq!(
            upstream.uri("/mcp?x=1").unwrap().to_string(),
            "http://127.0.0.1:9/base/mcp?x=1"
        );
        let root = Upstream::parse("http://localhost:9").unwrap();
        assert_eq!(root.uri("/").unwrap().to_string(), "http://localhost:9/");
        for bad in ["https://example.com/", "127.0.0.1:9", "not a url"] {
            assert!(Upstream::parse(bad).is_err(), "{bad}");
        }
    }
}
