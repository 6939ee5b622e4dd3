//! The server at a Streamable HTTP endpoint: each message POSTed, the answer read from the
//! response (a JSON body, or an event stream whose events carry the server's requests and
//! notifications before the answer), the session named by `Mcp-Session-Id` from the
//! `initialize` response on.
//!
//! The POSTs run on a runtime of their own; each response's messages reach the conversation
//! through one channel, in the order they arrive, as a stdio server's lines do. What is read is
//! bounded: a JSON body or an event's data past [`MAX_MESSAGE_BYTES`] is reported, not kept.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{HeaderName, HeaderValue, ACCEPT, CONTENT_TYPE};
use hyper::{Method, Request, Uri};
use hyper_util::client::legacy::{connect::HttpConnector, Client};
use hyper_util::rt::TokioExecutor;
use serde_json::Value;

use super::headers::ParamHeaders;
use super::{Received, Transport, Unanswered};
use crate::proxy::http::EventStream;
use crate::proxy::Capped;

/// The largest JSON body or event data read as a message.
const MAX_MESSAGE_BYTES: usize = 16 << 20;

const SESSION: &str = "mcp-session-id";
const PROTOCOL_VERSION: &str = "mcp-protocol-version";

pub(super) struct HttpServer {
    runtime: tokio::runtime::Runtime,
    client: Client<HttpConnector, Full<Bytes>>,
    url: Uri,
    /// `--header NAME:VALUE`s, sent with every request (a bearer token).
    headers: Vec<(HeaderName, HeaderValue)>,
    /// The session the `initialize` response named.
    session: Arc<Mutex<Option<HeaderValue>>>,
    /// The revision agreed on, sent as `MCP-Protocol-Version` after `initialize`.
    protocol_version: Option<HeaderValue>,
    /// 2026-07-28: no session; each request says its method and name in headers too, and a
    /// `tools/call` the arguments its tool marks.
    stateless: bool,
    param_headers: ParamHeaders,
    /// Each response's messages, or (`Err`) why the server could not be reached.
    sender: Sender<Result<Received, String>>,
    received: Receiver<Result<Received, String>>,
}

impl HttpServer {
    /// A client of the endpoint `url` (`http://HOST:PORT/PATH`), each request with `headers`
    /// (`NAME:VALUE`).
    pub(super) fn new(url: &str, headers: &[String]) -> Result<HttpServer, String> {
        let url: Uri = url.parse().map_err(|e| format!("{url}: {e}"))?;
        if url.scheme_str() != Some("http") || url.authority().is_none() {
            return Err(format!("{url}: an http:// URL (https is not supported)"));
        }
        let headers = (headers.iter())
            .map(|header| {
                let (name, value) = (header.split_once(':'))
                    .ok_or_else(|| format!("--header {header}: NAME:VALUE"))?;
                let name = HeaderName::try_from(name.trim())
                    .map_err(|e| format!("--header {header}: {e}"))?;
                let value = HeaderValue::try_from(value.trim())
                    .map_err(|e| format!("--header {header}: {e}"))?;
                Ok((name, value))
            })
            .collect::<Result<Vec<_>, String>>()?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .map_err(|e| format!("a runtime for the HTTP client: {e}"))?;
        let client = Client::builder(TokioExecutor::new()).build(HttpConnector::new());
        let (sender, received) = mpsc::channel();
        Ok(HttpServer {
            runtime,
            client,
            url,
            headers,
            session: Arc::default(),
            protocol_version: None,
            stateless: false,
            param_headers: ParamHeaders::default(),
            sender,
            received,
        })
    }

    /// The exchange that sends `sent` (empty: the GET of the server's stream).
    fn exchange(&self, sent: &str) -> Exchange {
        Exchange {
            sent: sent.to_owned(),
            client: self.client.clone(),
            session: Arc::clone(&self.session),
            sender: self.sender.clone(),
        }
    }

    fn request(&self, method: Method, body: Full<Bytes>) -> Request<Full<Bytes>> {
        let mut request = Request::builder()
            .method(method)
            .uri(self.url.clone())
            .header(ACCEPT, "application/json, text/event-stream")
            .header(CONTENT_TYPE, "application/json");
        for (name, value) in &self.headers {
            request = request.header(name, value);
        }
        if let Some(session) = self.session.lock().expect("not poisoned").clone() {
            request = request.header(SESSION, session);
        }
        if let Some(version) = &self.protocol_version {
            request = request.header(PROTOCOL_VERSION, version);
        }
        request.body(body).expect("a request of valid parts")
    }
}

impl Transport for HttpServer {
    fn send(&mut self, text: &str) {
        let mut request = self.request(Method::POST, Full::new(Bytes::from(text.to_owned())));
        if self.stateless {
            for (name, value) in self.param_headers.for_message(text) {
                request.headers_mut().insert(name, value);
            }
        }
        self.runtime.spawn(self.exchange(text).run(request));
    }

    fn next(&mut self, timeout: Duration) -> Result<Received, Unanswered> {
        match self.received.recv_timeout(timeout) {
            Ok(Ok(received)) => Ok(received),
            Ok(Err(why)) => Err(Unanswered::Crash(why)),
            Err(RecvTimeoutError::Timeout) => {
                Err(Unanswered::Hang(format!("no answer in {timeout:?}")))
            }
            // This value keeps a sender: never disconnected.
            Err(RecvTimeoutError::Disconnected) => {
                Err(Unanswered::Hang(format!("no answer in {timeout:?}")))
            }
        }
    }

    fn initialized(&mut self, version: &str, listen: bool) {
        self.protocol_version = HeaderValue::try_from(version).ok();
        self.stateless = !listen;
        if !listen {
            return;
        }
        // The stream of what the server sends outside a response (requests it makes on its own,
        // some servers' `roots/list`); a server without one answers 405.
        let request = self.request(Method::GET, Full::new(Bytes::new()));
        self.runtime.spawn(self.exchange("").run(request));
    }

    fn tools_listed(&mut self, tools: &[Value]) -> Vec<(String, String)> {
        if !self.stateless {
            return Vec::new();
        }
        self.param_headers.listed(tools)
    }

    fn close(&mut self) {
        // Ends the session, as a client leaving should; a server that refuses is not at fault.
        if self.session.lock().expect("not poisoned").is_some() {
            let request = self.request(Method::DELETE, Full::new(Bytes::new()));
            let client = self.client.clone();
            let ended = self.runtime.block_on(async move {
                tokio::time::timeout(Duration::from_secs(2), client.request(request)).await
            });
            drop(ended);
        }
    }
}

/// The whole of `body`, or (`Err`) its length when it is longer than `limit` (not kept).
async fn read_capped(body: &mut Incoming, limit: usize) -> Result<Vec<u8>, usize> {
    let mut read = Capped::new(limit);
    while let Some(Ok(frame)) = body.frame().await {
        if let Some(data) = frame.data_ref() {
            read.push(data);
        }
    }
    read.take()
}

/// One POST (or the GET of the server's stream) and what its response carries.
struct Exchange {
    /// The message POSTed; empty for the GET.
    sent: String,
    client: Client<HttpConnector, Full<Bytes>>,
    session: Arc<Mutex<Option<HeaderValue>>>,
    sender: Sender<Result<Received, String>>,
}

impl Exchange {
    async fn run(self, request: Request<Full<Bytes>>) {
        let refused = |detail: String| {
            Ok(Received::Refused {
                sent: self.sent.clone(),
                detail,
            })
        };
        let response = match self.client.request(request).await {
            Ok(response) => response,
            Err(_) if self.sent.is_empty() => return,
            Err(error) => {
                let detail = format!("the server could not be reached: {error:?}");
                let _ = self.sender.send(Err(detail));
                return;
            }
        };
        let status = response.status();
        if self.sent.is_empty() && !status.is_success() {
            // A server need not offer its own stream.
            return;
        }
        if let Some(session) = response.headers().get(SESSION) {
            let mut known = self.session.lock().expect("not poisoned");
            known.get_or_insert_with(|| session.clone());
        }
        let event_stream = (response.headers().get(CONTENT_TYPE))
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.starts_with("text/event-stream"));
        let mut body = response.into_body();
        if !status.is_success() {
            // An error status to a POST: the message refused, with what the body says.
            let text = read_capped(&mut body, 4096).await.unwrap_or_default();
            let text = String::from_utf8_lossy(&text);
            let _ = self
                .sender
                .send(refused(format!("HTTP {status}: {}", text.trim())));
            return;
        }
        if event_stream {
            let mut events = EventStream::new(MAX_MESSAGE_BYTES);
            while let Some(frame) = body.frame().await {
                let Ok(frame) = frame else { break };
                let Some(data) = frame.data_ref() else {
                    continue;
                };
                for data in events.feed_data(data) {
                    self.deliver(&data);
                }
                for length in std::mem::take(&mut events.too_large) {
                    let detail =
                        format!("an event of {length} bytes, more than {MAX_MESSAGE_BYTES} read");
                    let _ = self.sender.send(refused(detail));
                }
            }
            return;
        }
        match read_capped(&mut body, MAX_MESSAGE_BYTES).await {
            Ok(json) => self.deliver(&String::from_utf8_lossy(&json)),
            Err(length) => {
                let detail =
                    format!("a body of {length} bytes, more than {MAX_MESSAGE_BYTES} read");
                let _ = self.sender.send(refused(detail));
            }
        }
    }

    /// Hands on the messages of a body or an event: one, each of a batch, none for an empty
    /// body (a 202 to a notification).
    fn deliver(&self, text: &str) {
        if text.trim().is_empty() {
            return;
        }
        match serde_json::from_str::<Value>(text) {
            Ok(Value::Array(batch)) => {
                for message in batch {
                    let _ = (self.sender).send(Ok(Received::Message(message.to_string())));
                }
            }
            _ => {
                let _ = self.sender.send(Ok(Received::Message(text.to_owned())));
            }
        }
    }
}
