//! 2025-11-25: a session, with requests from the server while a request runs.

use std::time::Instant;

use mcp_typed::jsonrpc::{Request, METHOD_NOT_FOUND};
use mcp_typed::v2025_11_25::{
    CallToolRequest, CallToolRequestParams, CallToolRequestParamsMeta, ClientCapabilities,
    ClientCapabilitiesElicitation, ClientCapabilitiesRoots, ClientCapabilitiesSampling,
    ClientMessage, ClientNotification, ClientRequest, ClientResult, ContentBlock, Error,
    GetPromptRequest, GetPromptRequestParams, Implementation, InitializeRequest,
    InitializeRequestParams, ListPromptsRequest, ListResourceTemplatesRequest,
    ListResourcesRequest, ListToolsRequest, PaginatedRequestParams, PromptArgument,
    ReadResourceRequest, ReadResourceRequestParams, ReadResourceResultContentsItem, RequestId,
    Result as EmptyResult, ServerMessage, ServerNotification, ServerRequest, Tool,
    ToolExecutionTaskSupport, PROTOCOL_VERSION,
};
use mcp_typed::{IndexMap, RawObject};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::catalog::{collect_pages, get_prompts, read_resources, Catalog, Contents, Page};
use crate::made_up::{arguments_for, Answers};
use crate::report::{count_progress, show_log, show_progress, show_progress_count, Tally};
use crate::strict::{
    decode_message, decode_result, error_text, Connection, Outcome, ProtocolError, RESPONSE_TIMEOUT,
};
use crate::CLIENT_NAME;

pub(crate) fn run(connection: &mut Connection, tally: &mut Tally) -> Outcome<()> {
    let initialized = request::<InitializeRequest>(
        connection,
        ClientRequest::initialize(InitializeRequestParams::new(
            capabilities(),
            client_info(),
            PROTOCOL_VERSION,
        )),
    )?
    .map_err(fatal("initialize"))?;
    // The server may offer another revision; this client speaks one, so it stops there.
    if initialized.protocol_version != PROTOCOL_VERSION {
        return Err(ProtocolError::new(format!(
            "the server chose protocol {}; this client speaks {PROTOCOL_VERSION} only",
            initialized.protocol_version
        )));
    }
    let server = &initialized.server_info;
    eprintln!(
        "client: connected to {} {} (protocol {PROTOCOL_VERSION})",
        server.name, server.version
    );
    connection.send(&ClientMessage::notification(
        ClientNotification::initialized(None),
    ))?;

    let tools = list::<ListToolsRequest, _>(connection, ClientRequest::list_tools, |page| {
        (page.tools, page.next_cursor)
    })?;
    for tool in tools {
        call_tool(connection, tally, &tool)?;
    }
    // Only what the server declared: a request for anything else is an error to it.
    let offers = &initialized.capabilities;
    if offers.resources.is_some() {
        read_resources(&mut Peer(connection), tally)?;
    }
    if offers.prompts.is_some() {
        get_prompts(&mut Peer(connection), tally)?;
    }
    // Whatever the server still says must be valid too; its requests can no longer be
    // answered (stdin is closed) and are not an error.
    connection.finish(|line| decode_message::<ServerMessage>(line).map(drop))
}

/// What this client can do: forms and URL consent, sampling, and roots.
fn capabilities() -> ClientCapabilities {
    ClientCapabilities::new()
        .with_elicitation(
            ClientCapabilitiesElicitation::new()
                .with_form(RawObject::new())
                .with_url(RawObject::new()),
        )
        .with_sampling(ClientCapabilitiesSampling::new())
        .with_roots(ClientCapabilitiesRoots::new().with_list_changed(false))
}

fn client_info() -> Implementation {
    Implementation::new(CLIENT_NAME, env!("CARGO_PKG_VERSION"))
}

/// Every item of a list (`tools/list`, `resources/list`…), page after page. `variant` makes
/// the request of its params, `page` gives the items of a result and its `nextCursor`.
fn list<R: Request, T>(
    connection: &mut Connection,
    variant: fn(Option<PaginatedRequestParams>) -> ClientRequest,
    page: fn(R::Result) -> Page<T>,
) -> Outcome<Vec<T>> {
    collect_pages(R::METHOD, |cursor| {
        // The first page is asked for without params: this revision allows it.
        let params = cursor.map(|cursor| PaginatedRequestParams::new().with_cursor(cursor));
        let result = request::<R>(connection, variant(params))?.map_err(fatal(R::METHOD))?;
        Ok(page(result))
    })
}

fn call_tool(connection: &mut Connection, tally: &mut Tally, tool: &Tool) -> Outcome<()> {
    // Such a tool MUST be called as a task (`params.task`, then `tasks/get` and
    // `tasks/result`), which this client does not do: it declares no `tasks` capability.
    let support = tool
        .execution
        .as_ref()
        .and_then(|e| e.task_support.as_ref());
    if support == Some(&ToolExecutionTaskSupport::Required) {
        tally.skipped(&tool.name, "it must be called as a task");
        return Ok(());
    }
    let arguments = arguments_for(&tool.input_schema)?;
    let id = connection.next_id();
    let params = CallToolRequestParams::new(&tool.name)
        // The request's own id: unique among the requests in flight, as a token must be.
        .with_meta(CallToolRequestParamsMeta::new().with_progress_token(id))
        .with_arguments(arguments);
    let mut progress = 0;
    let response = exchange::<CallToolRequest>(
        connection,
        id,
        ClientRequest::call_tool(params),
        &mut progress,
    )?;
    show_progress_count(&tool.name, progress);
    match response {
        Ok(result) => tally.tool(
            &tool.name,
            &text_of(&result.content),
            result.is_error == Some(true),
        ),
        Err(error) => tally.failed(&tool.name, failure::<CallToolRequest>(error)),
    }
    Ok(())
}

/// The text blocks of a result, joined.
fn text_of(content: &[ContentBlock]) -> String {
    let texts: Vec<&str> = content
        .iter()
        .filter_map(|block| match block {
            ContentBlock::TextContent(text) => Some(text.text.as_str()),
            _ => None,
        })
        .collect();
    texts.join(" | ")
}

/// An error response to a request this client cannot go on without.
fn fatal(method: &'static str) -> impl FnOnce(Error) -> ProtocolError {
    move |error| ProtocolError::new(error_text(method, error.code, &error.message))
}

/// Sends a request and waits for its response, answering the server's own requests
/// meanwhile. The outer error is a protocol error; the inner one the server's error
/// response, which the caller judges.
fn request<R: Request>(
    connection: &mut Connection,
    request: ClientRequest,
) -> Outcome<Result<R::Result, Error>> {
    let id = connection.next_id();
    // It asks for no progress: any that comes anyway is shown, and not counted.
    exchange::<R>(connection, id, request, &mut 0)
}

/// [`request`] with the id chosen by the caller, who may have made it the request's
/// progress token: `progress` counts the `notifications/progress` that carry it.
fn exchange<R: Request>(
    connection: &mut Connection,
    pending: i64,
    request: ClientRequest,
    progress: &mut usize,
) -> Outcome<Result<R::Result, Error>> {
    connection.send(&ClientMessage::request(pending, request))?;
    let deadline = Instant::now() + RESPONSE_TIMEOUT;
    loop {
        let line = connection.receive_for(R::METHOD, deadline)?;
        match decode_message::<ServerMessage>(&line)? {
            ServerMessage::Response {
                id: RequestId::Integer(answered),
                ..
            } if answered == pending => return decode_result::<R>(&line).map(Ok),
            ServerMessage::Error {
                id: Some(RequestId::Integer(answered)),
                error,
            } if answered == pending => return Ok(Err(error)),
            ServerMessage::Request { id, request } => {
                let reply = match answer(&id, request)? {
                    Ok(result) => ClientMessage::response(id, result),
                    Err(error) => ClientMessage::error(id, error),
                };
                connection.send(&reply)?;
            }
            ServerMessage::Notification(notification) => {
                if let ServerNotification::Progress(update) = &notification {
                    count_progress(&update.progress_token, pending, progress);
                }
                show(&notification);
            }
            ServerMessage::Response { id, .. } | ServerMessage::Error { id: Some(id), .. } => {
                return Err(ProtocolError::new(format!(
                    "line {}: a response to id {}, but the pending request is id {pending}",
                    line.number,
                    id_text(&id),
                )));
            }
            ServerMessage::Error { id: None, error } => {
                return Err(ProtocolError::new(format!(
                    "line {}: the server reports error {}: {} (while `{}` was pending)",
                    line.number,
                    error.code,
                    error.message,
                    R::METHOD
                )));
            }
        }
    }
}

/// The connection, for the requests about resources and prompts.
struct Peer<'a>(&'a mut Connection);

impl Catalog for Peer<'_> {
    fn resources(&mut self) -> Outcome<Vec<String>> {
        let resources =
            list::<ListResourcesRequest, _>(self.0, ClientRequest::list_resources, |page| {
                (page.resources, page.next_cursor)
            })?;
        Ok(resources.into_iter().map(|resource| resource.uri).collect())
    }

    fn resource_templates(&mut self) -> Outcome<Vec<String>> {
        let templates = list::<ListResourceTemplatesRequest, _>(
            self.0,
            ClientRequest::list_resource_templates,
            |page| (page.resource_templates, page.next_cursor),
        )?;
        Ok(templates.into_iter().map(|t| t.uri_template).collect())
    }

    fn read(&mut self, uri: &str) -> Outcome<Result<Vec<Contents>, String>> {
        let params = ReadResourceRequestParams::new(uri);
        let response =
            request::<ReadResourceRequest>(self.0, ClientRequest::read_resource(params))?;
        Ok(response
            .map(|result| result.contents.into_iter().map(contents).collect())
            .map_err(failure::<ReadResourceRequest>))
    }

    fn prompts(&mut self) -> Outcome<Vec<(String, Vec<String>)>> {
        let prompts = list::<ListPromptsRequest, _>(self.0, ClientRequest::list_prompts, |page| {
            (page.prompts, page.next_cursor)
        })?;
        Ok(prompts
            .into_iter()
            .map(|prompt| (prompt.name, required(prompt.arguments)))
            .collect())
    }

    fn get_prompt(
        &mut self,
        name: &str,
        arguments: IndexMap<String, String>,
    ) -> Outcome<Result<usize, String>> {
        let params = GetPromptRequestParams::new(name).with_arguments(arguments);
        let response = request::<GetPromptRequest>(self.0, ClientRequest::get_prompt(params))?;
        Ok(response
            .map(|result| result.messages.len())
            .map_err(failure::<GetPromptRequest>))
    }
}

fn contents(item: ReadResourceResultContentsItem) -> Contents {
    match item {
        ReadResourceResultContentsItem::Text(text) => Contents::Text(text.text),
        ReadResourceResultContentsItem::Blob(blob) => Contents::Blob(blob.blob),
    }
}

/// The names of the arguments a prompt requires.
fn required(arguments: Option<Vec<PromptArgument>>) -> Vec<String> {
    let arguments = arguments.unwrap_or_default().into_iter();
    arguments
        .filter(|argument| argument.required == Some(true))
        .map(|argument| argument.name)
        .collect()
}

/// An error response to a request whose failure is counted, not fatal.
fn failure<R: Request>(error: Error) -> String {
    error_text(R::METHOD, error.code, &error.message)
}

/// A live request, answered as a 2026-07-28 retry answers the same request: converted to
/// that revision's `InputRequest` (the same JSON), answered by [`Answers`] through
/// `mcp_mrtr::client::answer` (capability checked, form parsed, defaults applied,
/// answer validated), and converted back.
fn answer(id: &RequestId, request: ServerRequest) -> Outcome<Result<ClientResult, Error>> {
    match request {
        ServerRequest::Ping(_) => return Ok(Ok(EmptyResult::new().into())),
        ServerRequest::Elicit(_)
        | ServerRequest::CreateMessage(_)
        | ServerRequest::ListRoots(_) => {}
        other => {
            return Ok(Err(Error::new(
                METHOD_NOT_FOUND,
                format!("this client does not serve `{}`", other.method()),
            )))
        }
    }
    // A live request has no key of its own: its id stands for one.
    let key = id_text(id);
    let asked: mcp_typed::v2026_07_28::InputRequest = convert(&request)?;
    let mut answers = Answers::default();
    let response = mcp_mrtr::client::answer(&convert(&capabilities())?, &key, &asked, &mut answers)
        .map_err(|error| {
            ProtocolError::new(format!("cannot answer {}: {error}", request.method()))
        })?;
    answers.checked()?;
    Ok(Ok(convert(&response)?))
}

/// A request id as JSON: `1`, `"a"`.
fn id_text(id: &RequestId) -> String {
    serde_json::to_string(id).unwrap_or_default()
}

/// A value of one revision as the same JSON in the other's type.
fn convert<T: Serialize, U: DeserializeOwned>(value: &T) -> Outcome<U> {
    serde_json::to_value(value)
        .and_then(serde_json::from_value)
        .map_err(|e| {
            ProtocolError::new(format!(
                "cannot convert between 2025-11-25 and 2026-07-28: {e}"
            ))
        })
}

fn show(notification: &ServerNotification) {
    match notification {
        ServerNotification::LoggingMessage(log) => {
            show_log(log.level.as_str(), log.logger.as_deref(), &log.data)
        }
        ServerNotification::Progress(progress) => show_progress(
            &progress.progress,
            progress.total.as_ref(),
            progress.message.as_deref(),
        ),
        ServerNotification::ElicitationComplete(done) => {
            eprintln!("client: elicitation {} completed", done.elicitation_id)
        }
        // List changes, resource updates, cancellations, task status: nothing to do here.
        _ => {}
    }
}
