//! 2026-07-28: no session; input is asked for in results, and the call is retried.

use std::thread;
use std::time::Instant;

use mcp_mrtr::client::{Retrier, RetryError};
use mcp_mrtr::RetryParams;
use mcp_typed::jsonrpc::Request;
use mcp_typed::v2026_07_28::{
    CallToolRequest, CallToolRequestParams, CallToolResult, CallToolResultResponseResult,
    ClientCapabilities, ClientCapabilitiesElicitation, ClientCapabilitiesSampling, ClientMessage,
    ClientRequest, ContentBlock, DiscoverRequest, Error, GetPromptRequest, GetPromptRequestParams,
    GetPromptResult, GetPromptResultResponseResult, Implementation, InputRequiredResult,
    JsonObject, ListPromptsRequest, ListResourceTemplatesRequest, ListResourcesRequest,
    ListToolsRequest, LoggingLevel, PaginatedRequestParams, ProgressToken, PromptArgument,
    ReadResourceRequest, ReadResourceRequestParams, ReadResourceResult,
    ReadResourceResultContentsItem, ReadResourceResultResponseResult, RequestId, RequestMetaObject,
    RequestParams, ServerMessage, ServerNotification, Tool, PROTOCOL_VERSION,
};
use mcp_typed::{IndexMap, RawObject};

use crate::catalog::{collect_pages, get_prompts, read_resources, Catalog, Contents, Page};
use crate::made_up::{arguments_for, Answers};
use crate::report::{count_progress, show_log, show_progress, show_progress_count, Tally};
use crate::strict::{
    decode_message, decode_result, error_text, Connection, Outcome, ProtocolError, RESPONSE_TIMEOUT,
};
use crate::CLIENT_NAME;

/// The most requests one `tools/call`, `resources/read` or `prompts/get` may take in 2026-07-28
/// (the first and its retries): a server that keeps asking for input forever must not keep the
/// client forever.
const MAX_ROUNDS: u32 = 10;

pub(crate) fn run(connection: &mut Connection, tally: &mut Tally) -> Outcome<()> {
    // Optional for a client, but it says who the server is and whether it speaks this
    // revision before anything else is sent.
    let discovered = request::<DiscoverRequest>(
        connection,
        ClientRequest::discover(RequestParams::new(meta())),
    )?
    .map_err(fatal("server/discover"))?;
    if !discovered
        .supported_versions
        .iter()
        .any(|v| v == PROTOCOL_VERSION)
    {
        return Err(ProtocolError::new(format!(
            "the server supports {:?}, not {PROTOCOL_VERSION}",
            discovered.supported_versions
        )));
    }
    match discovered
        .meta
        .as_ref()
        .and_then(|meta| meta.io_modelcontextprotocol_server_info.as_ref())
    {
        Some(server) => eprintln!(
            "client: connected to {} {} (protocol {PROTOCOL_VERSION})",
            server.name, server.version
        ),
        None => {
            eprintln!("client: connected to an unnamed server (protocol {PROTOCOL_VERSION})")
        }
    }

    let tools = list::<ListToolsRequest, _>(connection, ClientRequest::list_tools, |page| {
        (page.tools, page.next_cursor)
    })?;
    for tool in tools {
        call_tool(connection, tally, &tool)?;
    }
    // Only what the server declared: a request for anything else is an error to it.
    let offers = &discovered.capabilities;
    if offers.resources.is_some() {
        read_resources(&mut Peer(connection), tally)?;
    }
    if offers.prompts.is_some() {
        get_prompts(&mut Peer(connection), tally)?;
    }
    connection.finish(|line| decode_message::<ServerMessage>(line).map(drop))
}

/// The `_meta` every request carries: with no session, each request says which revision
/// it speaks, who sends it and what the client can do.
fn meta() -> RequestMetaObject {
    let capabilities = ClientCapabilities::new()
        .with_elicitation(
            ClientCapabilitiesElicitation::new()
                .with_form(JsonObject::new())
                .with_url(JsonObject::new()),
        )
        .with_sampling(ClientCapabilitiesSampling::new())
        // `{}`: 2026-07-28 has no `listChanged` for roots (a client sends no notifications but
        // `cancelled` in this revision).
        .with_roots(RawObject::new());
    RequestMetaObject::new(capabilities, PROTOCOL_VERSION).with_io_modelcontextprotocol_client_info(
        Implementation::new(CLIENT_NAME, env!("CARGO_PKG_VERSION")),
    )
}

/// Every item of a list (`tools/list`, `resources/list`…), page after page. `variant` makes
/// the request of its params, `page` gives the items of a result and its `nextCursor`.
fn list<R: Request, T>(
    connection: &mut Connection,
    variant: fn(PaginatedRequestParams) -> ClientRequest,
    page: fn(R::Result) -> Page<T>,
) -> Outcome<Vec<T>> {
    collect_pages(R::METHOD, |cursor| {
        let params = PaginatedRequestParams::new(meta());
        let params = match cursor {
            Some(cursor) => params.with_cursor(cursor),
            None => params,
        };
        let result = request::<R>(connection, variant(params))?.map_err(fatal(R::METHOD))?;
        Ok(page(result))
    })
}

fn call_tool(connection: &mut Connection, tally: &mut Tally, tool: &Tool) -> Outcome<()> {
    // Every round sends these again (the `Retrier` retries `first`): the same arguments, as
    // the server may bind its state to them.
    let first = CallToolRequestParams::new(
        // Without a level, a server of this revision sends no log messages.
        meta().with_io_modelcontextprotocol_log_level(LoggingLevel::Info),
        &tool.name,
    )
    .with_arguments(arguments_for(&tool.input_schema)?);
    let mut progress = 0;
    let called = until_complete::<CallToolRequest>(
        connection,
        &tool.name,
        first,
        |mut params, id| {
            // The round's own id: unique among the requests in flight, as a token must be.
            params.meta.progress_token = Some(ProgressToken::Integer(id));
            ClientRequest::call_tool(params)
        },
        &mut progress,
    )?;
    show_progress_count(&tool.name, progress);
    match called {
        Ok(result) => tally.tool(
            &tool.name,
            &text_of(&result.content),
            result.is_error == Some(true),
        ),
        Err(why) => tally.failed(&tool.name, why),
    }
    Ok(())
}

/// The result of a request that may ask for input instead of completing.
trait MayAskInput {
    type Complete;
    fn complete(self) -> Result<Self::Complete, Box<InputRequiredResult>>;
}

impl MayAskInput for CallToolResultResponseResult {
    type Complete = CallToolResult;
    fn complete(self) -> Result<CallToolResult, Box<InputRequiredResult>> {
        match self {
            Self::CallTool(result) => Ok(*result),
            Self::InputRequired(asked) => Err(asked),
        }
    }
}

impl MayAskInput for ReadResourceResultResponseResult {
    type Complete = ReadResourceResult;
    fn complete(self) -> Result<ReadResourceResult, Box<InputRequiredResult>> {
        match self {
            Self::ReadResource(result) => Ok(*result),
            Self::InputRequired(asked) => Err(asked),
        }
    }
}

impl MayAskInput for GetPromptResultResponseResult {
    type Complete = GetPromptResult;
    fn complete(self) -> Result<GetPromptResult, Box<InputRequiredResult>> {
        match self {
            Self::GetPrompt(result) => Ok(*result),
            Self::InputRequired(asked) => Err(asked),
        }
    }
}

/// Sends `first` (a `tools/call`, `resources/read` or `prompts/get`) until it completes.
/// Each `InputRequiredResult` goes to a [`Retrier`], which checks what the server asks
/// against the capabilities `first` declares, has [`Answers`] answer it, validates every
/// form's answer, and makes the retry: `first` with the answers under the server's keys and
/// its state. `request` makes each round's params a request for that round's id. `what`
/// names the request in messages; `progress` counts the notifications for the rounds' ids.
/// The inner error says why the request failed: an error response, or too many rounds.
fn until_complete<R>(
    connection: &mut Connection,
    what: &str,
    first: R::Params,
    request: impl Fn(R::Params, i64) -> ClientRequest,
    progress: &mut usize,
) -> Outcome<Result<<R::Result as MayAskInput>::Complete, String>>
where
    R: Request,
    R::Params: RetryParams + Clone,
    R::Result: MayAskInput,
{
    // The `Retrier` counts the retries; `MAX_ROUNDS` counts the first request too. Once
    // they are spent, the last input asked for is not answered: it would be for nothing.
    let mut retrier = Retrier::for_request(&first).max_rounds(MAX_ROUNDS - 1);
    let mut params = first.clone();
    loop {
        let id = connection.next_id();
        let asked = match exchange::<R>(connection, id, request(params, id), progress)? {
            Ok(result) => match result.complete() {
                Ok(complete) => return Ok(Ok(complete)),
                Err(asked) => asked,
            },
            Err(error) => return Ok(Err(failure::<R>(error))),
        };
        let mut answers = Answers::default();
        let retry = match retrier.retry(&first, &asked, &mut answers) {
            Ok(retry) => retry,
            Err(RetryError::TooManyRounds { .. }) => {
                return Ok(Err(format!(
                    "still asking for input after {MAX_ROUNDS} rounds"
                )))
            }
            // The server broke the protocol (a result with nothing to answer, a request
            // this client did not declare, a form the spec does not allow), or this
            // client's answer breaks the form, a bug reported alike: nothing is sent.
            Err(error) => return Err(ProtocolError::new(format!("`{what}`: {error}"))),
        };
        answers.checked()?;
        // Zero after answers; when only state came back the server is still at work, and
        // each such round in a row waits longer.
        thread::sleep(retry.pause);
        params = retry.params;
    }
}

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

/// Sends a request and waits for its response. 2026-07-28 servers send no requests, only
/// notifications besides the response.
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
                    serde_json::to_string(&id).unwrap_or_default(),
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
        let first = ReadResourceRequestParams::new(meta(), uri);
        let read = until_complete::<ReadResourceRequest>(
            self.0,
            uri,
            first,
            |params, _| ClientRequest::read_resource(params),
            &mut 0,
        )?;
        Ok(read.map(|result| result.contents.into_iter().map(contents).collect()))
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
        // The same arguments on every round, like a tool's.
        let first = GetPromptRequestParams::new(meta(), name).with_arguments(arguments);
        let got = until_complete::<GetPromptRequest>(
            self.0,
            name,
            first,
            |params, _| ClientRequest::get_prompt(params),
            &mut 0,
        )?;
        Ok(got.map(|result| result.messages.len()))
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
        // List changes, resource updates, cancellations: nothing to do here.
        _ => {}
    }
}
