//! The borrowed family (feature `borrowed`) against the owned types: on every message of the
//! benchmark corpora (synthetic 2025-11-25 traffic, the official 2026-07-28 examples, the traffic
//! the Python SDK 2.3.0 and the TypeScript SDK 1.32.2 exchanged with our peers), the borrowed
//! decode encodes to the owned one's text and, made owned, equals it; refusals are the owned
//! ones; plain strings are borrowed, not copied. (The official examples of each definition are
//! checked in tests/examples.rs, and every fuzz seed and found input by the `messages` fuzz
//! property, tests/fuzz_regressions.rs.)

#[path = "../../generated/benches/corpus/mod.rs"]
#[allow(dead_code)]
mod corpus;

use mcp_typed::borrowed::{IntoOwned, Str};
use mcp_typed::jsonrpc::DecodeError;
use mcp_typed::{v2025_03_26, v2025_11_25, v2026_07_28};
use serde::Deserialize;

/// `text` decoded both ways: the same refusal, or the same encoding and equal values; serde's
/// `from_slice` of the borrowed type agrees with the owned type's `from_str`.
fn agree<'a, B>(text: &'a str, parse: fn(&'a str) -> Result<B, DecodeError>) -> Option<B>
where
    B: IntoOwned + serde::Serialize + serde::Deserialize<'a> + Clone + std::fmt::Debug,
    B::Owned: std::str::FromStr<Err = DecodeError>
        + serde::Serialize
        + serde::de::DeserializeOwned
        + PartialEq
        + std::fmt::Debug,
{
    let from_slice = serde_json::from_slice::<B>(text.as_bytes());
    match (from_slice, serde_json::from_str::<B::Owned>(text)) {
        (Ok(borrowed), Ok(owned)) => assert_eq!(borrowed.into_owned(), owned, "from_slice: {text}"),
        // The same refusal (its column may differ: see fuzz/src/checks.rs).
        (Err(borrowed), Err(owned)) => assert_eq!(borrowed.classify(), owned.classify()),
        (borrowed, owned) => panic!("from_slice disagrees on {text}: {borrowed:?} / {owned:?}"),
    }
    match (parse(text), text.parse::<B::Owned>()) {
        (Ok(borrowed), Ok(owned)) => {
            assert_eq!(
                serde_json::to_string(&borrowed).unwrap(),
                serde_json::to_string(&owned).unwrap(),
                "the encodings of {text}"
            );
            assert_eq!(borrowed.clone().into_owned(), owned, "made owned: {text}");
            Some(borrowed)
        }
        (Err(borrowed), Err(owned)) => {
            assert_eq!(borrowed, owned, "the refusals of {text}");
            None
        }
        (borrowed, owned) => panic!("they disagree on {text}: {borrowed:?} / {owned:?}"),
    }
}

#[test]
fn every_corpus_message_decodes_borrowed_as_it_decodes_owned() {
    let _ = mcp_typed_tests::mirror();
    let mut decoded = 0;
    let mut count = |message: Option<_>| decoded += usize::from(message.is_some());
    let (server, client) = (corpus::server_corpus(), corpus::client_corpus());
    for text in &server {
        count(agree(text, v2025_11_25::borrowed::ServerMessageRef::parse).map(drop));
    }
    for text in &client {
        count(agree(text, v2025_11_25::borrowed::ClientMessageRef::parse).map(drop));
    }
    let (official_client, official_server) = corpus::official_corpus();
    for text in &official_client {
        count(agree(text, v2026_07_28::borrowed::ClientMessageRef::parse).map(drop));
    }
    for text in &official_server {
        count(agree(text, v2026_07_28::borrowed::ServerMessageRef::parse).map(drop));
    }
    let [client_2025, server_2025, client_2026, server_2026] = corpus::python_sdk_traffic();
    let (ts_client, ts_server) = corpus::typescript_sdk_traffic();
    for text in client_2025.iter().chain(&ts_client) {
        count(agree(text, v2025_11_25::borrowed::ClientMessageRef::parse).map(drop));
    }
    for text in server_2025.iter().chain(&ts_server) {
        count(agree(text, v2025_11_25::borrowed::ServerMessageRef::parse).map(drop));
    }
    for text in &client_2026 {
        count(agree(text, v2026_07_28::borrowed::ClientMessageRef::parse).map(drop));
    }
    for text in &server_2026 {
        count(agree(text, v2026_07_28::borrowed::ServerMessageRef::parse).map(drop));
    }
    // Every message of the corpora is one its direction sends: all of them decode.
    let total = server.len() + client.len() + official_client.len() + official_server.len();
    let traffic = client_2025.len() + server_2025.len() + client_2026.len() + server_2026.len();
    assert_eq!(decoded, total + traffic + ts_client.len() + ts_server.len());
    assert!(
        traffic > 100 && ts_client.len() + ts_server.len() > 50,
        "the traffic is there"
    );
}

#[test]
fn plain_strings_and_free_form_objects_are_borrowed_and_escaped_strings_owned() {
    let text = corpus::server_corpus().remove(0);
    let message = v2025_11_25::borrowed::ServerMessageRef::parse(&text).unwrap();
    let v2025_11_25::borrowed::ServerMessageRef::Response {
        result: v2025_11_25::borrowed::ServerResultRef::ListTools(list),
        ..
    } = &message
    else {
        panic!("a tools/list result: {message:?}")
    };
    assert_eq!(list.tools.len(), 40);
    for (i, tool) in list.tools.iter().enumerate() {
        assert_eq!(tool.name, format!("tool_{i}").as_str());
        assert!(tool.name.is_borrowed() && tool.description.as_ref().unwrap().is_borrowed());
        let properties = tool.input_schema.properties.as_ref().unwrap();
        assert_eq!(properties.len(), 3);
        assert!(properties
            .iter()
            .all(|(name, schema)| name.is_borrowed() && schema.is_borrowed()));
    }
    assert!(list.next_cursor.as_ref().unwrap().is_borrowed());

    // An escape makes the string's text differ from its value: that one is copied.
    let text = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a\"b","arguments":{"q":"x\ny"}}}"#;
    let message = v2025_11_25::borrowed::ClientMessageRef::parse(text).unwrap();
    let v2025_11_25::borrowed::ClientMessageRef::Request {
        request: v2025_11_25::borrowed::ClientRequestRef::CallTool(params),
        ..
    } = &message
    else {
        panic!("a tools/call request")
    };
    assert_eq!(params.name, "a\"b");
    assert!(!params.name.is_borrowed());
    // A free-form object keeps its text, escapes and all.
    assert_eq!(
        params.arguments.as_ref().unwrap().as_str(),
        r#"{"q":"x\ny"}"#
    );
    assert!(params.arguments.as_ref().unwrap().is_borrowed());
}

#[test]
fn refusals_are_the_owned_ones_with_their_pointers() {
    let cases = [
        "not json",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":7}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"nope"}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":[],"progress":1}}"#,
        r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text"}]}}"#,
        r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"video","text":"x"}]}}"#,
        r#"{"jsonrpc":"2.0","id":3,"result":{"action":"accept","content":{"a":{"b":1}}}}"#,
        r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
    ];
    let mut refused = 0;
    for text in cases {
        for parse in [
            |t| agree(t, v2025_11_25::borrowed::ClientMessageRef::parse).is_none(),
            |t| agree(t, v2025_11_25::borrowed::ServerMessageRef::parse).is_none(),
        ] {
            refused += usize::from(parse(text));
        }
    }
    // Each case is refused by at least one direction (two are not messages at all).
    assert!(refused >= cases.len(), "{refused}");
    let error = v2025_11_25::borrowed::ClientMessageRef::parse(cases[2]).unwrap_err();
    assert_eq!(error.path(), Some("/params/name"));
    assert_eq!(error.code(), mcp_typed::jsonrpc::INVALID_PARAMS);
}

#[test]
fn members_in_any_order_and_batches_decode_borrowed() {
    // `params` before `method`, the union tag after the members it decides.
    let text = r#"{"params":{"messages":[{"content":{"text":"hi","type":"text"},"role":"user"}],"maxTokens":9},"id":"s","jsonrpc":"2.0","method":"sampling/createMessage"}"#;
    let message = agree(text, v2025_11_25::borrowed::ServerMessageRef::parse).expect("decodes");
    let v2025_11_25::borrowed::ServerMessageRef::Request { id, .. } = &message else {
        panic!("a request")
    };
    assert!(matches!(id, v2025_11_25::borrowed::RequestIdRef::String(s) if s.is_borrowed()));
    // Batches (2025-03-26 only), with the same refusals.
    let batch = r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]"#;
    let message = agree(batch, v2025_03_26::borrowed::ClientMessageRef::parse).expect("decodes");
    assert!(
        matches!(message, v2025_03_26::borrowed::ClientMessageRef::Batch(items) if items.len() == 2)
    );
    assert!(agree("[]", v2025_03_26::borrowed::ClientMessageRef::parse).is_none());
}

#[test]
fn input_that_lends_no_text_is_refused_rather_than_copied() {
    // From a `serde_json::Value`, strings are lent by the value; the members a union reads
    // ahead of its tag are not (they are written out as text), so the borrowed types refuse
    // where the owned types decode from a copy.
    let text = r#"{"jsonrpc":"2.0","id":2,"result":{"content":[{"text":"hi","type":"text"}]}}"#;
    let value: serde_json::Value = serde_json::from_str(text).unwrap();
    let refused = v2025_11_25::borrowed::ServerMessageRef::deserialize(&value).unwrap_err();
    assert!(
        refused.to_string().contains("decodes from JSON text only"),
        "{refused}"
    );
    assert!(v2025_11_25::ServerMessage::deserialize(&value).is_ok());
    assert!(v2025_11_25::borrowed::ServerMessageRef::parse(text).is_ok());
    // Where nothing is read ahead, a `Value` lends its strings.
    let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add"}}"#;
    let value: serde_json::Value = serde_json::from_str(call).unwrap();
    let message = v2025_11_25::borrowed::ClientMessageRef::deserialize(&value).unwrap();
    let v2025_11_25::borrowed::ClientMessageRef::Request {
        request: v2025_11_25::borrowed::ClientRequestRef::CallTool(params),
        ..
    } = &message
    else {
        panic!("a tools/call request")
    };
    assert!(params.name.is_borrowed());
    assert_eq!(
        message.into_owned(),
        call.parse::<v2025_11_25::ClientMessage>().unwrap()
    );
}

#[test]
fn str_compares_and_converts_as_the_string_it_holds() {
    let borrowed = Str::from("abc");
    let owned = Str::from(String::from("abc"));
    assert_eq!(borrowed, owned);
    assert!(borrowed.is_borrowed() && !owned.is_borrowed());
    assert_eq!(borrowed, "abc");
    assert_eq!(&*borrowed, "abc");
    assert_eq!(format!("{borrowed} {borrowed:?}"), "abc \"abc\"");
    assert_eq!(owned.into_owned(), String::from("abc"));
}

/// The borrowed request id is built as the owned one is (`7.into()`, `"abc".into()`), borrowing
/// a `&str`, and made owned it is the owned id built from the same value.
#[test]
fn request_ids_are_built_from_numbers_and_texts() {
    use v2026_07_28::borrowed::RequestIdRef;
    use v2026_07_28::RequestId;
    let text = String::from("abc");
    let borrowed = RequestIdRef::from(text.as_str());
    assert!(matches!(&borrowed, RequestIdRef::String(s) if s.is_borrowed() && *s == "abc"));
    assert_eq!(borrowed.into_owned(), RequestId::from("abc"));
    let owned = RequestIdRef::from(String::from("xyz"));
    assert!(matches!(&owned, RequestIdRef::String(s) if !s.is_borrowed()));
    assert_eq!(owned.into_owned(), RequestId::String("xyz".into()));
    let number: RequestIdRef<'_> = 7.into();
    assert_eq!(serde_json::to_string(&number).unwrap(), "7");
    assert_eq!(number.into_owned(), RequestId::Integer(7));
}

/// Decodes a result both ways, as the result of the visited request: `Ok` with the borrowed
/// result made owned and the owned result, or the two refusals' texts.
struct BothWays<'a>(&'a str);

type Decoded<R> = Result<(R, R), (String, String)>;

impl mcp_typed::borrowed::VisitRequestRef for BothWays<'_> {
    type Output = Decoded<serde_json::Value>;
    fn visit<R: mcp_typed::borrowed::RequestRef>(self) -> Self::Output {
        let borrowed = serde_json::from_str::<R::ResultRef<'_>>(self.0);
        let owned = serde_json::from_str::<R::Result>(self.0);
        match (borrowed, owned) {
            (Ok(borrowed), Ok(owned)) => {
                let lent = serde_json::to_value(&borrowed).unwrap();
                let made_owned = serde_json::to_value(borrowed.into_owned()).unwrap();
                assert_eq!(lent, made_owned, "into_owned keeps what it held");
                Ok((made_owned, serde_json::to_value(owned).unwrap()))
            }
            (Err(borrowed), Err(owned)) => Err((borrowed.to_string(), owned.to_string())),
            (borrowed, owned) => panic!(
                "they disagree on {}: borrowed {:?}, owned {:?}",
                self.0,
                borrowed.err(),
                owned.err()
            ),
        }
    }
}

/// The borrowed request sets' `visit_method` visits the request type of a method with its
/// result's borrowed form (`RequestRef::ResultRef`): that decodes what the owned result
/// decodes, to the same value, and refuses what it refuses; a method of no request of the set
/// is visited by neither.
#[test]
fn a_result_decodes_borrowed_as_the_result_of_its_request() {
    use v2025_11_25::borrowed::{ClientRequestRef, ServerRequestRef};
    let tools = r#"{"tools":[{"name":"add","inputSchema":{"type":"object"}}],"nextCursor":"c"}"#;
    let content = r#"{"content":[{"type":"text","text":"4"}],"isError":false}"#;
    let sampled = r#"{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}"#;
    let cases: [(&str, &str, bool); 5] = [
        ("tools/list", tools, true),
        ("tools/call", content, true),
        // A tools/list result is no tools/call result: both refuse it.
        ("tools/call", tools, false),
        ("ping", "{}", true),
        (
            "completion/complete",
            r#"{"completion":{"values":[]}}"#,
            true,
        ),
    ];
    for (method, text, decodes) in cases {
        let both = ClientRequestRef::visit_method(method, BothWays(text)).expect(method);
        match both {
            Ok((borrowed, owned)) => {
                assert!(decodes, "{method} {text}");
                assert_eq!(borrowed, owned, "{method}");
                assert_eq!(
                    owned,
                    serde_json::from_str::<serde_json::Value>(text).unwrap()
                );
            }
            Err((borrowed, owned)) => {
                assert!(!decodes, "{method} {text}: {owned}");
                assert_eq!(borrowed, owned, "the refusals of {method}");
            }
        }
    }
    let sampling = ServerRequestRef::visit_method("sampling/createMessage", BothWays(sampled));
    let (borrowed, owned) = sampling.unwrap().unwrap();
    assert_eq!(borrowed, owned);
    assert_eq!(borrowed["model"], "m");
    // A method of the other side, or of nobody.
    assert!(ClientRequestRef::visit_method("sampling/createMessage", BothWays("{}")).is_none());
    assert!(ServerRequestRef::visit_method("tools/call", BothWays("{}")).is_none());
    assert!(ClientRequestRef::visit_method("no/such", BothWays("{}")).is_none());

    // 2026-07-28: the result union dispatches on `resultType` in both families.
    use v2026_07_28::borrowed::ClientRequestRef as Client2026;
    let input = r#"{"resultType":"input_required","inputRequests":{}}"#;
    let complete = r#"{"resultType":"complete","content":[]}"#;
    for text in [input, complete] {
        let (borrowed, owned) = Client2026::visit_method("tools/call", BothWays(text))
            .unwrap()
            .unwrap();
        assert_eq!(borrowed, owned);
        assert_eq!(borrowed["resultType"], owned["resultType"]);
    }
}

/// `meta()` reads the `_meta` of any call of a set whose params hold it as one type, in both
/// families: a 2026-07-28 request's (`RequestMetaObject`, where the request names its protocol
/// version), a notification's (`None` when it has no params or no `_meta`).
#[test]
fn the_meta_of_a_call_is_read_without_matching_its_method() {
    use v2026_07_28::borrowed::{ClientMessageRef, ClientRequestRef};
    use v2026_07_28::{ClientMessage, ClientRequest};
    let text = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let ClientMessageRef::Request { request, .. } = ClientMessageRef::parse(text).unwrap() else {
        panic!("a request");
    };
    assert!(matches!(request, ClientRequestRef::ListTools(_)));
    let meta = request
        .meta()
        .expect("every 2026-07-28 request has `_meta`");
    assert_eq!(meta.io_modelcontextprotocol_protocol_version, "2026-07-28");
    assert!(meta.io_modelcontextprotocol_protocol_version.is_borrowed());
    let ClientMessage::Request { request, .. } = text.parse().unwrap() else {
        panic!("a request");
    };
    assert!(matches!(request, ClientRequest::ListTools(_)));
    let meta = request.meta().unwrap();
    assert_eq!(meta.io_modelcontextprotocol_protocol_version, "2026-07-28");

    use v2025_11_25::ClientNotification;
    let progress = r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":2,"_meta":{"k":"v"}}}"#;
    let notification = |text: &str| match text.parse().unwrap() {
        v2025_11_25::ClientMessage::Notification(n) => n,
        other => panic!("a notification: {other:?}"),
    };
    let progress = notification(progress);
    assert!(matches!(progress, ClientNotification::Progress(_)));
    assert_eq!(progress.meta().unwrap().as_str(), r#"{"k":"v"}"#);
    let initialized = notification(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    assert_eq!(initialized.meta(), None);
}
