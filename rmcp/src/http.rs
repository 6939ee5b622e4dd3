//! Serving rmcp's Streamable HTTP service where it is deployed (feature `http`, on by default):
//! a guard in front of rmcp, and connections with bounds.
//!
//! - [`GuardLayer`] refuses a POST body larger than [`Limits::max_body_bytes`] (413), nested
//!   deeper than [`Limits::max_depth`] (400) or not received within [`Limits::body_timeout`]
//!   (408), each with a JSON-RPC error, before rmcp parses it. rmcp reads a body whole into a
//!   `serde_json::Value` under its own 4 MiB cap: one request of arrays nested 120 deep (still
//!   under serde_json's recursion limit of 128) cost about 900 MB and 7 s there. The guard's scan
//!   costs no more than the bytes it reads and stops at the first byte past the depth limit
//!   (figures in BENCHMARKS.md).
//! - [`serve`] accepts connections with a header-read timeout (a request head not complete in
//!   time, or a kept-alive connection idle that long, is closed: without it, 19,990 half-sent
//!   heads exhausted the server's file descriptors), a cap on open connections, TCP_NODELAY,
//!   and the peer's address in each request's extensions, which [`peer_addr`] reads in a
//!   handler, and [`anonymous_principal`] turns into the principal of a caller without
//!   credentials.
//!
//! ```no_run
//! use mcp_typed_rmcp::http::{serve, GuardLayer, ServeLimits};
//! # async fn run(mcp: axum::Router) -> std::io::Result<()> {
//! // `mcp`: `axum::Router::new().nest_service("/mcp", service)`, `service` being rmcp's
//! // `StreamableHttpService`.
//! let app = mcp.layer(GuardLayer::default());
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:3000").await?;
//! serve(listener, app, ServeLimits::default()).await
//! # }
//! ```

use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::pin::{pin, Pin};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::ConnectInfo;
use axum::http::{header, request::Parts, Method, Request, Response, StatusCode};
use http_body_util::{BodyExt as _, LengthLimitError, Limited};
use hyper_util::rt::{TokioIo, TokioTimer};
use rmcp::model::ErrorData;
use rmcp::service::RequestContext;
use rmcp::RoleServer;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower_layer::Layer;
use tower_service::Service;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The largest POST body [`Limits::default`] lets through: rmcp's own cap, 4 MiB.
pub const DEFAULT_MAX_BODY_BYTES: usize = 4 << 20;

/// How deep arrays and objects may nest in a POST body by default. The deepest official example
/// message nests 7 levels and the deepest official schema 12: 64 leaves room for a tool's
/// arguments, and none for a body built to make a parser allocate.
pub const DEFAULT_MAX_DEPTH: usize = 64;

/// How long a POST body may take to arrive by default, from the end of its head: a body sent a
/// byte at a time holds a connection no longer than this.
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a request head may take to arrive by default, from the moment the connection waits
/// for it (a new connection, or a kept-alive one after its last response): past it the
/// connection is closed.
pub const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// How many connections [`serve`] keeps open at once by default (each takes a file descriptor,
/// and about 20 KB while a request head is read: 80 MB at the cap). Past it new connections wait
/// until one closes, and an idle kept-alive one closes only after the header-read timeout: 1,024
/// stalled calls for 10 s in a load of 1,000 concurrent calls whose client kept a pool of
/// connections per instance.
pub const DEFAULT_MAX_CONNECTIONS: usize = 4096;

/// How many connections the kernel holds for [`serve`] before it accepts them, by default (the
/// kernel caps it at `net.core.somaxconn`). A listener bound by `tokio::net::TcpListener::bind`
/// has 128: 1,000 clients connecting at once to the everything-server overflowed it 3 to 4 times,
/// each costing a client a SYN retry of one second (examples/tests/http_guard.rs).
pub const DEFAULT_LISTEN_BACKLOG: u32 = 1024;

/// What [`GuardLayer`] lets through to rmcp in a POST body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most bytes of a body; a larger one is refused with 413, by its `Content-Length`
    /// before a byte of it is read when it declares one, else once the bytes read pass it.
    pub max_body_bytes: usize,
    /// The most arrays and objects a body may nest (a message is one level); a deeper body is
    /// refused with 400 at the first byte past it.
    pub max_depth: usize,
    /// How long reading a body may take; past it the request is refused with 408.
    pub body_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            max_depth: DEFAULT_MAX_DEPTH,
            body_timeout: DEFAULT_BODY_TIMEOUT,
        }
    }
}

/// A tower layer that checks each POST body against [`Limits`] before the service it wraps
/// (rmcp's `StreamableHttpService`, or an axum `Router` holding it) sees it, and hands that
/// service the bytes it read. GET and DELETE (a session's stream, its end) pass through.
///
/// A refusal is an HTTP status with a JSON-RPC error (`id` null, code -32600, the message naming
/// the limit): 413 for a body too large, 400 for one nested too deep or unreadable, 408 for one
/// too slow.
#[derive(Clone, Copy, Debug, Default)]
pub struct GuardLayer {
    limits: Limits,
}

impl GuardLayer {
    /// The layer with these limits.
    pub fn new(limits: Limits) -> Self {
        Self { limits }
    }
}

impl<S> Layer<S> for GuardLayer {
    type Service = Guard<S>;

    fn layer(&self, inner: S) -> Guard<S> {
        Guard {
            inner,
            limits: self.limits,
        }
    }
}

/// The service of [`GuardLayer`].
#[derive(Clone, Debug)]
pub struct Guard<S> {
    inner: S,
    limits: Limits,
}

impl<S, B, R> Service<Request<B>> for Guard<S>
where
    S: Service<Request<Body>, Response = Response<R>> + Clone + Send + 'static,
    S::Future: Send,
    B: HttpBody<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
    R: HttpBody<Data = Bytes> + Send + 'static,
    R::Error: Into<BoxError>,
{
    type Response = Response<Body>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Response<Body>, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        // The clone waits for the next call; the service polled ready serves this one.
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        let limits = self.limits;
        Box::pin(async move {
            match admit(request, limits).await {
                Ok(request) => Ok(inner.call(request).await?.map(Body::new)),
                Err(refusal) => Ok(refusal.response()),
            }
        })
    }
}

/// Why [`GuardLayer`] refused a body.
enum Refusal {
    TooLarge(usize),
    TooDeep(usize),
    TooSlow(Duration),
    Unreadable(String),
}

impl Refusal {
    fn response(self) -> Response<Body> {
        let (status, message) = match self {
            Refusal::TooLarge(max) => (
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("request body larger than {max} bytes"),
            ),
            Refusal::TooDeep(max) => (
                StatusCode::BAD_REQUEST,
                format!("request body nested deeper than {max} arrays or objects"),
            ),
            Refusal::TooSlow(time) => (
                StatusCode::REQUEST_TIMEOUT,
                format!("request body not received within {} ms", time.as_millis()),
            ),
            Refusal::Unreadable(error) => (
                StatusCode::BAD_REQUEST,
                format!("request body could not be read: {error}"),
            ),
        };
        let error = serde_json::json!({
            "jsonrpc": "2.0",
            "id": null,
            "error": {"code": mcp_typed::jsonrpc::INVALID_REQUEST, "message": message},
        });
        let mut response = Response::new(Body::from(error.to_string()));
        *response.status_mut() = status;
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            header::HeaderValue::from_static("application/json"),
        );
        response
    }
}

/// A POST with its body read and checked, or why not; anything else as it came.
async fn admit<B>(request: Request<B>, limits: Limits) -> Result<Request<Body>, Refusal>
where
    B: HttpBody<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    if request.method() != Method::POST {
        return Ok(request.map(Body::new));
    }
    let (parts, body) = request.into_parts();
    // hyper gives a body the exact size its `Content-Length` declares.
    if body.size_hint().lower() > limits.max_body_bytes as u64 {
        return Err(Refusal::TooLarge(limits.max_body_bytes));
    }
    let read = read_checked(body, limits);
    let bytes = match tokio::time::timeout(limits.body_timeout, read).await {
        Ok(read) => read?,
        Err(_) => return Err(Refusal::TooSlow(limits.body_timeout)),
    };
    Ok(Request::from_parts(parts, Body::from(bytes)))
}

/// Reads `body` whole, counting its bytes and scanning its nesting as each frame arrives.
async fn read_checked<B>(body: B, limits: Limits) -> Result<Bytes, Refusal>
where
    B: HttpBody<Data = Bytes>,
    B::Error: Into<BoxError>,
{
    let mut body = pin!(Limited::new(body, limits.max_body_bytes));
    let mut nesting = Nesting::new(limits.max_depth);
    let mut chunks: Vec<Bytes> = Vec::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|error| match error.downcast_ref::<LengthLimitError>() {
            Some(_) => Refusal::TooLarge(limits.max_body_bytes),
            None => Refusal::Unreadable(error.to_string()),
        })?;
        // Trailers, which no MCP client sends, are not handed on.
        if let Ok(data) = frame.into_data() {
            if !nesting.scan(&data) {
                return Err(Refusal::TooDeep(limits.max_depth));
            }
            chunks.push(data);
        }
    }
    // One chunk (a small body) is handed on as it is, without a copy.
    Ok(match chunks.len() {
        1 => chunks.swap_remove(0),
        _ => Bytes::from(chunks.concat()),
    })
}

/// The nesting of JSON text read so far, one byte at a time in a single pass: arrays and objects
/// opened and not closed, outside strings (a `\` escapes the byte after it inside one). It checks
/// no other syntax: what it lets through, rmcp parses and refuses if it is not JSON.
#[derive(Debug)]
struct Nesting {
    max: usize,
    depth: usize,
    in_string: bool,
    escaped: bool,
}

impl Nesting {
    fn new(max: usize) -> Self {
        Self {
            max,
            depth: 0,
            in_string: false,
            escaped: false,
        }
    }

    /// Reads the next `bytes` of the text; `false` at the first byte that nests deeper than the
    /// limit (the rest is not read).
    fn scan(&mut self, bytes: &[u8]) -> bool {
        for &byte in bytes {
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if byte == b'\\' {
                    self.escaped = true;
                } else if byte == b'"' {
                    self.in_string = false;
                }
                continue;
            }
            match byte {
                b'"' => self.in_string = true,
                b'[' | b'{' => {
                    self.depth += 1;
                    if self.depth > self.max {
                        return false;
                    }
                }
                // Too many closings is rmcp's parse error to report, not a depth.
                b']' | b'}' => self.depth = self.depth.saturating_sub(1),
                _ => {}
            }
        }
        true
    }
}

/// The bounds of [`serve`]'s connections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServeLimits {
    /// How long a request head may take to arrive, on a new connection or a kept-alive one
    /// waiting for its next request; past it the connection is closed. A response in progress
    /// (a session's event stream) is not bounded by it.
    pub header_read_timeout: Duration,
    /// How many connections are open at once. At the cap, [`serve`] accepts no more until one
    /// closes: new ones wait in the listener's backlog (and past the backlog, the kernel's SYN
    /// retries) rather than being closed, so that a client that arrives while the cap is held
    /// by half-sent heads is served once the header-read timeout frees a place.
    pub max_connections: usize,
    /// How many connections the kernel holds before [`serve`] accepts them (the listen backlog,
    /// capped by the kernel at `net.core.somaxconn`): [`serve`] sets it on the listener it is
    /// given, however that listener was bound. Past it, a client's connection waits for a SYN
    /// retry (one second, then doubling).
    pub listen_backlog: u32,
}

impl Default for ServeLimits {
    fn default() -> Self {
        Self {
            header_read_timeout: DEFAULT_HEADER_READ_TIMEOUT,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            listen_backlog: DEFAULT_LISTEN_BACKLOG,
        }
    }
}

/// Serves `app` on `listener` over HTTP/1.1 within `limits`, until the process ends (as
/// `axum::serve`, which it replaces: that one bounds neither the time a request head may take
/// nor the connections open).
///
/// The listener's backlog is set to [`ServeLimits::listen_backlog`] first (a second `listen` on a
/// listening socket changes its backlog). Each accepted socket gets TCP_NODELAY: without it the last small write of a streamed
/// response waits for the client's delayed acknowledgement, about 40 ms on every reused
/// connection (measured by mrtr_load, BENCHMARKS.md). Each request carries the peer's address as
/// `axum::extract::ConnectInfo<SocketAddr>` in its extensions ([`peer_addr`] reads it in an
/// rmcp handler). An error accepting a connection is not fatal: a connection aborted before it
/// was accepted is skipped, any other error (out of file descriptors) pauses accepting for a
/// second, as `axum::serve` does.
pub async fn serve(
    listener: TcpListener,
    app: axum::Router,
    limits: ServeLimits,
) -> io::Result<()> {
    let backlog = i32::try_from(limits.listen_backlog).unwrap_or(i32::MAX);
    socket2::SockRef::from(&listener).listen(backlog)?;
    let places = Arc::new(Semaphore::new(limits.max_connections));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout);
    loop {
        let place =
            (Arc::clone(&places).acquire_owned().await).expect("the semaphore is never closed");
        let (tcp, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(error) if is_connection_error(&error) => continue,
            Err(_) => {
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        let _ = tcp.set_nodelay(true);
        let app = app.clone();
        let service =
            hyper::service::service_fn(move |mut request: Request<hyper::body::Incoming>| {
                request.extensions_mut().insert(ConnectInfo(peer));
                app.clone().call(request)
            });
        let connection = http.serve_connection(TokioIo::new(tcp), service);
        tokio::spawn(async move {
            // A connection's error (a timeout, a reset) ends that connection only.
            let _ = connection.await;
            drop(place);
        });
    }
}

/// An accept error about one connection only (as `axum::serve` tells them apart).
fn is_connection_error(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// The address of the peer that sent the request an rmcp handler serves, when the service runs
/// under [`serve`] (or any server that puts `axum::extract::ConnectInfo<SocketAddr>` in each
/// request's extensions): rmcp keeps the request's `http::request::Parts` in the handler's
/// context.
pub fn peer_addr(cx: &RequestContext<RoleServer>) -> Option<SocketAddr> {
    let parts = cx.extensions.get::<Parts>()?;
    let ConnectInfo(addr) = parts.extensions.get::<ConnectInfo<SocketAddr>>()?;
    Some(*addr)
}

/// The principal of a caller who did not authenticate, for [`Eras`](crate::Eras)' sealed states
/// and the replay store's quota: its network address (an IPv4 address; an IPv6 address's /64,
/// which a host is given whole), as `address:…`. One name for every anonymous caller would let
/// one of them spend the quota of all (and be refused as a forgery is); a name the caller picks
/// (an unchecked bearer string) would let it mint quotas at no cost. Callers behind one NAT, or
/// one reverse proxy, share an address: a server behind a proxy derives the principal from the
/// address the proxy vouches for, and one with authentication passes the verified subject
/// instead.
///
/// `stdio` for a request that did not come over HTTP (a stdio server has one client). An error
/// for an HTTP request whose peer is unknown (a service run without [`serve`], or without
/// axum's `into_make_service_with_connect_info::<SocketAddr>()`): refused rather than shared.
pub fn anonymous_principal(cx: &RequestContext<RoleServer>) -> Result<String, ErrorData> {
    if cx.extensions.get::<Parts>().is_none() {
        return Ok("stdio".to_owned());
    }
    match peer_addr(cx).map(|peer| peer.ip().to_canonical()) {
        Some(IpAddr::V4(address)) => Ok(format!("address:{address}")),
        Some(IpAddr::V6(address)) => {
            let network = u128::from(address) & (u128::MAX << 64);
            Ok(format!("address:{}/64", Ipv6Addr::from(network)))
        }
        None => Err(ErrorData::internal_error(
            "the server cannot tell callers without credentials apart (no peer address): \
             serve it with mcp_typed_rmcp::http::serve",
            None,
        )),
    }
}

#[cfg(test)]
mod tests {
    use std::convert::Infallible;

    use super::*;

    fn nesting(max: usize, text: &str) -> bool {
        Nesting::new(max).scan(text.as_bytes())
    }

    #[test]
    fn counts_arrays_and_objects_outside_strings() {
        assert!(nesting(3, r#"{"a":[{"b":1}]}"#));
        assert!(!nesting(2, r#"{"a":[{"b":1}]}"#));
        assert!(nesting(1, r#"{"a":"[[[{{{"}"#));
        assert!(nesting(0, "42"));
        assert!(!nesting(0, "[]"));
        // Siblings do not add up.
        assert!(!nesting(2, "[[],[],{},[[]]]"));
        assert!(nesting(3, "[[],[],{},[[]]]"));
    }

    #[test]
    fn an_escaped_quote_does_not_end_a_string() {
        assert!(nesting(1, r#"{"a":"\"[[[["}"#));
        assert!(!nesting(1, r#"{"a":"\\",[[["}"#));
        assert!(nesting(1, r#"{"a":"\\\"[["}"#));
    }

    #[test]
    fn the_state_carries_across_chunks() {
        let text = br#"{"a":"x\"[[[","b":[[1]]}"#;
        for split in 0..text.len() {
            let mut n = Nesting::new(3);
            assert!(
                n.scan(&text[..split]) && n.scan(&text[split..]),
                "at {split}"
            );
            let mut n = Nesting::new(2);
            assert!(
                !(n.scan(&text[..split]) && n.scan(&text[split..])),
                "at {split}"
            );
        }
    }

    #[test]
    fn stops_at_the_first_byte_past_the_limit() {
        // The scan returns at the 65th `[`: what follows (not even JSON) is never looked at.
        let mut n = Nesting::new(DEFAULT_MAX_DEPTH);
        assert!(!n.scan(&[b'['; 4 << 20]));
        assert_eq!(n.depth, DEFAULT_MAX_DEPTH + 1);
        let mut deep = "[".repeat(DEFAULT_MAX_DEPTH);
        deep.push_str(&"]".repeat(DEFAULT_MAX_DEPTH));
        assert!(nesting(DEFAULT_MAX_DEPTH, &deep));
    }

    /// A request through the guard to a service that answers with the body it was handed.
    async fn through(limits: Limits, request: Request<Body>) -> (StatusCode, String) {
        let echo = axum::Router::new().fallback(|body: Bytes| async move { body });
        let mut guard = GuardLayer::new(limits).layer(echo);
        let response = guard.call(request).await.unwrap_or_else(|e| match e {});
        let status = response.status();
        let body = response.into_body().collect().await.map(|c| c.to_bytes());
        let body = String::from_utf8(body.unwrap_or_default().to_vec()).unwrap_or_default();
        (status, body)
    }

    fn post(body: impl Into<Body>) -> Request<Body> {
        let mut request = Request::new(body.into());
        *request.method_mut() = Method::POST;
        request
    }

    #[tokio::test]
    async fn hands_on_what_it_read_and_refuses_with_a_json_rpc_error() {
        let message = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
        assert_eq!(
            through(Limits::default(), post(message)).await,
            (StatusCode::OK, message.to_owned())
        );
        let small = Limits {
            max_body_bytes: 10,
            max_depth: 1,
            ..Limits::default()
        };
        let (status, body) = through(small, post(message)).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
        let error: serde_json::Value = serde_json::from_str(&body).expect("JSON");
        assert_eq!(error["error"]["code"], -32600);
        assert_eq!(
            error["error"]["message"],
            "request body larger than 10 bytes"
        );
        let (status, body) = through(small, post("[[1]]")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(
            body.contains("nested deeper than 1 arrays or objects"),
            "{body}"
        );
        // A GET is not read.
        let mut get = post("[[[[");
        *get.method_mut() = Method::GET;
        assert_eq!(through(small, get).await, (StatusCode::OK, "[[[[".into()));
    }

    #[tokio::test]
    async fn refuses_a_body_that_does_not_arrive_in_time() {
        /// A body whose bytes never come.
        struct Never;
        impl HttpBody for Never {
            type Data = Bytes;
            type Error = Infallible;
            fn poll_frame(
                self: Pin<&mut Self>,
                _: &mut Context<'_>,
            ) -> Poll<Option<Result<hyper::body::Frame<Bytes>, Infallible>>> {
                Poll::Pending
            }
        }
        let limits = Limits {
            body_timeout: Duration::from_millis(50),
            ..Limits::default()
        };
        let (status, body) = through(limits, post(Body::new(Never))).await;
        assert_eq!(status, StatusCode::REQUEST_TIMEOUT);
        assert!(body.contains("not received within 50 ms"), "{body}");
    }

    /// `serve` widens the backlog of a listener bound with tokio's 128: with its one place held
    /// by a kept-alive connection, 500 more connect without waiting (past a full backlog the
    /// kernel drops a SYN, and the client waits a second for its retry).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_backlog_holds_connections_while_every_place_is_taken() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let address = listener.local_addr().expect("address");
        let limits = ServeLimits {
            max_connections: 1,
            header_read_timeout: Duration::from_secs(60),
            ..ServeLimits::default()
        };
        tokio::spawn(serve(listener, axum::Router::new(), limits));
        let connected = tokio::task::spawn_blocking(move || {
            use std::io::{Read as _, Write as _};
            // Answered, so `serve` runs (and has set the backlog); kept alive, it holds the place.
            let mut held = std::net::TcpStream::connect(address).expect("connect");
            held.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                .expect("a request");
            let mut head = [0; 12];
            held.read_exact(&mut head).expect("an answer");
            assert_eq!(&head, b"HTTP/1.1 404");
            let waiting: Vec<_> = (0..500)
                .map(|i| {
                    std::net::TcpStream::connect_timeout(&address, Duration::from_millis(500))
                        .unwrap_or_else(|e| panic!("connection {i} waited: {e}"))
                })
                .collect();
            waiting.len()
        })
        .await
        .expect("the connections");
        assert_eq!(connected, 500);
    }
}
