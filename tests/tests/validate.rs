//! `Validate` (`mcp_typed::validate`): each constraint keyword on each revision that states it
//! (a valid value passes; a value breaking it yields exactly that violation, with its pointer,
//! keyword and limit), whole messages, every official example of 2026-07-28 clean, and the
//! golden case `validation` (SEP-2778-like limits) compiled and exercised.

use mcp_typed::validate::{Keyword, Validate, Violation};
use serde_json::{json, Value};

// The generator's golden case, as generated: its `Validate` impls are what this file checks.
#[allow(dead_code, clippy::all)]
#[rustfmt::skip]
#[path = "../../codegen/tests/golden/validation/expected.rs"]
mod golden;

type Registry =
    fn(
        &str,
        &str,
    ) -> Option<Result<Result<(), mcp_typed::validate::Violations>, serde_json::Error>>;

/// Every revision's `__validate`: decode as a definition, then validate.
const REVISIONS: &[(&str, Registry)] = &[
    ("2024-11-05", mcp_typed::v2024_11_05::__validate),
    ("2025-03-26", mcp_typed::v2025_03_26::__validate),
    ("2025-06-18", mcp_typed::v2025_06_18::__validate),
    ("2025-11-25", mcp_typed::v2025_11_25::__validate),
    ("2026-07-28", mcp_typed::v2026_07_28::__validate),
    ("draft", mcp_typed::draft::__validate),
];

/// The violations of `value` decoded as `definition` of one revision.
fn violations(
    revision: &str,
    registry: Registry,
    definition: &str,
    value: &Value,
) -> Vec<Violation> {
    match registry(definition, &value.to_string()) {
        None => panic!("{revision}: no definition {definition}"),
        Some(Err(e)) => panic!("{revision}: {definition} does not decode {value}: {e}"),
        Some(Ok(Ok(()))) => Vec::new(),
        Some(Ok(Err(found))) => found.into_vec(),
    }
}

/// A violation as most tests judge it: pointer, keyword and limit (what it found is checked
/// for every keyword by `golden_tool_constraints`).
type Judged = (String, Keyword, Value);

fn one(pointer: &str, keyword: Keyword, limit: Value) -> Vec<Judged> {
    vec![(pointer.to_owned(), keyword, limit)]
}

trait Judge {
    fn judged(self) -> Vec<Judged>;
}

impl<T: IntoIterator<Item = Violation>> Judge for T {
    fn judged(self) -> Vec<Judged> {
        (self.into_iter())
            .map(|v| (v.pointer, v.keyword, v.limit))
            .collect()
    }
}

/// Checks, on every revision in `revisions`, that `valid` passes and each `(value, pointer,
/// keyword, limit)` yields exactly that violation.
fn keyword_case(
    revisions: &[&str],
    definition: &str,
    valid: Value,
    broken: &[(Value, &str, Keyword, Value)],
) {
    for (revision, registry) in REVISIONS.iter().filter(|(r, _)| revisions.contains(r)) {
        assert_eq!(
            violations(revision, *registry, definition, &valid),
            [],
            "{revision}: {valid}"
        );
        for (value, pointer, keyword, limit) in broken {
            assert_eq!(
                violations(revision, *registry, definition, value).judged(),
                one(pointer, *keyword, limit.clone()),
                "{revision}: {value}"
            );
        }
    }
}

const ALL: &[&str] = &[
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
    "draft",
];

#[test]
fn minimum_and_maximum() {
    keyword_case(
        ALL,
        "ModelPreferences",
        json!({"costPriority": 0, "speedPriority": 1, "intelligencePriority": 0.5}),
        &[
            (
                json!({"costPriority": 1.5}),
                "/costPriority",
                Keyword::Maximum,
                json!(1),
            ),
            (
                json!({"speedPriority": -0.1}),
                "/speedPriority",
                Keyword::Minimum,
                json!(0),
            ),
        ],
    );
    keyword_case(
        &["2026-07-28", "draft"],
        "ListToolsResult",
        json!({"tools": [], "ttlMs": 0, "cacheScope": "private"}),
        &[(
            json!({"tools": [], "ttlMs": -1, "cacheScope": "private"}),
            "/ttlMs",
            Keyword::Minimum,
            json!(0),
        )],
    );
}

#[test]
fn format_uri() {
    keyword_case(
        ALL,
        "Root",
        json!({"uri": "file:///home/user/project"}),
        &[(
            json!({"uri": "no scheme"}),
            "/uri",
            Keyword::Format,
            json!("uri"),
        )],
    );
}

#[test]
fn format_byte() {
    keyword_case(
        ALL,
        "BlobResourceContents",
        json!({"uri": "file:///a.png", "blob": "aGVsbG8="}),
        &[(
            json!({"uri": "file:///a.png", "blob": "not base64!"}),
            "/blob",
            Keyword::Format,
            json!("byte"),
        )],
    );
}

#[test]
fn format_uri_template() {
    keyword_case(
        ALL,
        "ResourceTemplate",
        json!({"name": "files", "uriTemplate": "file:///{path}"}),
        &[(
            json!({"name": "files", "uriTemplate": "file:///{path"}),
            "/uriTemplate",
            Keyword::Format,
            json!("uri-template"),
        )],
    );
}

#[test]
fn max_items() {
    let values = |n: usize| json!({"completion": {"values": vec!["v"; n]}});
    keyword_case(
        &["2026-07-28", "draft"],
        "CompleteResult",
        values(100),
        &[(
            values(101),
            "/completion/values",
            Keyword::MaxItems,
            json!(100),
        )],
    );
}

/// A `tools/call` result whose first content block carries a `priority` above 1: the whole
/// message reports it at its pointer in the message.
#[test]
fn whole_messages() {
    let message = |priority: f64| {
        json!({
            "jsonrpc": "2.0",
            "id": 7,
            "result": {
                "content": [
                    {"type": "text", "text": "hi", "annotations": {"priority": priority}},
                ],
            },
        })
        .to_string()
    };
    let expected = one(
        "/result/content/0/annotations/priority",
        Keyword::Maximum,
        json!(1),
    );

    let valid: mcp_typed::v2026_07_28::ServerMessage = message(0.5).parse().unwrap();
    assert_eq!(valid.validate(), Ok(()));
    let bad: mcp_typed::v2026_07_28::ServerMessage = message(5.0).parse().unwrap();
    assert_eq!(bad.validate().unwrap_err().judged(), expected);
    let bad: mcp_typed::v2025_11_25::ServerMessage = message(5.0).parse().unwrap();
    assert_eq!(bad.validate().unwrap_err().judged(), expected);

    // A request's params: `/params/…`.
    let request = json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "sampling/createMessage",
        "params": {
            "messages": [],
            "maxTokens": 10,
            "modelPreferences": {"costPriority": 2},
        },
    })
    .to_string();
    let request: mcp_typed::v2025_11_25::ServerMessage = request.parse().unwrap();
    assert_eq!(
        request.validate().unwrap_err().judged(),
        one(
            "/params/modelPreferences/costPriority",
            Keyword::Maximum,
            json!(1)
        )
    );
}

/// Every official example of 2026-07-28 breaks no constraint (but the one that does not decode:
/// `REFUSED` of tests/examples.rs).
#[test]
fn official_examples_are_valid() {
    let examples = mcp_typed_tests::official_examples();
    for example in &examples {
        let decoded = mcp_typed::v2026_07_28::__validate(&example.definition, &example.text)
            .unwrap_or_else(|| panic!("no definition {}", example.definition));
        if example.file_name == "read-resource-result-response.json"
            && decoded
                .as_ref()
                .is_err_and(|e| e.to_string().contains("missing field `cacheScope`"))
        {
            continue;
        }
        let verdict =
            decoded.unwrap_or_else(|e| panic!("{}/{}: {e}", example.definition, example.file_name));
        assert_eq!(
            verdict,
            Ok(()),
            "{}/{}",
            example.definition,
            example.file_name
        );
    }
}

fn golden_tool(extra: Value) -> golden::Tool {
    let mut tool = json!({
        "name": "read",
        "uri": "file:///tmp/a",
        "tags": ["fs", "read"],
        "weight": 1.5,
        "labels": {"a": "1"},
        "icon": {"src": "x"},
    });
    if let (Some(tool), Value::Object(extra)) = (tool.as_object_mut(), extra) {
        tool.extend(extra);
    }
    serde_json::from_value(tool).unwrap()
}

/// The golden case: each keyword the runtime checks, with its pointer and limit.
#[test]
fn golden_keywords() {
    assert_eq!(golden_tool(json!({})).validate(), Ok(()));
    let cases = [
        (
            json!({"name": ""}),
            "/name",
            Keyword::MinLength,
            json!(1),
            json!(0),
        ),
        (
            json!({"name": "é".repeat(257)}),
            "/name",
            Keyword::MaxLength,
            json!(256),
            json!(257),
        ),
        (
            json!({"uri": "https://x/"}),
            "/uri",
            Keyword::Pattern,
            json!("^file://"),
            json!("https://x/"),
        ),
        (
            json!({"uri": "file://a b"}),
            "/uri",
            Keyword::Format,
            json!("uri"),
            json!("file://a b"),
        ),
        (
            json!({"tags": ["a", "a"]}),
            "/tags",
            Keyword::UniqueItems,
            json!(true),
            json!("a"),
        ),
        (
            json!({"tags": ["x".repeat(33)]}),
            "/tags/0",
            Keyword::MaxLength,
            json!(32),
            json!(33),
        ),
        (
            json!({"weight": 0}),
            "/weight",
            Keyword::ExclusiveMinimum,
            json!(0),
            json!(0),
        ),
        (
            json!({"weight": 1.25}),
            "/weight",
            Keyword::MultipleOf,
            json!(0.5),
            json!(1.25),
        ),
        (
            json!({"labels": {"a": "", "b": "", "c": "", "d": "", "e": ""}}),
            "/labels",
            Keyword::MaxProperties,
            json!(4),
            json!(5),
        ),
    ];
    for (change, pointer, keyword, limit, value_found) in cases {
        let found = golden_tool(change.clone()).validate().unwrap_err();
        assert_eq!(found[0].found, value_found, "what {change} has");
        assert_eq!(found.judged(), one(pointer, keyword, limit), "{change}");
    }
    let tags: Vec<String> = (0..21).map(|i| format!("t{i}")).collect();
    assert_eq!(
        golden_tool(json!({"tags": tags}))
            .validate()
            .unwrap_err()
            .judged(),
        one("/tags", Keyword::MaxItems, json!(20))
    );
    // Lengths count code points: 256 two-byte characters are 256 long.
    assert!(golden_tool(json!({"name": "é".repeat(256)}))
        .validate()
        .is_ok());
}

/// The alias `Cursor` carries its `maxLength` to the member that names it; the list of tools is
/// validated item by item; every violation is reported, in member order.
#[test]
fn golden_nested_and_aliases() {
    let result: golden::ListToolsResult = serde_json::from_value(json!({
        "tools": [
            {"name": "ok"},
            {"name": "", "uri": "http://x/"},
        ],
        "nextCursor": "c".repeat(8193),
        "ttlMs": 86_400_001,
    }))
    .unwrap();
    let found: Vec<(String, Keyword, Value)> = result
        .validate()
        .unwrap_err()
        .into_iter()
        .map(|v| (v.pointer, v.keyword, v.limit))
        .collect();
    assert_eq!(
        found,
        [
            ("/nextCursor".to_owned(), Keyword::MaxLength, json!(8192)),
            ("/tools/1/name".to_owned(), Keyword::MinLength, json!(1)),
            (
                "/tools/1/uri".to_owned(),
                Keyword::Pattern,
                json!("^file://")
            ),
            ("/ttlMs".to_owned(), Keyword::Maximum, json!(86_400_000)),
        ]
    );
    let content = golden::Content::ListToolsResult(result);
    assert_eq!(content.validate().unwrap_err().len(), 4);
    // `maxProperties` of the struct itself counts every member the value writes.
    let crowded: golden::ListToolsResult =
        serde_json::from_value(json!({"tools": [], "ttlMs": 1, "nextCursor": "c", "x": 1}))
            .unwrap();
    assert_eq!(
        crowded.validate().unwrap_err().judged(),
        one("", Keyword::MaxProperties, json!(3))
    );
    let icon: golden::Icon = serde_json::from_value(json!({"src": ""})).unwrap();
    assert_eq!(icon.validate(), Ok(()));
    // A member name with `/` or `~` is escaped in the pointer (RFC 6901).
    let tool = golden_tool(json!({"labels": {"a/b~c": "123456789"}}));
    assert_eq!(
        tool.validate().unwrap_err().judged(),
        one("/labels/a~1b~0c", Keyword::MaxLength, json!(8))
    );
}

/// The messages are readable, and `Violations` is an error.
#[test]
fn display() {
    let err = golden_tool(json!({"name": ""})).validate().unwrap_err();
    assert_eq!(err.to_string(), "/name: breaks `minLength: 1`, found 0");
    // A long string is repeated up to its 80th code point.
    let err = golden_tool(json!({"uri": format!("https://{}", "é".repeat(200))}))
        .validate()
        .unwrap_err();
    let shown = err[0].found.as_str().expect("the string found");
    assert_eq!(shown.chars().count(), 81, "{shown}");
    assert!(
        shown.starts_with("https://é") && shown.ends_with("é…"),
        "{shown}"
    );
    let _: &dyn std::error::Error = &err;
}

/// The borrowed family (`…Ref<'de>`) reports what the owned one does, at the same pointers:
/// over the recorded SDK traffic of both eras (valid) and messages planted with violations in
/// members, items, nested params, free-form objects and undeclared members.
#[test]
fn the_borrowed_family_reports_what_the_owned_one_does() {
    use mcp_typed::{v2025_11_25 as old, v2026_07_28 as new};
    let traffic = mcp_typed_tests::repo_root().join("fuzz/seeds/traffic");
    let mut texts: Vec<String> = Vec::new();
    for entry in std::fs::read_dir(&traffic).expect("fuzz/seeds/traffic") {
        let text = std::fs::read_to_string(entry.expect("an entry").path()).expect("traffic");
        texts.extend(text.lines().map(str::to_owned));
    }
    let recorded = texts.len();
    assert!(recorded > 200, "{recorded} recorded messages");
    texts.extend(
        [
            json!({"jsonrpc": "2.0", "id": 7, "result": {"content": [
                {"type": "text", "text": "hi", "annotations": {"priority": 5}},
                {"type": "resource_link", "uri": "not a uri", "name": "x"}]}}),
            json!({"jsonrpc": "2.0", "id": 1, "method": "sampling/createMessage", "params": {
                "messages": [], "maxTokens": 10, "modelPreferences": {"costPriority": 2}}}),
            json!({"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "t",
                "inputSchema": {"type": "object"}, "icons": [{"src": "a", "mimeType": "x"}],
                "annotations": {"x": 1}}], "extra": {"a": 1}}}),
        ]
        .iter()
        .map(Value::to_string),
    );
    let mut compared = 0;
    let mut violations = 0;
    for text in &texts {
        let pairs = [
            (
                text.parse::<old::ServerMessage>()
                    .ok()
                    .map(|m| m.validate()),
                old::borrowed::ServerMessageRef::parse(text)
                    .ok()
                    .map(|m| m.validate()),
            ),
            (
                text.parse::<old::ClientMessage>()
                    .ok()
                    .map(|m| m.validate()),
                old::borrowed::ClientMessageRef::parse(text)
                    .ok()
                    .map(|m| m.validate()),
            ),
            (
                text.parse::<new::ServerMessage>()
                    .ok()
                    .map(|m| m.validate()),
                new::borrowed::ServerMessageRef::parse(text)
                    .ok()
                    .map(|m| m.validate()),
            ),
            (
                text.parse::<new::ClientMessage>()
                    .ok()
                    .map(|m| m.validate()),
                new::borrowed::ClientMessageRef::parse(text)
                    .ok()
                    .map(|m| m.validate()),
            ),
        ];
        for (owned, borrowed) in pairs {
            assert_eq!(owned, borrowed, "{text}");
            if let Some(verdict) = owned {
                compared += 1;
                violations += verdict.err().map_or(0, |v| v.len());
            }
        }
    }
    assert!(
        compared > recorded,
        "{compared} messages decoded and compared"
    );
    // priority, uri (twice: 2025-11-25 and 2026-07-28), costPriority.
    assert!(violations >= 4, "{violations} violations found");
}

/// A union's inline members carry their own constraints, and the union's own apply to every
/// member: `Limit` is a string of at most 4 characters (and 3, the union's), an integer ≥ 0, or
/// at most 2 non-empty strings.
#[test]
fn golden_union_members() {
    let limit = |value: Value| -> golden::Limit { serde_json::from_value(value).unwrap() };
    for valid in [json!("abc"), json!(0), json!(["a", "b"])] {
        assert_eq!(limit(valid.clone()).validate(), Ok(()), "{valid}");
    }
    let cases = [
        (json!("abcd"), "", Keyword::MaxLength, json!(3)),
        (json!(-1), "", Keyword::Minimum, json!(0)),
        (json!(["a", "b", "c"]), "", Keyword::MaxItems, json!(2)),
        (json!(["a", ""]), "/1", Keyword::MinLength, json!(1)),
    ];
    for (value, pointer, keyword, bound) in cases {
        assert_eq!(
            limit(value.clone()).validate().unwrap_err().judged(),
            one(pointer, keyword, bound),
            "{value}"
        );
    }
    // Both the member's limit and the union's are reported when both are broken.
    let both = limit(json!("abcde")).validate().unwrap_err();
    assert_eq!(both.len(), 2, "{both}");
}
