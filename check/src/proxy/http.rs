//! `mcp-check proxy --listen ADDR --upstream URL` (a reverse proxy) or `--listen ADDR --forward`
//! (a forward proxy): between Streamable HTTP clients and servers, checking every JSON-RPC
//! message passing through.
//!
//! **Where a request goes**, the only difference between the two modes ([`start`],
//! [`start_forward`]):
//!
//! - reverse: every request, whatever its method and path (`/mcp`, and the OAuth metadata paths
//!   too), goes to the upstream at the same path (after the upstream URL's own path, if it has
//!   one) and query; `Host` passes unchanged, as the client sent it (so the server's
//!   DNS-rebinding protection judges what the client sent);
//! - forward: a request names its server, as every request to an HTTP proxy does (RFC 9112
//!   §3.2.2, absolute form: `POST http://127.0.0.1:3000/mcp HTTP/1.1`), and goes there, with
//!   `Host` set to that server (as §3.2.2 requires of a proxy); the client keeps the server's
//!   real URL (what OAuth's protected resource metadata checks) and is pointed at the proxy by
//!   the usual `HTTP_PROXY`/`http_proxy`. One forward proxy carries any number of servers.
//!   Only plain `http://` servers: `CONNECT` (the tunnel a client opens for `https://`, whose
//!   traffic the proxy could not read) is refused with `501 Not Implemented`, as is an
//!   `https://` target; a request not in absolute form is a `400 Bad Request`, and one for the
//!   proxy itself (its port on a loopback name or its own address) a `508 Loop Detected`.
//!
//! **Forwarding**, the same path in both modes. Headers pass unchanged both ways (`Origin`
//! included), except the hop-by-hop ones HTTP requires a proxy to drop (`Connection` and those
//! it names, `Keep-Alive`, `TE`, `Trailer`, `Transfer-Encoding`, `Upgrade`, and the proxy's own
//! `Proxy-Connection`, `Proxy-Authorization`, `Proxy-Authenticate`). Bodies are streamed: each
//! chunk is passed on as it arrives, so an SSE response (on a POST or a GET, resumed with
//! `Last-Event-ID` or not) reaches the client event by event. An upstream that cannot be
//! reached is a `502 Bad Gateway` to the client; past the refusals above, the proxy never
//! refuses a request. HTTP/1.1 on both sides.
//!
//! **Checking, off the forwarding path.** The forwarding tasks only push copies of the bytes
//! into an unbounded channel (never waiting); a thread of its own reassembles them: a POST
//! body is what the client sent (one message, or each member of a batch), a JSON response body
//! or the `data` of each SSE event is what the server sent. JSON that is not JSON-RPC (OAuth
//! metadata, client registrations, OAuth errors: neither `jsonrpc` nor `method`) is not MCP
//! traffic and is not checked, except as the successful answer to a JSON-RPC request; a body
//! sent as `application/json` that is not JSON is reported. Nor is what is not JSON (a token
//! request's form, an authorization redirect). Conversations, per server (the forward proxy
//! keeps those of each upstream authority apart):
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
//! a session's (the forward proxy: `http://HOST:PORT` and `http://HOST:PORT[SESSION-ID]`, the
//! server's authority), `line` is the exchange's number (from 1, in the order requests were
//! forwarded), and a JSON line also carries the message's `id`.

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
use hyper::header::{HeaderMap, HeaderName, HeaderValue, CONNECTION, CONTENT_TYPE, HOST};
use hyper::{Method, Request, Response, StatusCode, Uri};
use hyper_util::client::legacy::{connect::HttpConnector, Client};
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use serde_json::Value;
use tokio::sync::oneshot;

use super::{too_large, Capped, Limits, ReportSink, Reporter};
use crate::report::Summary;
use crate::revision::Side;
use crate::session::Checker;
use crate::traffic::Entry;

/// What [`start`] needs: a reverse proxy in front of one server.
pub struct HttpProxy {
    /// The address to listen on (port 0: any free port; see [`Running::local_addr`]).
    pub listen: SocketAddr,
    /// The server's base URL, `http://host:port` with an optional path prefix.
    pub upstream: String,
    /// The checker each conversation starts as: the revision of traffic that states none
    /// (`--revision`), the extension schemas (`--extension`), … (`Checker::default()`: none).
    pub checker: Checker,
    /// Where the reports go.
    pub report: ReportSink,
    /// A JSON line per message instead of a line per violation.
    pub json: bool,
    /// What the proxy keeps at most.
    pub limits: Limits,
    /// Where to record the traffic (`--record`), as records of [`crate::traffic`].
    pub record: Option<ReportSink>,
    /// Check each message (`false`, `--no-check`: forward, and record, only; the summary
    /// counts the messages).
    pub check: bool,
}

impl std::fmt::Debug for HttpProxy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpProxy")
            .field("listen", &self.listen)
            .field("upstream", &self.upstream)
            .field("checker", &self.checker)
            .field("json", &self.json)
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

/// What [`start_forward`] needs: a forward proxy, each request naming its server.
pub struct ForwardProxy {
    /// The address to listen on (port 0: any free port; see [`Running::local_addr`]).
    pub listen: SocketAddr,
    /// The checker each conversation starts as: the revision of traffic that states none
    /// (`--revision`), the extension schemas (`--extension`), … (`Checker::default()`: none).
    pub checker: Checker,
    /// Where the reports go.
    pub report: ReportSink,
    /// A JSON line per message instead of a line per violation.
    pub json: bool,
    /// What the proxy keeps at most.
    pub limits: Limits,
    /// Where to record the traffic (`--record`), as records of [`crate::traffic`].
    pub record: Option<ReportSink>,
    /// Check each message (`false`, `--no-check`: forward, and record, only; the summary
    /// counts the messages).
    pub check: bool,
}

impl std::fmt::Debug for ForwardProxy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ForwardProxy")
            .field("listen", &self.listen)
            .field("checker", &self.checker)
            .field("json", &self.json)
            .field("limits", &self.limits)
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
    let mode = Mode::Reverse(upstream);
    let reporter = Reporter::new(proxy.report, proxy.json, proxy.record, proxy.check);
    launch(mode, proxy.listen, proxy.checker, reporter, proxy.limits)
}

/// Binds `proxy.listen` and starts forwarding each request to the server its absolute-form
/// target names (its runtime and its checker on threads of their own). Errors: the address
/// cannot be bound.
pub fn start_forward(proxy: ForwardProxy) -> std::io::Result<Running> {
    let reporter = Reporter::new(proxy.report, proxy.json, proxy.record, proxy.check);
    launch(
        Mode::Forward(None),
        proxy.listen,
        proxy.checker,
        reporter,
        proxy.limits,
    )
}

fn launch(
    mode: Mode,
    listen: SocketAddr,
    template: Checker,
    reporter: Reporter,
    limits: Limits,
) -> std::io::Result<Running> {
    let listener = std::net::TcpListener::bind(listen)?;
    // A second `listen` on a listening socket sets its backlog (std binds with 128).
    socket2::SockRef::from(&listener)
        .listen(i32::try_from(limits.listen_backlog).unwrap_or(i32::MAX))?;
    listener.set_nonblocking(true)?;
    let addr = listener.local_addr()?;
    let mode = match mode {
        Mode::Forward(_) => Mode::Forward(Some(addr)),
        reverse => reverse,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("mcp-check-http")
        .enable_all()
        .build()?;
    let (copies, received) = mpsc::channel();
    let checker = thread::Builder::new()
        .name("mcp-check-checker".into())
        .spawn(move || check_all(received, template, reporter, limits))?;
    let (stop, stopped) = oneshot::channel();
    let thread = thread::Builder::new()
        .name("mcp-check-proxy".into())
        .spawn(move || {
            let shared = Arc::new(Shared {
                // The timer lets idle upstream connections expire (90 s).
                client: Client::builder(TokioExecutor::new())
                    .pool_timer(TokioTimer::new())
                    .build(HttpConnector::new()),
                mode,
                copies,
                exchanges: AtomicU64::new(0),
            });
            runtime.block_on(accept_all(listener, shared, limits, stopped));
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

/// How a request's server is found: the one difference between the two proxies.
#[derive(Debug)]
enum Mode {
    /// `--upstream URL`: every request goes to that server.
    Reverse(Upstream),
    /// `--forward`: each request names its server (absolute form); the address it listens on,
    /// which no request may name (it would come back to it, and again, for ever).
    Forward(Option<SocketAddr>),
}

/// Where one request goes.
#[derive(Debug)]
struct Target {
    uri: Uri,
    /// Whose conversations the exchange joins, and the report's `file` (before `[SESSION]`):
    /// `http` behind a reverse proxy (one server), `http://HOST:PORT` behind a forward one.
    server: Arc<str>,
    /// The `Host` the forwarded request carries, when not the client's (forward mode).
    host: Option<HeaderValue>,
}

/// A request the proxy answers itself, with this status and why.
#[derive(Debug)]
struct Refused(StatusCode, String);

impl Mode {
    fn target(&self, method: &Method, uri: &Uri) -> Result<Target, Refused> {
        match self {
            Mode::Reverse(upstream) => {
                let path = uri.path_and_query().map_or("/", |p| p.as_str());
                let uri = upstream.uri(path).map_err(|e| {
                    Refused(StatusCode::BAD_GATEWAY, format!("the upstream URL: {e}"))
                })?;
                Ok(Target {
                    uri,
                    server: Arc::from("http"),
                    host: None,
                })
            }
            Mode::Forward(own) => {
                let target = forward_target(method, uri)?;
                if own.is_some_and(|own| names_itself(&target.uri, own)) {
                    return Err(Refused(
                        StatusCode::LOOP_DETECTED,
                        format!("{uri} is this proxy: the request would come back to it"),
                    ));
                }
                Ok(target)
            }
        }
    }
}

/// The server a forward proxy's request names (RFC 9112 §3.2.2): an absolute-form `http://`
/// target; the authority without user information is both where it goes and its `Host`.
fn forward_target(method: &Method, uri: &Uri) -> Result<Target, Refused> {
    if method == Method::CONNECT {
        return Err(Refused(
            StatusCode::NOT_IMPLEMENTED,
            "CONNECT is not supported: this forward proxy reads the traffic it carries, so it \
             takes plain http:// requests only (an https:// server cannot be checked)"
                .to_owned(),
        ));
    }
    let (Some(scheme), Some(host)) = (uri.scheme_str(), uri.host()) else {
        return Err(Refused(
            StatusCode::BAD_REQUEST,
            format!(
                "a forward proxy takes absolute-form targets (`{method} http://HOST:PORT/PATH`), \
                 not `{uri}`: point the client at it with HTTP_PROXY=http://THIS-ADDRESS, or run \
                 `mcp-check proxy --upstream URL` for a reverse proxy"
            ),
        ));
    };
    if !scheme.eq_ignore_ascii_case("http") {
        return Err(Refused(
            StatusCode::NOT_IMPLEMENTED,
            format!("only http:// targets are supported, not {scheme}://"),
        ));
    }
    let authority = match uri.port_u16() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_owned(),
    };
    let built = Uri::builder()
        .scheme("http")
        .authority(authority.as_str())
        .path_and_query(uri.path_and_query().map_or("/", |p| p.as_str()))
        .build();
    let bad = |e: String| Refused(StatusCode::BAD_REQUEST, format!("the target {uri}: {e}"));
    Ok(Target {
        uri: built.map_err(|e| bad(e.to_string()))?,
        host: Some(HeaderValue::from_str(&authority).map_err(|e| bad(e.to_string()))?),
        server: Arc::from(format!("http://{authority}")),
    })
}

/// Whether `target` names the proxy listening on `own`: its port, on a loopback name or
/// address, or on `own`'s address (any address, when `own` is unspecified).
fn names_itself(target: &Uri, own: SocketAddr) -> bool {
    let host = target.host().unwrap_or_default();
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let address = host.parse::<std::net::IpAddr>().ok();
    target.port_u16().unwrap_or(80) == own.port()
        && (host.eq_ignore_ascii_case("localhost")
            || address.is_some_and(|a| a.is_loopback() || a == own.ip())
            || own.ip().is_unspecified())
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
    mode: Mode,
    copies: mpsc::Sender<Seen>,
    exchanges: AtomicU64,
}

/// Accepts connections until told to stop; each is served on a task of its own.
async fn accept_all(
    listener: std::net::TcpListener,
    shared: Arc<Shared>,
    limits: Limits,
    mut stopped: oneshot::Receiver<()>,
) {
    let listener = match tokio::net::TcpListener::from_std(listener) {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("mcp-check: cannot listen: {e}");
            return;
        }
    };
    let places = Arc::new(tokio::sync::Semaphore::new(limits.max_connections.max(1)));
    loop {
        // At the cap, no accept: new connections wait in the backlog.
        let place = tokio::select! {
            _ = &mut stopped => return,
            place = Arc::clone(&places).acquire_owned() => place.expect("never closed"),
        };
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
            // A connection that fails (the client went away, its head did not come in time)
            // ends alone.
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_timeout)
                .serve_connection(TokioIo::new(stream), service)
                .await;
            drop(place);
        });
    }
}

/// The body the proxy answers with: the upstream's, or its own (a 502).
type ProxyBody = BoxBody<Bytes, Box<dyn std::error::Error + Send + Sync>>;

/// Forwards one request to its server and the response back, copies going to the checker.
async fn forward(shared: &Shared, request: Request<Incoming>) -> Response<ProxyBody> {
    let (mut parts, body) = request.into_parts();
    let target = match shared.mode.target(&parts.method, &parts.uri) {
        Ok(target) => target,
        // Never forwarded, so nothing for the checker.
        Err(Refused(status, why)) => return refusal(status, &why),
    };
    let exchange = shared.exchanges.fetch_add(1, Ordering::Relaxed) + 1;
    let header = |headers: &HeaderMap, name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let _ = shared.copies.send(Seen::Open {
        exchange,
        server: target.server,
        session: header(&parts.headers, "mcp-session-id"),
        version: header(&parts.headers, "mcp-protocol-version"),
        delete: parts.method == Method::DELETE,
        json_request: header(&parts.headers, CONTENT_TYPE.as_str())
            .is_some_and(|t| BodyKind::of(&t) == BodyKind::Json),
    });
    parts.uri = target.uri;
    remove_hop_by_hop(&mut parts.headers);
    if let Some(host) = target.host {
        parts.headers.insert(HOST, host);
    }
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
    refusal(StatusCode::BAD_GATEWAY, why)
}

/// The proxy's own answer: `status`, and why in plain text.
fn refusal(status: StatusCode, why: &str) -> Response<ProxyBody> {
    let mut response = Response::new(
        Full::new(Bytes::from(format!("mcp-check proxy: {why}\n")))
            .map_err(|never| match never {})
            .boxed(),
    );
    *response.status_mut() = status;
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
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
        "proxy-authenticate",
        "proxy-authorization",
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
    /// A request is forwarded.
    Open {
        exchange: u64,
        /// [`Target::server`].
        server: Arc<str>,
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
    /// [`Target::server`].
    upstream: Option<Arc<str>>,
    session: Option<String>,
    version: Option<String>,
    delete: bool,
    json_request: bool,
    /// Its request carried JSON-RPC.
    mcp: bool,
    /// The request's body.
    client: Capped,
    client_done: bool,
    head: Option<(StatusCode, BodyKind)>,
    /// A JSON response body.
    server: Capped,
    /// Or an event stream: its bytes not yet read (they are read once the request's messages
    /// are checked), and the reading of it.
    unread: Vec<u8>,
    events: EventStream,
    /// Whether the request's messages were checked (the server's wait for them).
    client_checked: bool,
    /// The conversation of a sessionless exchange.
    own: Option<Checker>,
}

impl Exchange {
    /// A new exchange, its messages bounded by `limit`.
    fn new(limit: usize) -> Exchange {
        Exchange {
            client: Capped::new(limit),
            server: Capped::new(limit),
            events: EventStream::new(limit),
            ..Exchange::default()
        }
    }

    /// Keeps what the forwarding saw of it: a body up to the limit, an event stream's events
    /// as they complete (each bounded).
    fn add(&mut self, seen: Seen) {
        match seen {
            Seen::Data { side, bytes, .. } => match side {
                Side::Client => self.client.push(&bytes),
                Side::Server if matches!(self.head, Some((_, BodyKind::EventStream))) => {
                    self.unread.extend_from_slice(&bytes);
                }
                Side::Server => self.server.push(&bytes),
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

/// The checker's side: exchanges in progress, a checker per session of each server (a forward
/// proxy's servers may well hand out the same session ids).
struct Conversations {
    /// What each conversation's checker starts as.
    template: Checker,
    reporter: Reporter,
    limits: Limits,
    exchanges: HashMap<u64, Exchange>,
    /// Each session's conversation, with when it was last used (a count of messages).
    sessions: HashMap<(Arc<str>, String), (u64, Checker)>,
    used: u64,
}

/// Checks the copies as they come, until every sender is gone; the totals.
fn check_all(
    copies: mpsc::Receiver<Seen>,
    template: Checker,
    reporter: Reporter,
    limits: Limits,
) -> Summary {
    let mut conversations = Conversations {
        template,
        reporter,
        limits,
        exchanges: HashMap::new(),
        sessions: HashMap::new(),
        used: 0,
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
                server,
                session,
                version,
                delete,
                json_request,
            } => {
                let state = Exchange {
                    upstream: Some(server),
                    session,
                    version,
                    delete,
                    json_request,
                    ..Exchange::new(self.limits.max_message_bytes)
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
            let body = match exchange.client.take() {
                Ok(body) => body,
                Err(length) => {
                    exchange.mcp = true;
                    self.too_large(number, &exchange, length);
                    Vec::new()
                }
            };
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
                    let bytes = std::mem::take(&mut exchange.unread);
                    found.extend(exchange.events.feed(&bytes));
                    for length in std::mem::take(&mut exchange.events.too_large) {
                        self.too_large(number, &exchange, length);
                    }
                }
                Some(BodyKind::Json) if ended => {
                    let body = match exchange.server.take() {
                        Ok(body) => body,
                        Err(length) => {
                            self.too_large(number, &exchange, length);
                            Vec::new()
                        }
                    };
                    // What answers JSON-RPC with a success is JSON-RPC; any other JSON (OAuth
                    // metadata, an OAuth error with a 401) only when it says it is.
                    let answer = exchange.mcp
                        && (exchange.head).is_some_and(|(status, _)| status.is_success());
                    found.extend(messages(&body).into_iter().filter(|message| match message {
                        Ok(value) => answer || claims_jsonrpc(value),
                        Err(_) => answer,
                    }));
                }
                Some(BodyKind::Other) => {
                    let _ = exchange.server.take();
                }
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
        if let (true, Some(server), Some(session)) = (deleted, exchange.upstream, exchange.session)
        {
            self.sessions.remove(&(server, session));
        }
    }

    /// Reports a message of `exchange` that was forwarded but not checked.
    fn too_large(&mut self, number: u64, exchange: &Exchange, length: usize) {
        let file = Self::file(exchange);
        let line = usize::try_from(number).unwrap_or(usize::MAX);
        let note = too_large(length, self.limits.max_message_bytes);
        self.reporter.note(&file, line, &note);
    }

    /// The name a report gives the conversation of `exchange`: its server, and its session.
    fn file(exchange: &Exchange) -> String {
        let server = exchange.upstream.as_deref().unwrap_or("http");
        match &exchange.session {
            Some(session) => format!("{server}[{session}]"),
            None => server.to_owned(),
        }
    }

    /// Marks the conversation of `key` (a server, a session) used, opening it if unknown;
    /// past the limit, the one used least recently is forgotten first (reported).
    fn open_session(&mut self, key: &(Arc<str>, String)) {
        self.used += 1;
        if !self.sessions.contains_key(key) && self.sessions.len() >= self.limits.max_sessions {
            let oldest = (self.sessions.iter())
                .min_by_key(|(_, (used, _))| *used)
                .map(|(key, _)| key.clone());
            if let Some(oldest) = oldest {
                self.sessions.remove(&oldest);
                let note = format!(
                    "session {} of {} forgotten: more than {} sessions at once \
                     (--max-sessions); a later message of it is checked without its \
                     `initialize`",
                    oldest.1, oldest.0, self.limits.max_sessions
                );
                self.reporter.note(&oldest.0, 0, &note);
            }
        }
        let template = &self.template;
        let (used, _) = (self.sessions.entry(key.clone())).or_insert_with(|| (0, template.clone()));
        *used = self.used;
    }

    /// Checks one message of `exchange` in its conversation and reports it.
    fn check(
        &mut self,
        number: u64,
        exchange: &mut Exchange,
        from: Side,
        message: Result<Value, String>,
    ) {
        let file = Self::file(exchange);
        let conversation = match exchange.session {
            Some(_) => file.clone(),
            None => format!("{file} exchange {number}"),
        };
        let entry = Entry {
            line: usize::try_from(number).unwrap_or(usize::MAX),
            from: Some(from),
            conversation: Some(conversation),
            header_version: exchange.version.clone(),
            revision: None,
            // A body may hold a batch: each member is written out from its value. What is not
            // JSON goes as it came, for the checker to say so.
            message: Ok(match message {
                Ok(value) => value.to_string().into(),
                Err(text) => text.into(),
            }),
        };
        let template = &self.template;
        let server = exchange
            .upstream
            .clone()
            .unwrap_or_else(|| Arc::from("http"));
        let checker = match &exchange.session {
            Some(session) => {
                let key = (server, session.clone());
                self.open_session(&key);
                &mut self.sessions.get_mut(&key).expect("just opened").1
            }
            None => exchange.own.get_or_insert_with(|| template.clone()),
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
/// body; its text (lossily UTF-8) when it is not JSON.
fn messages(body: &[u8]) -> Vec<Result<Value, String>> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Vec::new();
    }
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Array(batch)) => batch.into_iter().map(Ok).collect(),
        Ok(message) => vec![Ok(message)],
        Err(_) => vec![Err(String::from_utf8_lossy(body).into_owned())],
    }
}

/// An event stream read as it comes: complete lines, and the `data` of each event, as the SSE
/// spec (WHATWG HTML §9.2.6) reads them. Not `sse-stream` (rmcp's parser, in the tree): it
/// refuses what the spec allows (a line without `:`, an unknown field, a repeated `id` or
/// `event`), and a referee must read a stream as a browser does, not stop where it stops.
///
/// Read byte by byte, without holding a line: of a line only its field name's first bytes are
/// kept (enough to tell `data`), and a `data` line's value goes straight into the event's data,
/// which is bounded by the limit on messages ([`Capped`]): an event whose data grows past it is
/// dropped and its length put in `too_large`.
#[derive(Debug, Default)]
pub(crate) struct EventStream {
    /// The first bytes of the current line's field name (at most one more than `data` has).
    field: Vec<u8>,
    /// The current line has bytes (an empty line ends an event).
    in_line: bool,
    /// The current line's `:` was read: what follows is its value.
    in_value: bool,
    /// The current line is a `data` line and its value has no byte yet (a leading space is
    /// dropped).
    value_start: bool,
    /// The current event's data, once it has a `data` line.
    data: Option<Capped>,
    limit: usize,
    /// The last byte fed was a CR: an LF right after it ends the same line.
    after_cr: bool,
    /// The lengths of events dropped as too large, not yet reported.
    pub(crate) too_large: Vec<usize>,
}

impl EventStream {
    pub(crate) fn new(limit: usize) -> EventStream {
        EventStream {
            limit,
            ..EventStream::default()
        }
    }

    /// Reads `bytes`; the messages of the events they complete (an event without data, as the
    /// priming event of a resumable stream, is none).
    fn feed(&mut self, bytes: &[u8]) -> Vec<Result<Value, String>> {
        (self.feed_data(bytes).iter())
            .flat_map(|data| messages(data.as_bytes()))
            .collect()
    }

    /// Reads `bytes`; the data of the events they complete, as text.
    pub(crate) fn feed_data(&mut self, bytes: &[u8]) -> Vec<String> {
        let mut found = Vec::new();
        for &byte in bytes {
            let after_cr = std::mem::replace(&mut self.after_cr, byte == b'\r');
            match byte {
                b'\n' if after_cr => {}
                b'\n' | b'\r' => {
                    if let Some(data) = self.line_done() {
                        // A stream is UTF-8, invalid sequences read as U+FFFD (as a browser
                        // decodes it).
                        found.push(String::from_utf8_lossy(&data).into_owned());
                    }
                }
                b':' if !self.in_value => {
                    self.in_line = true;
                    self.in_value = true;
                    if self.field == b"data" {
                        self.data_line();
                        self.value_start = true;
                    }
                }
                _ if !self.in_value => {
                    self.in_line = true;
                    if self.field.len() <= b"data".len() {
                        self.field.push(byte);
                    }
                }
                _ => {
                    if std::mem::take(&mut self.value_start) && byte == b' ' {
                        continue;
                    }
                    if self.field == b"data" {
                        if let Some(data) = &mut self.data {
                            data.push(&[byte]);
                        }
                    }
                }
            }
        }
        found
    }

    /// A `data` line begins: the event's data gets a line feed between its lines.
    fn data_line(&mut self) {
        match &mut self.data {
            Some(data) => data.push(b"\n"),
            None => self.data = Some(Capped::new(self.limit)),
        }
    }

    /// The end of a line; the event's data when the line is empty, ending an event that has
    /// some.
    fn line_done(&mut self) -> Option<Vec<u8>> {
        let (in_line, in_value) = (self.in_line, self.in_value);
        (self.in_line, self.in_value, self.value_start) = (false, false, false);
        let field = std::mem::take(&mut self.field);
        if in_line {
            // A line without `:` is a field with an empty value.
            if !in_value && field == b"data" {
                self.data_line();
            }
            return None;
        }
        match self.data.take()?.take() {
            Ok(data) => Some(data),
            Err(length) => {
                self.too_large.push(length);
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_read_across_chunks_and_line_endings() {
        let mut stream = EventStream::new(1 << 20);
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

    /// An event whose data is past the limit is dropped and counted, whatever line its bytes
    /// came in, and the stream goes on; a long line of another field keeps nothing.
    #[test]
    fn an_event_past_the_limit_is_counted_not_kept() {
        let mut stream = EventStream::new(10);
        let mut found = stream.feed(b"data: 0123456789\ndata: 0123");
        found.extend(stream.feed(b"456789\n\n"));
        assert!(found.is_empty());
        // The data of the event: two lines of 10 bytes and the line feed between them.
        assert_eq!(stream.too_large, [21]);
        let comment = [
            b"id: ".as_slice(),
            &[b'7'; 4096],
            b"\n: ".as_slice(),
            &[b'x'; 4096],
        ]
        .concat();
        assert!(stream.feed(&comment).is_empty());
        assert!(
            stream.field.len() <= 5 && stream.data.is_none(),
            "{stream:?}"
        );
        let found = stream.feed(b"\n\ndata: [1,\ndata:2]\n\ndata\n\n");
        let found: Vec<Value> = found.into_iter().map(Result::unwrap).collect();
        assert_eq!(
            found,
            [Value::from(1), Value::from(2)],
            "the next event is read"
        );
        assert_eq!(stream.too_large, [21], "nothing more dropped");
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

    #[test]
    fn forward_targets() {
        let target = |method: Method, uri: &str| forward_target(&method, &uri.parse().unwrap());
        let ok = target(Method::POST, "http://user@LocalHost:3000/mcp?x=1").unwrap();
        assert_eq!(ok.uri.to_string(), "http://LocalHost:3000/mcp?x=1");
        assert_eq!(ok.host.unwrap(), "LocalHost:3000");
        assert_eq!(&*ok.server, "http://LocalHost:3000");
        let ipv6 = target(Method::GET, "http://[::1]:9").unwrap();
        assert_eq!(
            (ipv6.uri.to_string(), &*ipv6.server),
            ("http://[::1]:9/".to_owned(), "http://[::1]:9")
        );
        for (method, uri, status) in [
            (
                Method::CONNECT,
                "example.com:443",
                StatusCode::NOT_IMPLEMENTED,
            ),
            (
                Method::POST,
                "https://example.com/mcp",
                StatusCode::NOT_IMPLEMENTED,
            ),
            (Method::POST, "/mcp", StatusCode::BAD_REQUEST),
            (Method::OPTIONS, "*", StatusCode::BAD_REQUEST),
        ] {
            let refused = target(method, uri).unwrap_err();
            assert_eq!(refused.0, status, "{uri}: {}", refused.1);
        }
    }

    #[test]
    fn a_forward_proxy_refuses_requests_for_itself() {
        let own: SocketAddr = "127.0.0.1:4000".parse().unwrap();
        let mode = Mode::Forward(Some(own));
        let target = |uri: &str| mode.target(&Method::POST, &uri.parse().unwrap());
        for uri in [
            "http://127.0.0.1:4000/mcp",
            "http://localhost:4000/",
            "http://[::1]:4000/",
        ] {
            assert_eq!(
                target(uri).unwrap_err().0,
                StatusCode::LOOP_DETECTED,
                "{uri}"
            );
        }
        for uri in ["http://127.0.0.1:4001/mcp", "http://10.0.0.1:4000/mcp"] {
            assert!(target(uri).is_ok(), "{uri}");
        }
        let anywhere = Mode::Forward(Some("0.0.0.0:4000".parse().unwrap()));
        let refused = anywhere.target(&Method::GET, &"http://10.0.0.1:4000/".parse().unwrap());
        assert_eq!(refused.unwrap_err().0, StatusCode::LOOP_DETECTED);
    }
}
