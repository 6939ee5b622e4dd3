//! What this client makes up, having no user and no LLM: the arguments of every tool call
//! ([`arguments_for`], from the tool's `inputSchema`) and the [`Answers`] to whatever a server
//! asks (forms, URL consent, sampling, roots).

use std::sync::atomic::{AtomicBool, Ordering};

use mcp_mrtr::client::{Answerer, FormAnswer};
use mcp_mrtr::terminal::Terminal;
use mcp_typed::elicit::{PropertySchema, RequestedSchema, StringFormat};
use mcp_typed::v2026_07_28 as v2026;
use serde::Serialize;
use serde_json::{Map, Number, Value};

use crate::strict::{Outcome, ProtocolError};

/// The model name and text of every sampling answer: this client has no LLM.
const SAMPLING_MODEL: &str = "example-client";
const SAMPLED_REPLY: &str = "sampled reply";
/// The name of the one root this client offers: the directory it runs in.
const ROOT_NAME: &str = "cwd";

// ---- Tool arguments: a valid value for each required property of the tool's inputSchema

/// The arguments of a call: the tool's `inputSchema` (any JSON Schema) is read as JSON, and
/// each required property gets its `default`, or else a value its schema accepts.
pub(crate) fn arguments_for(input_schema: &impl Serialize) -> Outcome<Map<String, Value>> {
    let schema = serde_json::to_value(input_schema)
        .map_err(|e| ProtocolError::new(format!("cannot read an inputSchema: {e}")))?;
    Ok(sample_object(&schema, &schema, 0))
}

/// A value `schema` accepts. `root` is the whole input schema, for local `$ref`s. This is not
/// a JSON Schema solver: it covers what tool schemas usually say (types, bounds, formats,
/// enums, `anyOf` of a type and `null`, `$defs`).
fn sample_value(schema: &Value, root: &Value, depth: usize) -> Value {
    // `true` (or any non-object) accepts everything; deep recursion means a cycle of `$ref`s.
    let Some(keywords) = schema.as_object().filter(|_| depth < 16) else {
        return Value::from("text");
    };
    if let Some(value) = keywords.get("default").or_else(|| keywords.get("const")) {
        return value.clone();
    }
    if let Some(first) = keywords
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|o| o.first())
    {
        return first.clone();
    }
    if let Some(target) = keywords
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|reference| reference.strip_prefix('#'))
        .and_then(|pointer| root.pointer(pointer))
    {
        return sample_value(target, root, depth + 1);
    }
    for combinator in ["anyOf", "oneOf", "allOf"] {
        if let Some(branches) = keywords.get(combinator).and_then(Value::as_array) {
            // `Optional[T]` is `anyOf: [T, {"type": "null"}]`: prefer the branch with a value.
            let not_null = branches
                .iter()
                .find(|b| b.get("type").and_then(Value::as_str) != Some("null"));
            if let Some(branch) = not_null.or(branches.first()) {
                return sample_value(branch, root, depth + 1);
            }
        }
    }
    let kind = match keywords.get("type") {
        Some(Value::String(kind)) => kind.as_str(),
        Some(Value::Array(kinds)) => kinds
            .iter()
            .filter_map(Value::as_str)
            .find(|kind| *kind != "null")
            .unwrap_or("null"),
        _ if keywords.contains_key("properties") => "object",
        _ => "string",
    };
    match kind {
        "object" => Value::Object(sample_object(schema, root, depth)),
        "array" => sample_array(keywords, root, depth),
        "integer" => {
            let low = bound(keywords, "minimum").map(f64::ceil);
            let high = bound(keywords, "maximum").map(f64::floor);
            Value::from(low.unwrap_or(1.0).min(high.unwrap_or(f64::MAX)) as i64)
        }
        // The bound as the schema wrote it (`minimum: 2` gives `2`, not `2.0`).
        "number" => match (bound(keywords, "minimum"), bound(keywords, "maximum")) {
            (Some(_), _) => keywords["minimum"].clone(),
            (None, Some(high)) if high < 2.5 => keywords["maximum"].clone(),
            _ => Value::from(2.5),
        },
        "boolean" => Value::Bool(true),
        "null" => Value::Null,
        _ => Value::from(sample_string(
            keywords.get("format").and_then(Value::as_str),
            bound(keywords, "minLength"),
            bound(keywords, "maxLength"),
        )),
    }
}

/// The number a keyword holds.
fn bound(keywords: &Map<String, Value>, name: &str) -> Option<f64> {
    keywords.get(name).and_then(Value::as_f64)
}

/// An object with every required property filled in.
fn sample_object(schema: &Value, root: &Value, depth: usize) -> Map<String, Value> {
    let properties = schema.get("properties").and_then(Value::as_object);
    let required = schema.get("required").and_then(Value::as_array);
    let mut object = Map::new();
    for name in required.into_iter().flatten().filter_map(Value::as_str) {
        let property = properties
            .and_then(|p| p.get(name))
            .unwrap_or(&Value::Bool(true));
        object.insert(name.to_owned(), sample_value(property, root, depth + 1));
    }
    object
}

/// `[]`, or as many items as `minItems` asks for (distinct ones when the items are an enum).
fn sample_array(keywords: &Map<String, Value>, root: &Value, depth: usize) -> Value {
    let count = bound(keywords, "minItems").unwrap_or(0.0) as usize;
    let items = keywords.get("items").unwrap_or(&Value::Bool(true));
    let options = items.get("enum").and_then(Value::as_array);
    let values = (0..count)
        .map(|i| match options {
            Some(options) if !options.is_empty() => options[i % options.len()].clone(),
            _ => sample_value(items, root, depth + 1),
        })
        .collect();
    Value::Array(values)
}

/// A string: a valid one for the four formats MCP forms know, else "text" padded to
/// `min_length` and cut to `max_length` (in characters, as JSON Schema counts).
fn sample_string(format: Option<&str>, min_length: Option<f64>, max_length: Option<f64>) -> String {
    if let Some(text) = format.and_then(StringFormat::from_name).map(formatted) {
        return text.to_owned();
    }
    let min = min_length.unwrap_or(0.0) as usize;
    let max = max_length.map_or(usize::MAX, |max| max as usize);
    "text".chars().cycle().take(min.max(4).min(max)).collect()
}

/// A valid value of each string format.
fn formatted(format: StringFormat) -> &'static str {
    match format {
        StringFormat::Email => "user@example.com",
        StringFormat::Uri => "https://example.com/",
        StringFormat::Date => "2024-01-15",
        StringFormat::DateTime => "2024-01-15T09:30:00Z",
    }
}

// ---- Answers: what this client says when a server asks for input, in both eras

/// `--interactive`: forms and URLs are asked of the person at the terminal.
static INTERACTIVE: AtomicBool = AtomicBool::new(false);

/// Has every form and URL asked of the person at the terminal ([`Terminal`]) from now on.
pub(crate) fn ask_the_person() {
    INTERACTIVE.store(true, Ordering::Relaxed);
}

fn interactive() -> bool {
    INTERACTIVE.load(Ordering::Relaxed)
}

/// The answers of this client, which has no LLM: forms are filled in (or, with
/// `--interactive`, asked of the person at the terminal), URLs accepted (shown, not opened;
/// with `--interactive`, the person says), sampling gets a fixed reply, the one root is the current
/// directory. They are written once, in the types of [`Answerer`] (2026-07-28's): a
/// `Retrier` puts them in the retries of 2026-07-28, and the live requests of 2025-11-25
/// are converted to them (`era_2025_11_25::answer`).
#[derive(Debug, Default)]
pub(crate) struct Answers {
    /// `Answerer::roots` cannot fail: an unreadable current directory is kept here, and
    /// reported once the answers are in ([`Answers::checked`]).
    error: Option<ProtocolError>,
}

impl Answers {
    /// Whether every answer could be given.
    pub(crate) fn checked(&mut self) -> Outcome<()> {
        self.error.take().map_or(Ok(()), Err)
    }
}

impl Answerer for Answers {
    /// Every field without a default gets a value made up within its constraints; the others
    /// are left out, as a user leaves a pre-filled field: the caller applies the defaults and
    /// validates the whole answer before it is sent (a server must never receive an answer
    /// that breaks its form).
    fn form(&mut self, key: &str, message: &str, schema: &RequestedSchema) -> FormAnswer {
        if interactive() {
            return Terminal::new().form(key, message, schema);
        }
        let defaults = schema.defaults();
        let content = schema
            .properties
            .iter()
            .filter(|(name, _)| !defaults.contains_key(name))
            .map(|(name, property)| (name.clone(), made_up(property)))
            .collect();
        FormAnswer::Accept(content)
    }

    fn url(&mut self, key: &str, message: &str, url: &str) -> v2026::ElicitResultAction {
        if interactive() {
            return Terminal::new().url(key, message, url);
        }
        eprintln!("client: {message} → open {url}");
        v2026::ElicitResultAction::Accept
    }

    /// Every sampling request gets the same reply.
    fn sample(
        &mut self,
        _key: &str,
        _params: &v2026::CreateMessageRequestParams,
    ) -> Result<v2026::CreateMessageResult, String> {
        Ok(v2026::CreateMessageResult::new(
            v2026::CreateMessageResultContent::text(SAMPLED_REPLY),
            SAMPLING_MODEL,
            v2026::Role::Assistant,
        )
        .with_stop_reason("endTurn"))
    }

    fn roots(&mut self, _key: &str) -> Vec<v2026::Root> {
        match cwd_root_uri() {
            Ok(uri) => vec![v2026::Root::new(uri).with_name(ROOT_NAME)],
            Err(error) => {
                self.error = Some(error);
                Vec::new()
            }
        }
    }
}

/// A value that satisfies one property of a form.
fn made_up(property: &PropertySchema) -> Value {
    match property {
        PropertySchema::String(string) => Value::from(sample_string(
            string.format.map(StringFormat::as_str),
            string.min_length.map(|n| n as f64),
            string.max_length.map(|n| n as f64),
        )),
        PropertySchema::Number(number) => {
            let low = number.minimum.as_ref().and_then(Number::as_f64);
            let high = number.maximum.as_ref().and_then(Number::as_f64);
            let within =
                |x: f64| low.is_none_or(|low| x >= low) && high.is_none_or(|high| x <= high);
            if number.integer {
                // Its minimum (rounded up), else 1, else the maximum.
                let value = low.map(f64::ceil).unwrap_or(1.0);
                let value = if within(value) {
                    value
                } else {
                    high.unwrap_or(value).floor()
                };
                Value::from(value as i64)
            } else {
                // A value with a fraction, which only a number field accepts: an answer that
                // an integer field would take too tests less.
                let candidates = [
                    Some(3.5),
                    low.map(|low| low + 0.5),
                    high.map(|high| high - 0.5),
                    low.zip(high).map(|(low, high)| (low + high) / 2.0),
                ];
                let value = candidates
                    .into_iter()
                    .flatten()
                    .find(|&x| within(x) && x.fract() != 0.0)
                    .or(low)
                    .unwrap_or(3.5);
                Value::from(value)
            }
        }
        PropertySchema::Boolean(_) => Value::Bool(true),
        PropertySchema::SingleSelect(select) => Value::from(select.options.values().next()),
        PropertySchema::MultiSelect(select) => {
            let wanted = select.min_items.unwrap_or(1).max(1) as usize;
            let allowed = select.max_items.map_or(usize::MAX, |max| max as usize);
            Value::from_iter(select.options.values().take(wanted.min(allowed)))
        }
    }
}

/// The one root this client offers: the current directory as a `file://` URI.
fn cwd_root_uri() -> Outcome<String> {
    let cwd = std::env::current_dir()
        .map_err(|e| ProtocolError::new(format!("cannot read the current directory: {e}")))?;
    let path = cwd.to_string_lossy().replace('\\', "/");
    let mut uri = String::from("file://");
    if !path.starts_with('/') {
        uri.push('/'); // a Windows drive: file:///C:/…
    }
    // Percent-encode everything but the characters a path may hold as they are (RFC 3986).
    for byte in path.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' | b':' => {
                uri.push(byte as char)
            }
            _ => uri.push_str(&format!("%{byte:02X}")),
        }
    }
    Ok(uri)
}
