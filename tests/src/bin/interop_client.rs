//! An MCP client built on `mcp-typed` alone, probing a server over stdio: it initializes
//! (asking for 2025-11-25), lists and calls every tool, prompt and resource the server offers,
//! answers the server's requests (roots, sampling, form and URL elicitation, task-augmented
//! elicitation and sampling with `tasks/get` and `tasks/result`), and checks that
//! every line it received decodes into a specific typed variant of `v2025_11_25::ServerMessage`
//! that encodes back to the same JSON (compared as `serde_json::Value`): no fallback variant,
//! nothing dropped.
//!
//! ```text
//! interop-client <server command> [args…]
//! ```
//!
//! `tests/tests/interop.rs` runs it against the official reference server,
//! `@modelcontextprotocol/server-everything`. It prints a JSON report on stdout (what was
//! called, what came back, how many messages of each kind were decoded) and exits 1 when a check
//! failed, listing the failures in the report.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::marker::PhantomData;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use mcp_typed::elicit::{PropertySchema, RequestedSchema, StringFormat};
use mcp_typed::jsonrpc::{Request, METHOD_NOT_FOUND};
use mcp_typed::v2025_11_25::{
    CallToolRequest, CallToolResult, ClientMessage, ClientNotification, ClientRequest,
    ClientResult, CompleteRequest, ContentBlock, CreateTaskResult, ElicitRequestParams, Error,
    GetPromptRequest, GetTaskRequest, InitializeRequest, InitializeResult, ListPromptsRequest,
    ListResourceTemplatesRequest, ListResourcesRequest, ListTasksRequest, ListToolsRequest,
    PingRequest, ReadResourceRequest, RequestId, ServerMessage, ServerRequest, ServerResult,
    SetLevelRequest, SubscribeRequest, TaskStatus, Tool, UnsubscribeRequest,
    UrlElicitationRequiredErrorErrorData, PROTOCOL_VERSION,
};
use mcp_typed_tests::peers::{error, from_json};
use serde_json::{json, Map, Number, Value};

/// The longest wait for one response.
const TIMEOUT: Duration = Duration::from_secs(20);
/// The root this client offers.
const ROOT_URI: &str = "file:///tmp/mcp-typed-interop";
/// The model name of sampling answers, so that the report can find them in tool results.
const MODEL: &str = "mcp-schema-probe-model";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((program, rest)) = args.split_first() else {
        eprintln!("usage: interop-client <server command> [args…]");
        std::process::exit(2);
    };
    let mut probe = match Probe::spawn(program, rest) {
        Ok(probe) => probe,
        Err(error) => {
            eprintln!("interop-client: cannot start {program}: {error}");
            std::process::exit(2);
        }
    };
    let outcome = probe.run();
    if let Err(error) = outcome {
        probe.failures.push(format!("aborted: {error}"));
    }
    probe.finish();
}

/// Why a step could not go on.
type Abort = String;

/// A request's result type for a task-augmented call (`params.task`): the result is a
/// `CreateTaskResult`, whatever the method's own result type is.
struct TaskAugmented<R>(PhantomData<R>);

impl<R: Request> Request for TaskAugmented<R> {
    const METHOD: &'static str = R::METHOD;
    type Params = R::Params;
    type Result = CreateTaskResult;
}

/// The probe: the server process, what it said, and what went wrong.
struct Probe {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
    next_id: i64,
    failures: Vec<String>,
    report: Map<String, Value>,
    /// Every message received, by kind and method or result variant.
    received: BTreeMap<String, u64>,
    decoded: u64,
    elicitations: Vec<Value>,
    sampling: Vec<Value>,
    /// Resource links in tool results, each read.
    linked: Vec<String>,
    /// Task-augmented requests of the server, run at once: task id, its result.
    tasks: Vec<(String, ClientResult)>,
    /// What the server asked about those tasks (`tasks/get`, `tasks/result`, …).
    task_requests: Vec<String>,
}

impl Probe {
    fn spawn(program: &str, args: &[String]) -> std::io::Result<Self> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()?;
        let stdout = child.stdout.take().ok_or(std::io::ErrorKind::BrokenPipe)?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Probe {
            stdin: child.stdin.take(),
            child,
            lines,
            next_id: 0,
            failures: Vec::new(),
            report: Map::new(),
            received: BTreeMap::new(),
            decoded: 0,
            elicitations: Vec::new(),
            sampling: Vec::new(),
            linked: Vec::new(),
            tasks: Vec::new(),
            task_requests: Vec::new(),
        })
    }

    fn fail(&mut self, failure: impl Into<String>) {
        let failure = failure.into();
        eprintln!("interop-client: FAILED {failure}");
        self.failures.push(failure);
    }

    fn check(&mut self, ok: bool, failure: impl FnOnce() -> String) {
        if !ok {
            self.fail(failure());
        }
    }

    fn send(&mut self, message: &ClientMessage) -> Result<(), Abort> {
        let text = serde_json::to_string(message).map_err(|e| format!("encode: {e}"))?;
        let stdin = self.stdin.as_mut().ok_or("stdin closed")?;
        writeln!(stdin, "{text}")
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("write to the server: {e}"))
    }

    // ---- Receiving

    /// The next message, decoded and checked; `None` when nothing came before `deadline`.
    fn receive(&mut self, deadline: Instant) -> Result<Option<(Value, ServerMessage)>, Abort> {
        let line = match self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => return Ok(None),
            Err(RecvTimeoutError::Disconnected) => return Err("the server closed stdout".into()),
        };
        let wire: Value =
            serde_json::from_str(&line).map_err(|e| format!("not JSON: {e}: {line}"))?;
        let message = match line.parse::<ServerMessage>() {
            Ok(message) => message,
            Err(error) => {
                return Err(format!(
                    "does not decode as a ServerMessage: {error}: {line}"
                ));
            }
        };
        self.decoded += 1;
        // Nothing dropped, nothing invented: the typed message writes back the same JSON.
        match serde_json::to_value(&message) {
            Ok(again) if again == wire => {}
            Ok(again) => self.fail(format!(
                "re-encoding differs\n  received: {wire}\n  encoded:  {again}"
            )),
            Err(error) => self.fail(format!("cannot re-encode {line}: {error}")),
        }
        let kind = match &message {
            ServerMessage::Request { request, .. } => format!("request {}", request.method()),
            ServerMessage::Notification(notification) => {
                format!("notification {}", notification.method())
            }
            ServerMessage::Response { result, .. } => format!("result {}", variant(result)),
            ServerMessage::Error { error, .. } => format!("error {}", error.code),
        };
        *self.received.entry(kind).or_default() += 1;
        Ok(Some((wire, message)))
    }

    /// Sends `request` and waits for its response, answering the server's requests meanwhile.
    /// The result must come as the envelope variant `expect` and decode as `R::Result`, the
    /// result type the request pairs with, to the same JSON.
    fn call<R: Request>(
        &mut self,
        request: ClientRequest,
        expect: &str,
    ) -> Result<Result<R::Result, Error>, Abort> {
        self.next_id += 1;
        let id = self.next_id;
        let method = request.method();
        self.send(&ClientMessage::Request {
            id: RequestId::Integer(id),
            request,
        })?;
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let Some((wire, message)) = self.receive(deadline)? else {
                return Err(format!(
                    "no response to `{method}` (id {id}) within {TIMEOUT:?}"
                ));
            };
            match message {
                ServerMessage::Response {
                    id: RequestId::Integer(n),
                    result,
                } if n == id => {
                    let found = variant(&result);
                    // `Empty(CreateTaskResult)`: the generic result, holding a task.
                    let expect_variant = expect.split('(').next().unwrap_or(expect);
                    self.check(found == expect_variant, || {
                        format!("`{method}`: the result decoded as {found}, expected {expect}")
                    });
                    if let ServerResult::Empty(empty) = &result {
                        // The generic result is the specific type of `ping` and friends only
                        // when nothing landed in its catch-all members (see TaskAugmented).
                        let extra: Vec<&String> = empty.extra.keys().collect();
                        let allowed: &[&str] = if expect == "Empty(CreateTaskResult)" {
                            &["task"]
                        } else {
                            &[]
                        };
                        self.check(extra.iter().all(|k| allowed.contains(&k.as_str())), || {
                            format!("`{method}`: members in the generic result's extra: {extra:?}")
                        });
                    }
                    let raw = &wire["result"];
                    return match serde_json::from_value::<R::Result>(raw.clone()) {
                        Ok(typed) => {
                            let again = serde_json::to_value(&typed).unwrap_or(Value::Null);
                            self.check(&again == raw, || {
                                format!("`{method}`: the paired result type changes {raw} into {again}")
                            });
                            Ok(Ok(typed))
                        }
                        Err(error) => Err(format!(
                            "`{method}`: the result does not decode as the paired type: {error}: {raw}"
                        )),
                    };
                }
                ServerMessage::Error {
                    id: Some(RequestId::Integer(n)),
                    error,
                } if n == id => return Ok(Err(error)),
                other => self.handle(other)?,
            }
        }
    }

    /// Reads what the server sends for `wait` (late notifications), answering its requests.
    fn drain(&mut self, wait: Duration) -> Result<(), Abort> {
        let deadline = Instant::now() + wait;
        while let Some((_, message)) = self.receive(deadline)? {
            self.handle(message)?;
        }
        Ok(())
    }

    /// A message that is not the response being waited for.
    fn handle(&mut self, message: ServerMessage) -> Result<(), Abort> {
        match message {
            ServerMessage::Request { id, request } => {
                let reply = self.answer(request);
                let message = match reply {
                    Ok(result) => ClientMessage::Response { id, result },
                    Err(error) => ClientMessage::Error {
                        id: Some(id),
                        error,
                    },
                };
                self.send(&message)
            }
            ServerMessage::Notification(_) => Ok(()),
            ServerMessage::Response { id, .. } | ServerMessage::Error { id: Some(id), .. } => {
                self.fail(format!("a response to no pending request: {id:?}"));
                Ok(())
            }
            ServerMessage::Error { id: None, error } => {
                self.fail(format!(
                    "an error without id: {} {}",
                    error.code, error.message
                ));
                Ok(())
            }
        }
    }

    /// Answers a request of the server.
    fn answer(&mut self, request: ServerRequest) -> Result<ClientResult, Error> {
        let task = match &request {
            ServerRequest::CreateMessage(params) => params.task.is_some(),
            ServerRequest::Elicit(params) => match params.as_ref() {
                ElicitRequestParams::Form(form) => form.task.is_some(),
                ElicitRequestParams::Url(url) => url.task.is_some(),
            },
            _ => false,
        };
        let result = self.answer_now(request)?;
        if !task {
            return Ok(result);
        }
        // A task-augmented request: run it at once, keep its result for `tasks/result`, and
        // answer with the task. The schema's `ClientResult` has no `CreateTaskResult`, so it
        // goes out as the generic result holding `task` (which is what it is on the wire).
        let task_id = format!("client-task-{}", self.tasks.len() + 1);
        // Reported as working, so that the server polls with `tasks/get` before `tasks/result`.
        let created: CreateTaskResult = from_json(json!({"task": task_json(&task_id, "working")}));
        self.tasks.push((task_id, result));
        let mut generic = mcp_typed::v2025_11_25::Result::default();
        generic.extra.insert(
            "task".into(),
            serde_json::to_value(&created.task).unwrap_or_default(),
        );
        Ok(ClientResult::Empty(generic))
    }

    fn task(&mut self, method: &str, task_id: &str) -> Result<&ClientResult, Error> {
        self.task_requests.push(method.to_owned());
        self.tasks
            .iter()
            .find(|(id, _)| id == task_id)
            .map(|(_, result)| result)
            .ok_or_else(|| error(-32602, format!("unknown task `{task_id}`")))
    }

    /// Answers a request of the server, ignoring task augmentation.
    fn answer_now(&mut self, request: ServerRequest) -> Result<ClientResult, Error> {
        match request {
            ServerRequest::GetTask(params) => {
                self.task("tasks/get", &params.task_id)?;
                Ok(ClientResult::GetTask(Box::new(from_json(task_json(
                    &params.task_id,
                    "completed",
                )))))
            }
            ServerRequest::GetTaskPayload(params) => {
                self.task("tasks/result", &params.task_id).cloned()
            }
            ServerRequest::Ping(_) => Ok(ClientResult::Empty(Default::default())),
            ServerRequest::ListRoots(_) => Ok(ClientResult::ListRoots(from_json(json!({
                "roots": [{"uri": ROOT_URI, "name": "interop root"}]
            })))),
            ServerRequest::CreateMessage(params) => {
                let prompt = params
                    .messages
                    .first()
                    .and_then(|m| serde_json::to_value(&m.content).ok())
                    .and_then(|c| c.get("text").and_then(Value::as_str).map(str::to_owned))
                    .unwrap_or_default();
                self.sampling
                    .push(json!({"prompt": prompt, "maxTokens": params.max_tokens}));
                Ok(ClientResult::CreateMessage(Box::new(from_json(json!({
                    "role": "assistant",
                    "content": {"type": "text", "text": format!("A reply to: {prompt}")},
                    "model": MODEL,
                    "stopReason": "endTurn",
                })))))
            }
            ServerRequest::Elicit(params) => match *params {
                ElicitRequestParams::Form(form) => {
                    // As text from the typed params (whose `properties` keep the wire order),
                    // so that the parsed form keeps the server's field order.
                    let schema = serde_json::to_string(&form.requested_schema).unwrap_or_default();
                    let answer = self.fill_form(&schema);
                    let (content, properties) = match answer {
                        Ok(answer) => answer,
                        Err(failure) => {
                            self.fail(failure.clone());
                            return Err(error(-32602, failure));
                        }
                    };
                    self.elicitations.push(json!({
                        "mode": "form",
                        "message": form.message,
                        "properties": properties,
                        "content": content,
                    }));
                    Ok(ClientResult::Elicit(from_json(
                        json!({"action": "accept", "content": content}),
                    )))
                }
                ElicitRequestParams::Url(url) => {
                    self.elicitations.push(json!({
                        "mode": "url",
                        "message": url.message,
                        "url": url.url,
                        "elicitationId": url.elicitation_id,
                    }));
                    // Consent to open the URL; the out-of-band step is the server's business.
                    Ok(ClientResult::Elicit(from_json(json!({"action": "accept"}))))
                }
            },
            // tasks/list and tasks/cancel are not declared in this client's capabilities.
            other => Err(error(
                METHOD_NOT_FOUND,
                format!("`{}` is not supported by this client", other.method()),
            )),
        }
    }

    /// A valid answer to a form: `RequestedSchema::parse`, values from the defaults or made up
    /// within the constraints, checked with `validate` before it is sent.
    fn fill_form(&mut self, schema: &str) -> Result<(Map<String, Value>, Vec<String>), String> {
        let parsed = RequestedSchema::parse_str(schema)
            .map_err(|e| format!("requestedSchema refused: {e}"))?;
        let mut content = parsed.defaults();
        for (name, property) in &parsed.properties {
            let value = fill_property(property, content.get(name));
            content.insert(name.clone(), value);
        }
        parsed
            .validate(&content)
            .map_err(|e| format!("the filled form does not validate: {e}: {content:?}"))?;
        let names = parsed.properties.iter().map(|(n, _)| n.clone()).collect();
        Ok((content, names))
    }

    // ---- The session

    fn run(&mut self) -> Result<(), Abort> {
        let init: InitializeResult = self
            .call::<InitializeRequest>(
                ClientRequest::Initialize(Box::new(from_json(json!({
                    "protocolVersion": PROTOCOL_VERSION,
                    "capabilities": {
                        "roots": {"listChanged": true},
                        "sampling": {},
                        "elicitation": {"form": {}, "url": {}},
                        "tasks": {"requests": {
                            "elicitation": {"create": {}},
                            "sampling": {"createMessage": {}},
                        }},
                    },
                    "clientInfo": {"name": "mcp-typed-interop-client", "version": env!("CARGO_PKG_VERSION")},
                })))),
                "Initialize",
            )?
            .map_err(|e| format!("initialize failed: {} {}", e.code, e.message))?;
        self.report
            .insert("protocolVersion".into(), json!(init.protocol_version));
        self.report.insert(
            "serverInfo".into(),
            json!({"name": init.server_info.name, "version": init.server_info.version}),
        );
        self.report.insert(
            "serverCapabilities".into(),
            serde_json::to_value(&init.capabilities).unwrap_or_default(),
        );
        self.send(&ClientMessage::Notification(
            ClientNotification::Initialized(None),
        ))?;

        self.call::<SetLevelRequest>(
            ClientRequest::SetLevel(from_json(json!({"level": "debug"}))),
            "Empty",
        )?
        .map_err(|e| format!("logging/setLevel: {}", e.message))?;
        self.call::<PingRequest>(ClientRequest::Ping(None), "Empty")?
            .map_err(|e| format!("ping: {}", e.message))?;

        self.resources()?;
        self.tools()?;
        self.prompts()?;
        // Late notifications (simulated logging, resource updates) are decoded too.
        self.drain(Duration::from_millis(300))?;
        Ok(())
    }

    fn tools(&mut self) -> Result<(), Abort> {
        let mut tools: Vec<Tool> = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let page = self
                .call::<ListToolsRequest>(
                    ClientRequest::ListTools(cursor.map(|c| from_json(json!({"cursor": c})))),
                    "ListTools",
                )?
                .map_err(|e| format!("tools/list: {}", e.message))?;
            tools.extend(page.tools);
            cursor = page.next_cursor;
            if cursor.is_none() {
                break;
            }
        }
        let mut called = Vec::new();
        for tool in &tools {
            let arguments = arguments_for(tool);
            let task_required = tool
                .execution
                .as_ref()
                .and_then(|e| e.task_support.as_ref())
                .is_some_and(|s| s.as_str() == "required");
            let result = if task_required {
                self.call_as_task(&tool.name, &arguments)?
            } else {
                self.call_tool(&tool.name, &arguments)?
            };
            let mut entry = summary(&tool.name, &arguments, &result);
            match tool.name.as_str() {
                // Both paths of URL mode: the request (above), then the -32042 error, then the
                // retry the error asks for.
                "trigger-url-elicitation" => {
                    let mut error_path = arguments.clone();
                    error_path.insert("errorPath".into(), json!(true));
                    let refused = self.call_tool(&tool.name, &error_path)?;
                    entry.insert("errorPath".into(), self.url_required(refused));
                    let retry = self.call_tool(&tool.name, &error_path)?;
                    entry.insert(
                        "retry".into(),
                        Value::Object(summary(&tool.name, &error_path, &retry)),
                    );
                }
                // Toggles: on, then off again.
                "toggle-simulated-logging" | "toggle-subscriber-updates" => {
                    let again = self.call_tool(&tool.name, &arguments)?;
                    entry.insert(
                        "again".into(),
                        Value::Object(summary(&tool.name, &arguments, &again)),
                    );
                }
                _ => {}
            }
            // Every resource a result links to can be read (the gzip tool's is made for this
            // session).
            if let Ok(result) = &result {
                for block in &result.content {
                    if let ContentBlock::ResourceLink(link) = block {
                        let uri = link.uri.clone();
                        let read = self.call::<ReadResourceRequest>(
                            ClientRequest::ReadResource(Box::new(from_json(json!({"uri": uri})))),
                            "ReadResource",
                        )?;
                        if let Err(e) = read {
                            self.fail(format!(
                                "resources/read {uri} (linked by {}): {}",
                                tool.name, e.message
                            ));
                        }
                        self.linked.push(uri);
                    }
                }
            }
            called.push(Value::Object(entry));
        }
        self.report.insert(
            "toolsListed".into(),
            json!(tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>()),
        );
        self.report.insert("tools".into(), Value::Array(called));
        Ok(())
    }

    fn call_tool(
        &mut self,
        name: &str,
        arguments: &Map<String, Value>,
    ) -> Result<Result<CallToolResult, Error>, Abort> {
        let progress_token = format!("progress-{}", self.next_id + 1);
        let params = from_json(json!({
            "_meta": {"progressToken": progress_token},
            "name": name,
            "arguments": arguments,
        }));
        self.call::<CallToolRequest>(ClientRequest::CallTool(Box::new(params)), "CallTool")
    }

    /// A tool whose `execution.taskSupport` is `required`: call with `task`, poll `tasks/get`,
    /// fetch the result with `tasks/result` (which delivers the requests the task makes).
    fn call_as_task(
        &mut self,
        name: &str,
        arguments: &Map<String, Value>,
    ) -> Result<Result<CallToolResult, Error>, Abort> {
        let params =
            from_json(json!({"name": name, "arguments": arguments, "task": {"ttl": 60000}}));
        // The schema's `ServerResult` has no `CreateTaskResult`: the envelope can only give the
        // generic result (checked to hold nothing but `task`); the request says more.
        let created = match self.call::<TaskAugmented<CallToolRequest>>(
            ClientRequest::CallTool(Box::new(params)),
            "Empty(CreateTaskResult)",
        )? {
            Ok(created) => created,
            Err(error) => return Ok(Err(error)),
        };
        let task_id = created.task.task_id.clone();
        let get = |id: &str| ClientRequest::GetTask(from_json(json!({"taskId": id})));
        let first = self
            .call::<GetTaskRequest>(get(&task_id), "GetTask")?
            .map_err(|e| format!("tasks/get: {}", e.message))?;
        let listed = self
            .call::<ListTasksRequest>(ClientRequest::ListTasks(None), "ListTasks")?
            .map_err(|e| format!("tasks/list: {}", e.message))?;
        // The payload of a tools/call task is a CallToolResult: decoded as one here, and the
        // envelope picks it by its `content` member.
        let payload = self.call::<CallToolRequest>(
            ClientRequest::GetTaskPayload(from_json(json!({"taskId": task_id}))),
            "CallTool",
        )?;
        let last = self
            .call::<GetTaskRequest>(get(&task_id), "GetTask")?
            .map_err(|e| format!("tasks/get: {}", e.message))?;
        self.check(last.status == TaskStatus::Completed, || {
            format!("task {task_id} ended {:?}", last.status)
        });
        self.report.insert(
            "task".into(),
            json!({
                "tool": name,
                "created": created.task.status.as_str(),
                "firstPoll": first.status.as_str(),
                "listed": listed.tasks.iter().any(|t| t.task_id == task_id),
                "last": last.status.as_str(),
            }),
        );
        Ok(payload)
    }

    /// The -32042 answer of the error path, decoded with the schema's own error data type.
    fn url_required(&mut self, refused: Result<CallToolResult, Error>) -> Value {
        let error = match refused {
            Err(error) => error,
            Ok(result) => {
                self.fail(format!(
                    "errorPath: expected -32042, got a result {result:?}"
                ));
                return Value::Null;
            }
        };
        let data = error.data.clone().unwrap_or_default();
        match serde_json::from_value::<UrlElicitationRequiredErrorErrorData>(data.clone()) {
            Ok(typed) => {
                let again = serde_json::to_value(&typed).unwrap_or_default();
                self.check(again == data, || {
                    format!("URLElicitationRequiredError data changes: {data} → {again}")
                });
                json!({
                    "code": error.code,
                    "elicitations": typed.elicitations.iter().map(|e| json!({
                        "elicitationId": e.elicitation_id, "url": e.url,
                    })).collect::<Vec<_>>(),
                })
            }
            Err(e) => {
                self.fail(format!(
                    "URLElicitationRequiredError data does not decode: {e}: {data}"
                ));
                Value::Null
            }
        }
    }

    fn prompts(&mut self) -> Result<(), Abort> {
        let listed = self
            .call::<ListPromptsRequest>(ClientRequest::ListPrompts(None), "ListPrompts")?
            .map_err(|e| format!("prompts/list: {}", e.message))?;
        let mut out = Vec::new();
        for prompt in &listed.prompts {
            let mut arguments = Map::new();
            // The required arguments; the optional ones are left out, as a user might.
            for argument in prompt.arguments.iter().flatten() {
                if argument.required != Some(true) {
                    continue;
                }
                let reference = json!({"type": "ref/prompt", "name": prompt.name});
                let value = self.complete(reference, &argument.name, &arguments)?;
                arguments.insert(argument.name.clone(), json!(value));
            }
            let got = self
                .call::<GetPromptRequest>(
                    ClientRequest::GetPrompt(Box::new(from_json(
                        json!({"name": prompt.name, "arguments": arguments}),
                    ))),
                    "GetPrompt",
                )?
                .map_err(|e| format!("prompts/get {}: {}", prompt.name, e.message))?;
            let contents: Vec<Value> = got
                .messages
                .iter()
                .map(|m| serde_json::to_value(&m.content).unwrap_or_default())
                .collect();
            out.push(json!({
                "name": prompt.name,
                "arguments": arguments,
                "types": contents.iter().map(|c| c["type"].clone()).collect::<Vec<_>>(),
                "text": contents.iter().find_map(|c| c["text"].as_str()).unwrap_or(""),
            }));
        }
        self.report.insert("prompts".into(), Value::Array(out));
        Ok(())
    }

    /// A value for an argument: the server's first completion, else a plain fallback.
    fn complete(
        &mut self,
        reference: Value,
        argument: &str,
        known: &Map<String, Value>,
    ) -> Result<String, Abort> {
        let request = ClientRequest::Complete(Box::new(from_json(json!({
            "ref": reference,
            "argument": {"name": argument, "value": ""},
            "context": {"arguments": known},
        }))));
        let completed = self
            .call::<CompleteRequest>(request, "Complete")?
            .map_err(|e| format!("completion/complete {argument}: {}", e.message))?;
        let first = completed.completion.values.first().cloned();
        *self
            .received
            .entry(format!("completion for {argument}: {}", first.is_some()))
            .or_default() += 1;
        // Without a completion: an id-like argument gets "1", anything else a city (the one
        // free-text prompt argument of server-everything is `city`).
        Ok(first.unwrap_or_else(|| {
            if argument.to_ascii_lowercase().ends_with("id") {
                "1".into()
            } else {
                "Paris".into()
            }
        }))
    }

    fn resources(&mut self) -> Result<(), Abort> {
        let mut uris = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let page = self
                .call::<ListResourcesRequest>(
                    ClientRequest::ListResources(cursor.map(|c| from_json(json!({"cursor": c})))),
                    "ListResources",
                )?
                .map_err(|e| format!("resources/list: {}", e.message))?;
            uris.extend(page.resources.into_iter().map(|r| r.uri));
            cursor = page.next_cursor;
            if cursor.is_none() {
                break;
            }
        }
        let templates = self
            .call::<ListResourceTemplatesRequest>(
                ClientRequest::ListResourceTemplates(None),
                "ListResourceTemplates",
            )?
            .map_err(|e| format!("resources/templates/list: {}", e.message))?;
        let mut template_uris = Vec::new();
        for template in &templates.resource_templates {
            let reference = json!({"type": "ref/resource", "uri": template.uri_template});
            let id = self.complete(reference, "resourceId", &Map::new())?;
            template_uris.push(template.uri_template.replace("{resourceId}", &id));
        }
        let mut read = Vec::new();
        for uri in uris.iter().chain(&template_uris) {
            let result = self
                .call::<ReadResourceRequest>(
                    ClientRequest::ReadResource(Box::new(from_json(json!({"uri": uri})))),
                    "ReadResource",
                )?
                .map_err(|e| format!("resources/read {uri}: {}", e.message))?;
            let contents = serde_json::to_value(&result.contents).unwrap_or_default();
            read.push(json!({
                "uri": uri,
                "kinds": contents.as_array().into_iter().flatten()
                    .map(|c| if c.get("blob").is_some() { "blob" } else { "text" })
                    .collect::<Vec<_>>(),
            }));
        }
        // A subscription, kept until the end so that toggle-subscriber-updates has something
        // to update; unsubscribed and subscribed again to exercise both.
        if let Some(uri) = template_uris.first() {
            let subscribe = || ClientRequest::Subscribe(from_json(json!({"uri": uri})));
            self.call::<SubscribeRequest>(subscribe(), "Empty")?
                .map_err(|e| format!("resources/subscribe: {}", e.message))?;
            let unsubscribe = ClientRequest::Unsubscribe(from_json(json!({"uri": uri})));
            self.call::<UnsubscribeRequest>(unsubscribe, "Empty")?
                .map_err(|e| format!("resources/unsubscribe: {}", e.message))?;
            self.call::<SubscribeRequest>(subscribe(), "Empty")?
                .map_err(|e| format!("resources/subscribe: {}", e.message))?;
            self.report.insert("subscribed".into(), json!(uri));
        }
        self.report.insert(
            "resources".into(),
            json!({
                "listed": uris,
                "templates": templates.resource_templates.iter().map(|t| &t.uri_template).collect::<Vec<_>>(),
                "read": read,
            }),
        );
        Ok(())
    }

    fn finish(mut self) {
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        self.report
            .insert("messagesDecoded".into(), json!(self.decoded));
        self.report.insert("received".into(), json!(self.received));
        self.report
            .insert("elicitations".into(), Value::Array(self.elicitations));
        self.report
            .insert("sampling".into(), Value::Array(self.sampling));
        self.report
            .insert("linkedResourcesRead".into(), json!(self.linked));
        self.report.insert(
            "clientTasks".into(),
            json!({
                "created": self.tasks.len(),
                "requests": self.task_requests,
            }),
        );
        self.report.insert("failures".into(), json!(self.failures));
        println!("{}", Value::Object(self.report));
        if !self.failures.is_empty() {
            std::process::exit(1);
        }
    }
}

/// A task this client runs (it has the answer at once).
fn task_json(task_id: &str, status: &str) -> Value {
    json!({
        "taskId": task_id,
        "status": status,
        "createdAt": "2026-01-01T00:00:00Z",
        "lastUpdatedAt": "2026-01-01T00:00:00Z",
        "ttl": null,
        "pollInterval": 100,
    })
}

/// The envelope variant of a result, by name.
fn variant(result: &ServerResult) -> &'static str {
    match result {
        ServerResult::Empty(_) => "Empty",
        ServerResult::Initialize(_) => "Initialize",
        ServerResult::ListResources(_) => "ListResources",
        ServerResult::ListResourceTemplates(_) => "ListResourceTemplates",
        ServerResult::ReadResource(_) => "ReadResource",
        ServerResult::ListPrompts(_) => "ListPrompts",
        ServerResult::GetPrompt(_) => "GetPrompt",
        ServerResult::ListTools(_) => "ListTools",
        ServerResult::CallTool(_) => "CallTool",
        ServerResult::GetTask(_) => "GetTask",
        ServerResult::GetTaskPayload(_) => "GetTaskPayload",
        ServerResult::CancelTask(_) => "CancelTask",
        ServerResult::ListTasks(_) => "ListTasks",
        ServerResult::Complete(_) => "Complete",
    }
}

/// The arguments of a call, from the tool's `inputSchema`: every required property gets a value
/// of its type (its `default`, the first `enum` value, a string, 2 for a number). A few tools
/// get arguments that keep the run fast and offline.
fn arguments_for(tool: &Tool) -> Map<String, Value> {
    let schema = &tool.input_schema;
    let required: BTreeSet<&str> = schema
        .required
        .iter()
        .flatten()
        .map(String::as_str)
        .collect();
    let mut arguments = Map::new();
    for (name, property) in schema.properties.iter().flatten() {
        if !required.contains(name.as_str()) {
            continue;
        }
        // Each property's JSON Schema is kept as text; read it as a map.
        let property = property.to_map().unwrap_or_default();
        let value = if let Some(default) = property.get("default") {
            default.clone()
        } else if let Some(first) = property
            .get("enum")
            .and_then(Value::as_array)
            .and_then(|v| v.first())
        {
            first.clone()
        } else {
            match property.get("type").and_then(Value::as_str) {
                Some("number" | "integer") => json!(2),
                Some("boolean") => json!(true),
                Some("string") if property.get("format").and_then(Value::as_str) == Some("uri") => {
                    json!("https://example.com/")
                }
                _ => json!("hello from mcp-typed"),
            }
        };
        arguments.insert(name.clone(), value);
    }
    match tool.name.as_str() {
        // Its default is 10 s.
        "trigger-long-running-operation" => {
            arguments.insert("duration".into(), json!(0.4));
            arguments.insert("steps".into(), json!(2));
        }
        // Its default fetches a file from GitHub; the tests run offline.
        "gzip-file-as-resource" => {
            arguments.insert("name".into(), json!("interop.txt.gz"));
            arguments.insert(
                "data".into(),
                json!("data:text/plain;base64,aGVsbG8gZnJvbSBtY3Atc2NoZW1hCg=="),
            );
        }
        // The ambiguous query makes the task ask for a clarification (elicitation inside a task).
        "simulate-research-query" => {
            arguments.insert("ambiguous".into(), json!(true));
        }
        _ => {}
    }
    arguments
}

/// A value that satisfies one property (`current`: its default, if any).
fn fill_property(property: &PropertySchema, current: Option<&Value>) -> Value {
    match property {
        PropertySchema::String(s) => {
            if let Some(value) = current {
                return value.clone();
            }
            let text = match s.format {
                Some(StringFormat::Email) => "ada@example.com".to_owned(),
                Some(StringFormat::Uri) => "https://example.com/ada".to_owned(),
                Some(StringFormat::Date) => "1815-12-10".to_owned(),
                Some(StringFormat::DateTime) => "1815-12-10T09:00:00Z".to_owned(),
                None => {
                    let min = s.min_length.unwrap_or(0) as usize;
                    let max = s.max_length.map_or(usize::MAX, |m| m as usize);
                    let mut text: String = "Ada Lovelace".chars().take(max).collect();
                    while text.chars().count() < min {
                        text.push('a');
                    }
                    text
                }
            };
            json!(text)
        }
        PropertySchema::Number(n) => {
            // The default as given (a fractional one included: the erratum
            // `elicit-number-answers` lets `ElicitResult.content` hold any number), else the
            // lower bound, an integer for an integer property.
            if let Some(value) = current.filter(|v| !n.integer || v.is_i64() || v.is_u64()) {
                return value.clone();
            }
            let low = n.minimum.as_ref().and_then(Number::as_f64).unwrap_or(0.0);
            if n.integer {
                json!(low.ceil() as i64)
            } else {
                json!(low)
            }
        }
        PropertySchema::Boolean(b) => current.cloned().unwrap_or(json!(b.default.unwrap_or(true))),
        PropertySchema::SingleSelect(s) => current
            .cloned()
            .unwrap_or_else(|| json!(s.options.values().next().unwrap_or_default())),
        PropertySchema::MultiSelect(m) => current.cloned().unwrap_or_else(|| {
            let n = m.min_items.unwrap_or(1).max(1) as usize;
            json!(m.options.values().take(n).collect::<Vec<_>>())
        }),
    }
}

/// What a tool call returned, for the report.
fn summary(
    name: &str,
    arguments: &Map<String, Value>,
    result: &Result<CallToolResult, Error>,
) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("name".into(), json!(name));
    out.insert("arguments".into(), Value::Object(arguments.clone()));
    match result {
        Ok(result) => {
            let kinds: Vec<&str> = result.content.iter().map(content_kind).collect();
            let text: Vec<&str> = result
                .content
                .iter()
                .filter_map(|c| match c {
                    ContentBlock::TextContent(t) => Some(t.text.as_str()),
                    _ => None,
                })
                .collect();
            out.insert("isError".into(), json!(result.is_error.unwrap_or(false)));
            out.insert("content".into(), json!(kinds));
            out.insert("text".into(), json!(text.join("\n")));
            if let Some(structured) = &result.structured_content {
                out.insert("structured".into(), json!(structured));
            }
        }
        Err(error) => {
            out.insert(
                "error".into(),
                json!({"code": error.code, "message": error.message}),
            );
        }
    }
    out
}

fn content_kind(block: &ContentBlock) -> &'static str {
    match block {
        ContentBlock::TextContent(_) => "text",
        ContentBlock::ImageContent(_) => "image",
        ContentBlock::AudioContent(_) => "audio",
        ContentBlock::ResourceLink(_) => "resource_link",
        ContentBlock::EmbeddedResource(_) => "resource",
    }
}
