//! Every message type of 2025-11-25 and 2026-07-28, built only with the generated
//! constructors (no struct literals, no `json!`), encodes and decodes back equal.
//!
//! Coverage is checked twice: each call set and result union has an exhaustive `match` (no
//! wildcard arm, so a new variant fails to compile here), and the kinds of the messages built
//! must be every arm of those matches (so a variant without a message fails at run time).

use mcp_typed::jsonrpc::DecodeError;
use mcp_typed::RawObject;
use serde::Serialize;
use std::collections::BTreeSet;
use std::fmt::Debug;
use std::str::FromStr;

/// An exhaustive `match` over a call set or result union, and the list of its variants.
macro_rules! variants {
    ($name:ident, $all:ident: $ty:ident { $($variant:ident),* $(,)? }) => {
        const $all: &[&str] = &[$(stringify!($variant)),*];
        fn $name(value: &$ty) -> &'static str {
            match value {
                $($ty::$variant(_) => stringify!($variant),)*
            }
        }
    };
}

/// Encodes `sent`, decodes the text and checks that it is `expected` (the value sent, except
/// where two result types have exactly the same members) and encodes to the same text.
fn round_trip<M>(sent: &M, expected: &M) -> String
where
    M: Serialize + FromStr<Err = DecodeError> + PartialEq + Debug,
{
    let text = serde_json::to_string(sent).expect("encodes");
    let decoded: M = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(&decoded, expected, "decoded from {text}");
    assert_eq!(serde_json::to_string(&decoded).expect("encodes"), text);
    text
}

/// A free-form JSON object (tool arguments and the like).
fn object(text: &str) -> RawObject {
    text.parse().expect("an object")
}

/// Checks that `kinds` (the kind of every message built) is exactly `all`.
fn assert_covers(revision: &str, kinds: &[String], all: BTreeSet<String>) {
    let covered: BTreeSet<String> = kinds.iter().cloned().collect();
    let missing: Vec<_> = all.difference(&covered).collect();
    assert!(missing.is_empty(), "{revision}: no message for {missing:?}");
    assert_eq!(covered, all, "{revision}");
}

fn prefixed<'a>(prefix: &'a str, names: &'a [&'a str]) -> impl Iterator<Item = String> + 'a {
    names.iter().map(move |name| format!("{prefix} {name}"))
}

mod v2025_11_25 {
    use super::*;
    use mcp_typed::v2025_11_25::*;

    variants!(client_request, CLIENT_REQUESTS: ClientRequest {
        Initialize, Ping, ListResources, ListResourceTemplates, ReadResource, Subscribe,
        Unsubscribe, ListPrompts, GetPrompt, ListTools, CallTool, GetTask, GetTaskPayload,
        CancelTask, ListTasks, SetLevel, Complete,
    });
    variants!(client_notification, CLIENT_NOTIFICATIONS: ClientNotification {
        Cancelled, Initialized, Progress, TaskStatus, RootsListChanged,
    });
    variants!(client_result, CLIENT_RESULTS: ClientResult {
        Empty, GetTask, GetTaskPayload, CancelTask, ListTasks, CreateMessage, ListRoots, Elicit,
    });
    variants!(server_request, SERVER_REQUESTS: ServerRequest {
        Ping, GetTask, GetTaskPayload, CancelTask, ListTasks, CreateMessage, ListRoots, Elicit,
    });
    variants!(server_notification, SERVER_NOTIFICATIONS: ServerNotification {
        Cancelled, Progress, ResourceListChanged, ResourceUpdated, PromptListChanged,
        ToolListChanged, TaskStatus, LoggingMessage, ElicitationComplete,
    });
    variants!(server_result, SERVER_RESULTS: ServerResult {
        Empty, Initialize, ListResources, ListResourceTemplates, ReadResource, ListPrompts,
        GetPrompt, ListTools, CallTool, GetTask, GetTaskPayload, CancelTask, ListTasks, Complete,
    });

    fn client_kind(message: &ClientMessage) -> String {
        match message {
            ClientMessage::Request { request, .. } => {
                format!("request {}", client_request(request))
            }
            ClientMessage::Notification(n) => format!("notification {}", client_notification(n)),
            ClientMessage::Response { result, .. } => format!("result {}", client_result(result)),
            ClientMessage::Error { .. } => "error".to_owned(),
        }
    }

    fn server_kind(message: &ServerMessage) -> String {
        match message {
            ServerMessage::Request { request, .. } => {
                format!("request {}", server_request(request))
            }
            ServerMessage::Notification(n) => format!("notification {}", server_notification(n)),
            ServerMessage::Response { result, .. } => format!("result {}", server_result(result)),
            ServerMessage::Error { .. } => "error".to_owned(),
        }
    }

    fn task(status: TaskStatus) -> GetTaskResult {
        GetTaskResult::new(
            "2025-11-25T10:00:00Z",
            "2025-11-25T10:00:05Z",
            status,
            "t1",
            60_000,
        )
        .with_poll_interval(500)
    }

    fn sampling() -> CreateMessageRequestParams {
        CreateMessageRequestParams::new(
            100,
            [SamplingMessage::new(
                SamplingMessageContent::text("What is 2+2?"),
                Role::User,
            )],
        )
        .with_system_prompt("Be brief.")
        .with_model_preferences(
            ModelPreferences::new().with_hints([ModelHint::new().with_name("claude")]),
        )
    }

    /// The messages a client sends, each with what it decodes to.
    fn client_messages() -> Vec<(ClientMessage, ClientMessage)> {
        let same = |m: ClientMessage| (m.clone(), m);
        let initialize = InitializeRequestParams::new(
            ClientCapabilities::new()
                .with_roots(ClientCapabilitiesRoots::new().with_list_changed(true))
                .with_elicitation(ClientCapabilitiesElicitation::new().with_form(RawObject::new())),
            Implementation::new("probe", "1.0.0").with_title("Probe"),
            "2025-11-25",
        );
        let mut messages = vec![
            same(ClientMessage::request(
                1,
                ClientRequest::initialize(initialize),
            )),
            same(ClientMessage::request(2, ClientRequest::ping(None))),
            same(ClientMessage::request(
                "abc",
                ClientRequest::ping(
                    RequestParams::new()
                        .with_meta(RequestParamsMeta::new().with_progress_token("p1")),
                ),
            )),
            same(ClientMessage::request(
                3,
                ClientRequest::list_resources(None),
            )),
            same(ClientMessage::request(
                4,
                ClientRequest::list_resource_templates(
                    PaginatedRequestParams::new().with_cursor("c1"),
                ),
            )),
            same(ClientMessage::request(
                5,
                ClientRequest::read_resource(ReadResourceRequestParams::new("file:///a.txt")),
            )),
            same(ClientMessage::request(
                6,
                ClientRequest::subscribe(SubscribeRequestParams::new("file:///a.txt")),
            )),
            same(ClientMessage::request(
                7,
                ClientRequest::unsubscribe(UnsubscribeRequestParams::new("file:///a.txt")),
            )),
            same(ClientMessage::request(8, ClientRequest::list_prompts(None))),
            same(ClientMessage::request(
                9,
                ClientRequest::get_prompt(
                    GetPromptRequestParams::new("greet")
                        .with_arguments([("name".to_owned(), "Ada".to_owned())]),
                ),
            )),
            same(ClientMessage::request(10, ClientRequest::list_tools(None))),
            same(ClientMessage::request(
                11,
                ClientRequest::call_tool(
                    CallToolRequestParams::new("add")
                        .with_arguments(object(r#"{"a":2,"b":2}"#))
                        .with_task(TaskMetadata::new().with_ttl(60_000)),
                ),
            )),
            // `From<Params>` for a params type used by one variant only.
            same(ClientMessage::request(
                12,
                CallToolRequestParams::new("add"),
            )),
            same(ClientMessage::request(
                13,
                ClientRequest::get_task(GetTaskRequestParams::new("t1")),
            )),
            same(ClientMessage::request(
                14,
                ClientRequest::get_task_payload(GetTaskPayloadRequestParams::new("t1")),
            )),
            same(ClientMessage::request(
                15,
                ClientRequest::cancel_task(CancelTaskRequestParams::new("t1")),
            )),
            same(ClientMessage::request(16, ClientRequest::list_tasks(None))),
            same(ClientMessage::request(
                17,
                ClientRequest::set_level(SetLevelRequestParams::new(LoggingLevel::Info)),
            )),
            same(ClientMessage::request(
                18,
                ClientRequest::complete(
                    CompleteRequestParams::new(
                        CompleteRequestParamsArgument::new("name", "A"),
                        CompleteRequestParamsRef::prompt("greet"),
                    )
                    .with_context(
                        CompleteRequestParamsContext::new()
                            .with_arguments([("lang".to_owned(), "en".to_owned())]),
                    ),
                ),
            )),
            same(ClientMessage::request(
                19,
                ClientRequest::complete(CompleteRequestParams::new(
                    CompleteRequestParamsArgument::new("path", "sr"),
                    CompleteRequestParamsRef::resource_template("file:///{path}"),
                )),
            )),
            same(ClientMessage::notification(ClientNotification::cancelled(
                CancelledNotificationParams::new()
                    .with_request_id(3)
                    .with_reason("timeout"),
            ))),
            same(ClientMessage::notification(
                ClientNotification::initialized(None),
            )),
            same(ClientMessage::notification(ClientNotification::progress(
                ProgressNotificationParams::new(50, "p1")
                    .with_total(100)
                    .with_message("half way"),
            ))),
            same(ClientMessage::notification(
                ClientNotification::task_status(TaskStatusNotificationParams::new(
                    "2025-11-25T10:00:00Z",
                    "2025-11-25T10:00:05Z",
                    TaskStatus::InputRequired,
                    "t1",
                    None,
                )),
            )),
            same(ClientMessage::notification(
                ClientNotification::roots_list_changed(None),
            )),
            same(ClientMessage::notification(
                ClientNotification::roots_list_changed(NotificationParams::new()),
            )),
            same(ClientMessage::response(1, Result::new())),
            same(ClientMessage::response(2, task(TaskStatus::Working))),
            same(ClientMessage::response(
                3,
                ListTasksResult::new([Task::new(
                    "2025-11-25T10:00:00Z",
                    "2025-11-25T10:00:05Z",
                    TaskStatus::Completed,
                    "t1",
                    None,
                )]),
            )),
            same(ClientMessage::response(
                4,
                CreateMessageResult::new(
                    CreateMessageResultContent::text("4"),
                    "claude",
                    Role::Assistant,
                )
                .with_stop_reason("endTurn"),
            )),
            same(ClientMessage::response(
                5,
                ListRootsResult::new([Root::new("file:///home/ada").with_name("home")]),
            )),
            same(ClientMessage::response(
                6,
                ElicitResult::new(ElicitResultAction::Accept).with_content([
                    ("name".to_owned(), ElicitResultContentValue::from("Ada")),
                    ("age".to_owned(), ElicitResultContentValue::from(36)),
                    ("admin".to_owned(), ElicitResultContentValue::from(false)),
                    (
                        "tags".to_owned(),
                        ElicitResultContentValue::from(vec!["a".to_owned()]),
                    ),
                ]),
            )),
            same(ClientMessage::error(
                RequestId::from(7),
                Error::new(-32601, "Method not found"),
            )),
            same(ClientMessage::error_without_id(
                Error::new(-32700, "Parse error").with_data("not JSON"),
            )),
        ];
        // Result types with the same members as an earlier one decode as that one (as
        // tests/messages.rs documents): only the request can tell them apart.
        messages.push((
            ClientMessage::response(8, GetTaskPayloadResult::new()),
            ClientMessage::response(8, Result::new()),
        ));
        messages.push((
            ClientMessage::response(
                9,
                CancelTaskResult::new(
                    "2025-11-25T10:00:00Z",
                    "2025-11-25T10:00:05Z",
                    TaskStatus::Cancelled,
                    "t1",
                    60_000,
                )
                .with_poll_interval(500),
            ),
            ClientMessage::response(9, task(TaskStatus::Cancelled)),
        ));
        messages
    }

    /// The messages a server sends, each with what it decodes to.
    fn server_messages() -> Vec<(ServerMessage, ServerMessage)> {
        let same = |m: ServerMessage| (m.clone(), m);
        let requested = ElicitRequestFormParamsRequestedSchema::new([
            (
                "name".to_owned(),
                PrimitiveSchemaDefinition::from(StringSchema::new().with_min_length(1)),
            ),
            ("age".to_owned(), PrimitiveSchemaDefinition::integer()),
            ("admin".to_owned(), PrimitiveSchemaDefinition::boolean()),
            (
                "color".to_owned(),
                PrimitiveSchemaDefinition::from(UntitledSingleSelectEnumSchema::new([
                    "red".to_owned(),
                    "blue".to_owned(),
                ])),
            ),
        ])
        .with_required(["name".to_owned()]);
        let initialize = InitializeResult::new(
            ServerCapabilities::new()
                .with_tools(ServerCapabilitiesTools::new().with_list_changed(true))
                .with_resources(ServerCapabilitiesResources::new().with_subscribe(true)),
            "2025-11-25",
            Implementation::new("server", "1.0.0"),
        )
        .with_instructions("Call add.");
        let mut messages = vec![
            same(ServerMessage::request(1, ServerRequest::ping(None))),
            same(ServerMessage::request(
                2,
                ServerRequest::get_task(GetTaskRequestParams::new("t1")),
            )),
            same(ServerMessage::request(
                3,
                ServerRequest::get_task_payload(GetTaskPayloadRequestParams::new("t1")),
            )),
            same(ServerMessage::request(
                4,
                ServerRequest::cancel_task(CancelTaskRequestParams::new("t1")),
            )),
            same(ServerMessage::request(
                5,
                ServerRequest::list_tasks(PaginatedRequestParams::new().with_cursor("c1")),
            )),
            same(ServerMessage::request(
                6,
                ServerRequest::create_message(sampling()),
            )),
            same(ServerMessage::request(7, ServerRequest::list_roots(None))),
            same(ServerMessage::request(
                8,
                ServerRequest::elicit(ElicitRequestParams::form("Who are you?", requested)),
            )),
            same(ServerMessage::request(
                9,
                ServerRequest::elicit(ElicitRequestParams::url(
                    "e1",
                    "Sign in",
                    "https://example.com/login",
                )),
            )),
            same(ServerMessage::notification(ServerNotification::cancelled(
                CancelledNotificationParams::new().with_request_id("abc"),
            ))),
            same(ServerMessage::notification(ServerNotification::progress(
                ProgressNotificationParams::new(1, 7),
            ))),
            same(ServerMessage::notification(
                ServerNotification::resource_list_changed(None),
            )),
            same(ServerMessage::notification(
                ServerNotification::resource_updated(ResourceUpdatedNotificationParams::new(
                    "file:///a.txt",
                )),
            )),
            same(ServerMessage::notification(
                ServerNotification::prompt_list_changed(None),
            )),
            same(ServerMessage::notification(
                ServerNotification::tool_list_changed(NotificationParams::new()),
            )),
            same(ServerMessage::notification(
                ServerNotification::task_status(
                    TaskStatusNotificationParams::new(
                        "2025-11-25T10:00:00Z",
                        "2025-11-25T10:00:09Z",
                        TaskStatus::Failed,
                        "t1",
                        60_000,
                    )
                    .with_status_message("boom"),
                ),
            )),
            same(ServerMessage::notification(
                ServerNotification::logging_message(
                    LoggingMessageNotificationParams::new(
                        "disk almost full",
                        LoggingLevel::Warning,
                    )
                    .with_logger("fs"),
                ),
            )),
            same(ServerMessage::notification(
                ServerNotification::elicitation_complete(
                    ElicitationCompleteNotificationParams::new("e1"),
                ),
            )),
            same(ServerMessage::response(1, Result::new())),
            same(ServerMessage::response(2, initialize)),
            same(ServerMessage::response(
                3,
                ListResourcesResult::new([Resource::new("a.txt", "file:///a.txt")
                    .with_mime_type("text/plain")
                    .with_size(5)])
                .with_next_cursor("c2"),
            )),
            same(ServerMessage::response(
                4,
                ListResourceTemplatesResult::new([ResourceTemplate::new(
                    "files",
                    "file:///{path}",
                )]),
            )),
            same(ServerMessage::response(
                5,
                ReadResourceResult::new([
                    ReadResourceResultContentsItem::from(TextResourceContents::new(
                        "hello",
                        "file:///a.txt",
                    )),
                    ReadResourceResultContentsItem::from(BlobResourceContents::new(
                        "aGk=",
                        "file:///b.bin",
                    )),
                ]),
            )),
            same(ServerMessage::response(
                6,
                ListPromptsResult::new([Prompt::new("greet")
                    .with_arguments([PromptArgument::new("name").with_required(true)])]),
            )),
            same(ServerMessage::response(
                7,
                GetPromptResult::new([
                    PromptMessage::new(ContentBlock::text("Hello"), Role::User),
                    PromptMessage::new(ContentBlock::image("aGk=", "image/png"), Role::User),
                    PromptMessage::new(ContentBlock::audio("aGk=", "audio/wav"), Role::User),
                    PromptMessage::new(
                        ContentBlock::resource_link("a.txt", "file:///a.txt"),
                        Role::Assistant,
                    ),
                    PromptMessage::new(
                        ContentBlock::resource(TextResourceContents::new("hello", "file:///a.txt")),
                        Role::Assistant,
                    ),
                ])
                .with_description("A greeting"),
            )),
            same(ServerMessage::response(
                8,
                ListToolsResult::new([Tool::new(ToolInputSchema::new(), "add")
                    .with_annotations(ToolAnnotations::new().with_read_only_hint(true))
                    .with_execution(
                        ToolExecution::new().with_task_support(ToolExecutionTaskSupport::Optional),
                    )]),
            )),
            same(ServerMessage::response(
                9,
                CallToolResult::new([ContentBlock::text("4")]).with_is_error(false),
            )),
            same(ServerMessage::response(10, task(TaskStatus::Working))),
            same(ServerMessage::response(
                11,
                ListTasksResult::new([]).with_next_cursor("c3"),
            )),
            same(ServerMessage::response(
                12,
                CompleteResult::new(
                    CompleteResultCompletion::new(["Ada".to_owned()])
                        .with_has_more(false)
                        .with_total(1),
                ),
            )),
            same(ServerMessage::error(
                RequestId::from(13),
                Error::new(-32602, "Invalid params"),
            )),
        ];
        messages.push((
            ServerMessage::response(14, GetTaskPayloadResult::new()),
            ServerMessage::response(14, Result::new()),
        ));
        messages.push((
            ServerMessage::response(
                15,
                CancelTaskResult::new(
                    "2025-11-25T10:00:00Z",
                    "2025-11-25T10:00:05Z",
                    TaskStatus::Cancelled,
                    "t1",
                    60_000,
                )
                .with_poll_interval(500),
            ),
            ServerMessage::response(15, task(TaskStatus::Cancelled)),
        ));
        messages
    }

    #[test]
    fn every_client_message_round_trips() {
        let messages = client_messages();
        let kinds: Vec<String> = messages.iter().map(|(sent, _)| client_kind(sent)).collect();
        for (sent, expected) in &messages {
            round_trip(sent, expected);
        }
        assert_eq!(CLIENT_REQUESTS.len(), ClientRequest::METHODS.len());
        assert_eq!(
            CLIENT_NOTIFICATIONS.len(),
            ClientNotification::METHODS.len()
        );
        let all = prefixed("request", CLIENT_REQUESTS)
            .chain(prefixed("notification", CLIENT_NOTIFICATIONS))
            .chain(prefixed("result", CLIENT_RESULTS))
            .chain(["error".to_owned()])
            .collect();
        assert_covers("2025-11-25 client", &kinds, all);
    }

    #[test]
    fn every_server_message_round_trips() {
        let messages = server_messages();
        let kinds: Vec<String> = messages.iter().map(|(sent, _)| server_kind(sent)).collect();
        for (sent, expected) in &messages {
            round_trip(sent, expected);
        }
        assert_eq!(SERVER_REQUESTS.len(), ServerRequest::METHODS.len());
        assert_eq!(
            SERVER_NOTIFICATIONS.len(),
            ServerNotification::METHODS.len()
        );
        let all = prefixed("request", SERVER_REQUESTS)
            .chain(prefixed("notification", SERVER_NOTIFICATIONS))
            .chain(prefixed("result", SERVER_RESULTS))
            .chain(["error".to_owned()])
            .collect();
        assert_covers("2025-11-25 server", &kinds, all);
    }

    #[test]
    fn encodings_are_the_spec_shapes() {
        let call = ClientMessage::request(
            1,
            ClientRequest::call_tool(CallToolRequestParams::new("add")),
        );
        assert_eq!(
            round_trip(&call, &call),
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add"}}"#
        );
        let ping = ClientMessage::request("abc", ClientRequest::ping(None));
        assert_eq!(
            round_trip(&ping, &ping),
            r#"{"jsonrpc":"2.0","id":"abc","method":"ping"}"#
        );
        let initialized = ClientMessage::notification(ClientNotification::initialized(None));
        assert_eq!(
            round_trip(&initialized, &initialized),
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#
        );
        let result = ServerMessage::response(7, CallToolResult::new([ContentBlock::text("4")]));
        assert_eq!(
            round_trip(&result, &result),
            r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"4"}]}}"#
        );
        let task = ServerMessage::response(8, task(TaskStatus::Working));
        assert_eq!(
            round_trip(&task, &task),
            r#"{"jsonrpc":"2.0","id":8,"result":{"createdAt":"2025-11-25T10:00:00Z","lastUpdatedAt":"2025-11-25T10:00:05Z","pollInterval":500,"status":"working","taskId":"t1","ttl":60000}}"#
        );
        let null_ttl = ServerMessage::response(
            9,
            ListTasksResult::new([Task::new("a", "b", TaskStatus::Completed, "t2", None)]),
        );
        assert_eq!(
            round_trip(&null_ttl, &null_ttl),
            r#"{"jsonrpc":"2.0","id":9,"result":{"tasks":[{"createdAt":"a","lastUpdatedAt":"b","status":"completed","taskId":"t2","ttl":null}]}}"#
        );
        let error = ServerMessage::error_without_id(Error::new(-32700, "Parse error"));
        assert_eq!(
            round_trip(&error, &error),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#
        );
        let url = ServerMessage::request(
            2,
            ServerRequest::elicit(ElicitRequestParams::url("e1", "Sign in", "https://x.test")),
        );
        assert_eq!(
            round_trip(&url, &url),
            r#"{"jsonrpc":"2.0","id":2,"method":"elicitation/create","params":{"mode":"url","elicitationId":"e1","message":"Sign in","url":"https://x.test"}}"#
        );
    }

    #[test]
    fn request_ids_from_integers_and_strings() {
        assert_eq!(RequestId::from(7), RequestId::Integer(7));
        assert_eq!(RequestId::from("abc"), RequestId::String("abc".to_owned()));
        assert_eq!(RequestId::from("abc".to_owned()), RequestId::from("abc"));
        assert_eq!(
            ClientMessage::request(7, ClientRequest::ping(None)),
            ClientMessage::request(RequestId::from(7), ClientRequest::ping(None))
        );
    }
}

mod v2026_07_28 {
    use super::*;
    use mcp_typed::v2026_07_28::*;

    variants!(client_request, CLIENT_REQUESTS: ClientRequest {
        Discover, ListResources, ListResourceTemplates, ReadResource, SubscriptionsListen,
        ListPrompts, GetPrompt, ListTools, CallTool, Complete,
    });
    variants!(client_notification, CLIENT_NOTIFICATIONS: ClientNotification { Cancelled });
    variants!(server_notification, SERVER_NOTIFICATIONS: ServerNotification {
        Cancelled, Progress, ResourceListChanged, SubscriptionsAcknowledged, ResourceUpdated,
        PromptListChanged, ToolListChanged, LoggingMessage,
    });
    variants!(server_result, SERVER_RESULTS: ServerResult {
        Empty, InputRequired, Discover, ListResources, ListResourceTemplates, ReadResource,
        SubscriptionsListen, ListPrompts, GetPrompt, ListTools, CallTool, Complete,
    });

    // In 2026-07-28 a client sends only requests and notifications (its results travel inside
    // the next request as `inputResponses`), and a server sends no requests.
    fn client_kind(message: &ClientMessage) -> String {
        match message {
            ClientMessage::Request { request, .. } => {
                format!("request {}", client_request(request))
            }
            ClientMessage::Notification(n) => format!("notification {}", client_notification(n)),
        }
    }

    fn server_kind(message: &ServerMessage) -> String {
        match message {
            ServerMessage::Notification(n) => format!("notification {}", server_notification(n)),
            ServerMessage::Response { result, .. } => format!("result {}", server_result(result)),
            ServerMessage::Error { .. } => "error".to_owned(),
        }
    }

    /// The `_meta` every 2026 request carries.
    fn meta() -> RequestMetaObject {
        RequestMetaObject::new(ClientCapabilities::new(), "2026-07-28")
    }

    fn sampling() -> CreateMessageRequestParams {
        CreateMessageRequestParams::new(
            100,
            [SamplingMessage::new(
                SamplingMessageContent::text("What is 2+2?"),
                Role::User,
            )],
        )
        .with_system_prompt("Be brief.")
    }

    fn client_messages() -> Vec<ClientMessage> {
        let full_meta = meta()
            .with_io_modelcontextprotocol_client_info(Implementation::new("probe", "1.0.0"))
            .with_io_modelcontextprotocol_log_level(LoggingLevel::Debug)
            .with_progress_token("p1");
        let responses: InputResponses = [
            (
                "s1".to_owned(),
                InputResponse::from(CreateMessageResult::new(
                    CreateMessageResultContent::text("4"),
                    "claude",
                    Role::Assistant,
                )),
            ),
            (
                "r1".to_owned(),
                InputResponse::from(ListRootsResult::new([Root::new("file:///home/ada")])),
            ),
            (
                "e1".to_owned(),
                InputResponse::from(
                    ElicitResult::new(ElicitResultAction::Accept)
                        .with_content([("name".to_owned(), ElicitResultContentValue::from("Ada"))]),
                ),
            ),
        ]
        .into();
        vec![
            ClientMessage::request(1, ClientRequest::discover(RequestParams::new(full_meta))),
            ClientMessage::request(
                2,
                ClientRequest::list_resources(PaginatedRequestParams::new(meta())),
            ),
            ClientMessage::request(
                3,
                ClientRequest::list_resource_templates(
                    PaginatedRequestParams::new(meta()).with_cursor("c1"),
                ),
            ),
            ClientMessage::request(
                4,
                ClientRequest::read_resource(ReadResourceRequestParams::new(
                    meta(),
                    "file:///a.txt",
                )),
            ),
            ClientMessage::request(
                5,
                ClientRequest::subscriptions_listen(SubscriptionsListenRequestParams::new(
                    meta(),
                    SubscriptionFilter::new()
                        .with_tools_list_changed(true)
                        .with_resource_subscriptions(["file:///a.txt".to_owned()]),
                )),
            ),
            ClientMessage::request(
                6,
                ClientRequest::list_prompts(PaginatedRequestParams::new(meta())),
            ),
            ClientMessage::request(
                7,
                ClientRequest::get_prompt(
                    GetPromptRequestParams::new(meta(), "greet")
                        .with_arguments([("name".to_owned(), "Ada".to_owned())]),
                ),
            ),
            ClientMessage::request(
                8,
                ClientRequest::list_tools(PaginatedRequestParams::new(meta())),
            ),
            ClientMessage::request(
                9,
                ClientRequest::call_tool(
                    CallToolRequestParams::new(meta(), "add")
                        .with_arguments(object(r#"{"a":2,"b":2}"#))
                        .with_input_responses(responses)
                        .with_request_state("state-1"),
                ),
            ),
            ClientMessage::request("abc", CallToolRequestParams::new(meta(), "add")),
            ClientMessage::request(
                10,
                ClientRequest::complete(CompleteRequestParams::new(
                    meta(),
                    CompleteRequestParamsArgument::new("path", "sr"),
                    CompleteRequestParamsRef::resource_template("file:///{path}"),
                )),
            ),
            ClientMessage::notification(ClientNotification::cancelled(
                CancelledNotificationParams::new(5).with_reason("done"),
            )),
        ]
    }

    /// The messages a server sends, each with what it decodes to.
    fn server_messages() -> Vec<(ServerMessage, ServerMessage)> {
        let same = |m: ServerMessage| (m.clone(), m);
        let requested = ElicitRequestFormParamsRequestedSchema::new([
            (
                "name".to_owned(),
                PrimitiveSchemaDefinition::from(StringSchema::new()),
            ),
            ("admin".to_owned(), PrimitiveSchemaDefinition::boolean()),
        ]);
        let input_requests: InputRequests = [
            ("s1".to_owned(), InputRequest::create_message(sampling())),
            ("r1".to_owned(), InputRequest::list_roots()),
            (
                "e1".to_owned(),
                InputRequest::elicit(ElicitRequestParams::form("Who are you?", requested)),
            ),
            (
                "e2".to_owned(),
                InputRequest::elicit(ElicitRequestParams::url(
                    "Sign in",
                    "https://example.com/login",
                )),
            ),
        ]
        .into();
        let server_info = ResultMetaObject::new()
            .with_io_modelcontextprotocol_server_info(Implementation::new("server", "1.0.0"));
        vec![
            same(ServerMessage::notification(ServerNotification::cancelled(
                CancelledNotificationParams::new(5),
            ))),
            same(ServerMessage::notification(ServerNotification::progress(
                ProgressNotificationParams::new(50, "p1").with_total(100),
            ))),
            same(ServerMessage::notification(
                ServerNotification::resource_list_changed(None),
            )),
            same(ServerMessage::notification(
                ServerNotification::subscriptions_acknowledged(
                    SubscriptionsAcknowledgedNotificationParams::new(
                        SubscriptionFilter::new().with_tools_list_changed(true),
                    )
                    .with_meta(
                        NotificationMetaObject::new()
                            .with_io_modelcontextprotocol_subscription_id(5),
                    ),
                ),
            )),
            same(ServerMessage::notification(
                ServerNotification::resource_updated(ResourceUpdatedNotificationParams::new(
                    "file:///a.txt",
                )),
            )),
            same(ServerMessage::notification(
                ServerNotification::prompt_list_changed(NotificationParams::new()),
            )),
            same(ServerMessage::notification(
                ServerNotification::tool_list_changed(None),
            )),
            same(ServerMessage::notification(
                ServerNotification::logging_message(
                    LoggingMessageNotificationParams::new(
                        "disk almost full",
                        LoggingLevel::Warning,
                    )
                    .with_logger("fs"),
                ),
            )),
            same(ServerMessage::response(1, Result::new())),
            same(ServerMessage::response(
                2,
                InputRequiredResult::new()
                    .with_input_requests(input_requests)
                    .with_request_state("state-1"),
            )),
            same(ServerMessage::response(
                3,
                InputRequiredResult::new().with_request_state("state-2"),
            )),
            same(ServerMessage::response(
                4,
                DiscoverResult::new(
                    DiscoverResultCacheScope::Public,
                    ServerCapabilities::new()
                        .with_tools(ServerCapabilitiesTools::new().with_list_changed(true)),
                    ["2026-07-28".to_owned()],
                    3_600_000,
                )
                .with_instructions("Call add.")
                .with_meta(server_info),
            )),
            same(ServerMessage::response(
                5,
                ListResourcesResult::new(
                    ListResourcesResultCacheScope::Private,
                    [Resource::new("a.txt", "file:///a.txt")],
                    0,
                )
                .with_next_cursor("c2"),
            )),
            same(ServerMessage::response(
                6,
                ListResourceTemplatesResult::new(
                    ListResourceTemplatesResultCacheScope::Public,
                    [ResourceTemplate::new("files", "file:///{path}")],
                    60_000,
                ),
            )),
            same(ServerMessage::response(
                7,
                ReadResourceResult::new(
                    ReadResourceResultCacheScope::Private,
                    [ReadResourceResultContentsItem::from(
                        TextResourceContents::new("hello", "file:///a.txt"),
                    )],
                    1_000,
                ),
            )),
            same(ServerMessage::response(
                8,
                SubscriptionsListenResult::new(SubscriptionsListenResultMetaObject::new(5)),
            )),
            same(ServerMessage::response(
                9,
                ListPromptsResult::new(
                    ListPromptsResultCacheScope::Public,
                    [Prompt::new("greet")],
                    60_000,
                ),
            )),
            same(ServerMessage::response(
                10,
                GetPromptResult::new([PromptMessage::new(ContentBlock::text("Hello"), Role::User)]),
            )),
            same(ServerMessage::response(
                11,
                ListToolsResult::new(
                    ListToolsResultCacheScope::Public,
                    [Tool::new(ToolInputSchema::new(), "add")],
                    60_000,
                ),
            )),
            same(ServerMessage::response(
                12,
                CallToolResult::new([ContentBlock::text("4")])
                    .with_structured_content(serde_json::Value::from(4)),
            )),
            same(ServerMessage::response(
                13,
                CompleteResult::new(CompleteResultCompletion::new(["src".to_owned()])),
            )),
            same(ServerMessage::error(
                RequestId::from(14),
                Error::new(-32602, "Invalid params"),
            )),
            same(ServerMessage::error_without_id(Error::new(
                -32700,
                "Parse error",
            ))),
        ]
    }

    #[test]
    fn every_client_message_round_trips() {
        let messages = client_messages();
        let kinds: Vec<String> = messages.iter().map(client_kind).collect();
        for message in &messages {
            round_trip(message, message);
        }
        assert_eq!(CLIENT_REQUESTS.len(), ClientRequest::METHODS.len());
        assert_eq!(
            CLIENT_NOTIFICATIONS.len(),
            ClientNotification::METHODS.len()
        );
        let all = prefixed("request", CLIENT_REQUESTS)
            .chain(prefixed("notification", CLIENT_NOTIFICATIONS))
            .collect();
        assert_covers("2026-07-28 client", &kinds, all);
    }

    #[test]
    fn every_server_message_round_trips() {
        let messages = server_messages();
        let kinds: Vec<String> = messages.iter().map(|(sent, _)| server_kind(sent)).collect();
        for (sent, expected) in &messages {
            let text = round_trip(sent, expected);
            // Every result built with `new` says it is complete, except `InputRequiredResult`.
            if let ServerMessage::Response { result, .. } = sent {
                let value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
                let expected = if matches!(result, ServerResult::InputRequired(_)) {
                    "input_required"
                } else {
                    "complete"
                };
                assert_eq!(value["result"]["resultType"], expected, "{text}");
            }
        }
        assert_eq!(
            SERVER_NOTIFICATIONS.len(),
            ServerNotification::METHODS.len()
        );
        let all = prefixed("notification", SERVER_NOTIFICATIONS)
            .chain(prefixed("result", SERVER_RESULTS))
            .chain(["error".to_owned()])
            .collect();
        assert_covers("2026-07-28 server", &kinds, all);
    }

    #[test]
    fn encodings_are_the_spec_shapes() {
        let call = ClientMessage::request(
            1,
            ClientRequest::call_tool(CallToolRequestParams::new(meta(), "add")),
        );
        assert_eq!(
            round_trip(&call, &call),
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"add"}}"#
        );
        let cancelled = ClientMessage::notification(ClientNotification::cancelled(
            CancelledNotificationParams::new("abc"),
        ));
        assert_eq!(
            round_trip(&cancelled, &cancelled),
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"abc"}}"#
        );
        assert_eq!(
            serde_json::to_string(&ServerMessage::response(7, InputRequiredResult::new()))
                .expect("encodes"),
            r#"{"jsonrpc":"2.0","id":7,"result":{"resultType":"input_required"}}"#
        );
        let empty = ServerMessage::response(7, Result::new());
        assert_eq!(
            round_trip(&empty, &empty),
            r#"{"jsonrpc":"2.0","id":7,"result":{"resultType":"complete"}}"#
        );
        let result = ServerMessage::response(7, CallToolResult::new([ContentBlock::text("4")]));
        assert_eq!(
            round_trip(&result, &result),
            r#"{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"4"}],"resultType":"complete"}}"#
        );
        let roots = ServerMessage::response(
            8,
            InputRequiredResult::new()
                .with_input_requests([("r1".to_owned(), InputRequest::list_roots())]),
        );
        assert_eq!(
            round_trip(&roots, &roots),
            r#"{"jsonrpc":"2.0","id":8,"result":{"inputRequests":{"r1":{"method":"roots/list"}},"resultType":"input_required"}}"#
        );
    }

    #[test]
    fn result_type_defaults() {
        assert_eq!(InputRequiredResult::new().result_type, "input_required");
        for result_type in [
            Result::new().result_type,
            CallToolResult::new([]).result_type,
            GetPromptResult::new([]).result_type,
            CompleteResult::new(CompleteResultCompletion::new(["a"])).result_type,
            SubscriptionsListenResult::new(SubscriptionsListenResultMetaObject::new(1)).result_type,
            ListToolsResult::new(ListToolsResultCacheScope::Public, [], 0).result_type,
            PaginatedResult::new().result_type,
            CacheableResult::new(CacheableResultCacheScope::Private, 0).result_type,
        ] {
            assert_eq!(result_type, "complete");
        }
    }

    #[test]
    fn request_ids_from_integers_and_strings() {
        assert_eq!(RequestId::from(7), RequestId::Integer(7));
        assert_eq!(RequestId::from("abc"), RequestId::String("abc".to_owned()));
        let by_string = ClientMessage::request(
            "abc",
            ClientRequest::list_tools(PaginatedRequestParams::new(meta())),
        );
        assert!(round_trip(&by_string, &by_string).contains(r#""id":"abc""#));
    }
}
