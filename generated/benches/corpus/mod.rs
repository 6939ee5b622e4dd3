//! The message corpora of the benchmarks, shared by `generated/benches/messages.rs`
//! (instruction counts) and `bench/` (the clock, with rmcp): synthetic traffic, the official
//! 2026-07-28 examples, and the traffic the Python SDK 2.3.0 exchanged with our peers.

use std::path::{Path, PathBuf};

// The corpus is written as text with members in the order real peers write them (the
// TypeScript SDK: `jsonrpc`, `id`, `method`, `params`; `type` first in content blocks), since
// `serde_json::Value` would sort them.

fn tool(i: usize) -> String {
    format!(
        r#"{{"name":"tool_{i}","title":"Tool number {i}","description":"Looks things up in the project index and returns the matching entries with their locations and a short excerpt of each.","inputSchema":{{"type":"object","properties":{{"query":{{"type":"string","description":"What to look for"}},"limit":{{"type":"integer","minimum":1,"maximum":100}},"kinds":{{"type":"array","items":{{"type":"string","enum":["file","symbol","doc"]}}}}}},"required":["query"]}},"annotations":{{"readOnlyHint":true,"openWorldHint":false}}}}"#
    )
}

/// Messages a server sends (what a client decodes), 2025-11-25.
pub fn server_corpus() -> Vec<String> {
    let text = "lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(80);
    let tools: Vec<String> = (0..40).map(tool).collect();
    let mut out = vec![
        format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"tools":[{}],"nextCursor":"page-2"}}}}"#, tools.join(",")),
        format!(r#"{{"jsonrpc":"2.0","id":2,"result":{{"content":[{{"type":"text","text":"{text}"}}],"isError":false}}}}"#),
        format!(r#"{{"jsonrpc":"2.0","id":3,"result":{{"content":[{{"type":"text","text":"{}"}},{{"type":"text","text":"{}"}}],"structuredContent":{{"hits":3}}}}}}"#, &text[..1024], &text[1024..3072]),
        r##"{"jsonrpc":"2.0","id":4,"method":"elicitation/create","params":{"mode":"form","message":"Please provide your contact information","requestedSchema":{"type":"object","properties":{"name":{"type":"string","title":"Full name","minLength":1,"maxLength":100},"email":{"type":"string","format":"email","title":"Email"},"age":{"type":"integer","minimum":18,"maximum":130},"color":{"type":"string","oneOf":[{"const":"#f00","title":"Red"},{"const":"#0f0","title":"Green"}]},"topics":{"type":"array","minItems":1,"items":{"type":"string","enum":["rust","mcp","json"]},"default":["rust"]}},"required":["name","email"]}}}"##.to_owned(),
        r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"db","data":{"rows":12,"ms":3.5}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"Unknown tool: nope"}}"#.to_owned(),
    ];
    for i in 0..10 {
        out.push(format!(r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":"op-{i}","progress":{},"total":100,"message":"Reticulating splines"}}}}"#, i * 10));
    }
    out
}

/// Messages a client sends (what a server decodes), 2025-11-25.
pub fn client_corpus() -> Vec<String> {
    let mut out = vec![
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true},"sampling":{},"elicitation":{"form":{},"url":{}}},"clientInfo":{"name":"bench-client","version":"1.0.0"}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"page-2"}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":3,"result":{"action":"accept","content":{"name":"Ada","email":"ada@example.com","age":36,"topics":["rust","mcp"]}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","id":4,"result":{"roots":[{"uri":"file:///home/ada/project","name":"project"}]}}"#.to_owned(),
    ];
    for i in 0..10 {
        out.push(format!(r#"{{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{{"name":"tool_{i}","arguments":{{"query":"fn main","limit":20,"kinds":["symbol"]}},"_meta":{{"progressToken":{i}}}}}}}"#, 10 + i));
    }
    out
}

/// JSON text without the whitespace between tokens, members kept in their order.
fn minify(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in text.chars() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !c.is_whitespace() {
            out.push(c);
        }
    }
    out
}

/// The official 2026-07-28 examples that are JSON-RPC messages, split by the side that sends them.
pub fn official_corpus() -> (Vec<String>, Vec<String>) {
    use mcp_typed::v2026_07_28::{ClientMessage, ServerMessage};
    let examples = repository().join("schema/2026-07-28/examples");
    let (mut client, mut server) = (Vec::new(), Vec::new());
    let mut dirs: Vec<_> = std::fs::read_dir(&examples)
        .unwrap_or_else(|e| {
            panic!(
                "{}: {e} (fetch them first: cargo run --bin mcp-codegen -- fetch)",
                examples.display()
            )
        })
        .map(|e| e.expect("entry").path())
        .collect();
    dirs.sort();
    for dir in dirs {
        for file in std::fs::read_dir(dir).expect("dir") {
            let text = std::fs::read_to_string(file.expect("file").path()).expect("read");
            let compact = minify(&text);
            if compact.parse::<ClientMessage>().is_ok() {
                client.push(compact);
            } else if compact.parse::<ServerMessage>().is_ok() {
                server.push(compact);
            }
        }
    }
    (client, server)
}

/// The repository's root (both users of this module sit one folder below it).
fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The messages the Python SDK 2.3.0 exchanged with our example server and client, as captured
/// in fuzz/seeds/traffic (sessions one after the other, 2025-11-25 ones first, a 2026-07-28 one
/// from its `server/discover`), by era and side: `[client 2025-11-25, server 2025-11-25, client
/// 2026-07-28, server 2026-07-28]`. A request goes to the side whose type decodes it (the
/// client's first), a notification likewise (the server's first: `notifications/progress` goes
/// both ways, in these sessions from the server), a response to the side that did not send the
/// request it answers (where both sides asked with its id, the side whose type decodes it).
pub fn python_sdk_traffic() -> [Vec<String>; 4] {
    use mcp_typed::{v2025_11_25, v2026_07_28};
    use serde_json::Value;
    let path = repository().join("fuzz/seeds/traffic/python-sdk-2.3.0.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out: [Vec<String>; 4] = Default::default();
    let mut era_2026 = false;
    // The requests not answered yet: (id, sent by the client).
    let mut pending: Vec<(Value, bool)> = Vec::new();
    for line in text.lines().filter(|line| !line.trim().is_empty()) {
        let message: Value = serde_json::from_str(line).expect("a JSON line");
        era_2026 |= message["method"] == "server/discover";
        let decodes_as_client = if era_2026 {
            line.parse::<v2026_07_28::ClientMessage>().is_ok()
        } else {
            line.parse::<v2025_11_25::ClientMessage>().is_ok()
        };
        let decodes_as_server = if era_2026 {
            line.parse::<v2026_07_28::ServerMessage>().is_ok()
        } else {
            line.parse::<v2025_11_25::ServerMessage>().is_ok()
        };
        let from_client = match (message.get("method"), message.get("id")) {
            (Some(_), Some(id)) => {
                let from_client = decodes_as_client;
                pending.push((id.clone(), from_client));
                from_client
            }
            (Some(_), None) => !decodes_as_server,
            (None, id) => {
                // Both sides may have a request with this id open: the side whose type decodes
                // the response decides, else the request sent last.
                let id = id.cloned().unwrap_or(Value::Null);
                let answers = |(pending_id, client_asked): &(Value, bool)| {
                    *pending_id == id
                        && match (decodes_as_client, decodes_as_server) {
                            (true, false) => !client_asked,
                            (false, true) => *client_asked,
                            _ => true,
                        }
                };
                let at = pending
                    .iter()
                    .rposition(answers)
                    .unwrap_or_else(|| panic!("a response to no request: {line}"));
                !pending.remove(at).1
            }
        };
        assert!(
            if from_client {
                decodes_as_client
            } else {
                decodes_as_server
            },
            "{}: does not decode as sent: {line}",
            path.display()
        );
        out[usize::from(era_2026) * 2 + usize::from(!from_client)].push(line.to_owned());
    }
    out
}

/// What each side sent when the TypeScript SDK 1.32.2 met ours, 2025-11-25, captured with its
/// direction in fuzz/seeds/traffic: its client with our example server, then our test client
/// with server-everything 2026.8.31 (built on that SDK). `(client, server)`. One value is
/// shortened: the environment a server-everything tool printed.
pub fn typescript_sdk_traffic() -> (Vec<String>, Vec<String>) {
    let side = |name: &str| -> Vec<String> {
        let path = repository().join(format!(
            "fuzz/seeds/traffic/typescript-sdk-1.32.2-{name}.jsonl"
        ));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_owned)
            .collect()
    };
    (side("client"), side("server"))
}
