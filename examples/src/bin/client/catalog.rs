//! Lists, resources and prompts: what is asked and printed, the same in both eras. Each era
//! sends the requests its own way (its `Peer`, a [`Catalog`]); what to ask for and what to make
//! of the answers is decided here, once.

use std::collections::HashSet;

use mcp_typed::IndexMap;
use serde_json::Value;

use crate::report::{one_line, Tally};
use crate::strict::{Outcome, ProtocolError};

/// The value of every variable of a resource template: the kind of id a server likely has.
const TEMPLATE_VALUE: &str = "1";
/// The value of every required prompt argument.
const PROMPT_ARGUMENT: &str = "text";
/// How much of a resource's text its line shows, in characters.
const RESOURCE_PREVIEW: usize = 60;

// ---- Pages

/// One page of a list: its items, and the cursor of the next page (`nextCursor`).
pub(crate) type Page<T> = (Vec<T>, Option<String>);

/// Every item of a paginated list: `fetch` gets the page at a cursor (`None` for the first) and
/// returns its items and its `nextCursor`.
pub(crate) fn collect_pages<T>(
    method: &str,
    mut fetch: impl FnMut(Option<String>) -> Outcome<Page<T>>,
) -> Outcome<Vec<T>> {
    let mut items = Vec::new();
    // A cursor that comes back would have this client asking for pages forever.
    let mut seen = HashSet::new();
    let mut cursor = None;
    loop {
        let (page, next) = fetch(cursor)?;
        items.extend(page);
        match next {
            None => return Ok(items),
            Some(next) if !seen.insert(next.clone()) => {
                return Err(ProtocolError::new(format!(
                    "`{method}` gave the cursor {} a second time: its pages never end",
                    Value::from(next)
                )))
            }
            Some(next) => cursor = Some(next),
        }
    }
}

// ---- Resources and prompts

/// The requests about resources and prompts, as each era sends them and checks the answers.
/// What to ask for, and what to make of the answers, is decided once: in [`read_resources`]
/// and [`get_prompts`].
pub(crate) trait Catalog {
    /// The URI of every resource (`resources/list`, every page).
    fn resources(&mut self) -> Outcome<Vec<String>>;
    /// The `uriTemplate` of every resource template (`resources/templates/list`, every page).
    fn resource_templates(&mut self) -> Outcome<Vec<String>>;
    /// `resources/read`: the resource's contents, or why the server did not give them.
    fn read(&mut self, uri: &str) -> Outcome<Result<Vec<Contents>, String>>;
    /// Every prompt (`prompts/list`, every page): its name and its required arguments.
    fn prompts(&mut self) -> Outcome<Vec<(String, Vec<String>)>>;
    /// `prompts/get`: the number of messages of the prompt, or why the server did not give it.
    fn get_prompt(
        &mut self,
        name: &str,
        arguments: IndexMap<String, String>,
    ) -> Outcome<Result<usize, String>>;
}

/// One item of a resource's `contents`, the same in both eras.
#[derive(Debug)]
pub(crate) enum Contents {
    Text(String),
    /// Base64, as the server sent it.
    Blob(String),
}

/// Reads every resource, then one instance of every resource template.
pub(crate) fn read_resources(catalog: &mut impl Catalog, tally: &mut Tally) -> Outcome<()> {
    for uri in catalog.resources()? {
        read_resource(catalog, tally, &uri)?;
    }
    for template in catalog.resource_templates()? {
        read_resource(catalog, tally, &template_instance(&template))?;
    }
    Ok(())
}

fn read_resource(catalog: &mut impl Catalog, tally: &mut Tally, uri: &str) -> Outcome<()> {
    match catalog.read(uri)? {
        Ok(contents) => tally.resource(uri, &contents),
        Err(why) => tally.failed(&format!("resource {uri}"), why),
    }
    Ok(())
}

/// Gets every prompt, with a value for each required argument only: the optional ones keep
/// the server's defaults.
pub(crate) fn get_prompts(catalog: &mut impl Catalog, tally: &mut Tally) -> Outcome<()> {
    for (name, required) in catalog.prompts()? {
        // Always an object, `{}` when nothing is required: a server that validates the
        // arguments against a schema of optional ones may refuse none at all.
        let arguments = required
            .into_iter()
            .map(|argument| (argument, PROMPT_ARGUMENT.to_owned()))
            .collect();
        match catalog.get_prompt(&name, arguments)? {
            Ok(messages) => tally.prompt(&name, messages),
            Err(why) => tally.failed(&format!("prompt {name}"), why),
        }
    }
    Ok(())
}

/// What a resource's line shows of its contents: the first characters of its first text, or
/// the size of its first blob. Further contents are counted (`(+2 more)`); none at all is said.
pub(crate) fn preview(contents: &[Contents]) -> Result<String, String> {
    let Some(first) = contents.first() else {
        return Ok("<no contents>".to_owned());
    };
    let mut preview = match first {
        Contents::Text(text) => one_line(&text.chars().take(RESOURCE_PREVIEW).collect::<String>()),
        Contents::Blob(blob) => {
            // The schema says base64 (`format: byte`); a blob that is not cannot be used.
            let size = base64_size(blob).ok_or("its blob is not base64")?;
            format!("<{size} bytes blob>")
        }
    };
    if contents.len() > 1 {
        preview.push_str(&format!(" (+{} more)", contents.len() - 1));
    }
    Ok(preview)
}

/// The number of bytes a base64 text (RFC 4648, padded) decodes to, or `None` if it is not one.
fn base64_size(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let padding = bytes.iter().rev().take_while(|&&b| b == b'=').count();
    let digits = &bytes[..bytes.len() - padding];
    let valid = bytes.len() % 4 == 0
        && padding <= 2
        && digits
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/');
    valid.then(|| bytes.len() / 4 * 3 - padding)
}

/// One URI of a resource template (RFC 6570): every variable has the value `1`.
fn template_instance(template: &str) -> String {
    let mut uri = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|at| open + at) else {
            break; // not an expression: the rest is kept as it is
        };
        uri.push_str(&rest[..open]);
        uri.push_str(&expand(&rest[open + 1..close]));
        rest = &rest[close + 1..];
    }
    uri.push_str(rest);
    uri
}

/// One expression of a URI template (`item_id`, `+path`, `?page,size`…) with every variable
/// set to `1`, as its operator writes it (`1`, `?page=1&size=1`).
fn expand(expression: &str) -> String {
    // What comes first, what comes between the variables, whether each is written `name=value`.
    let (first, between, named) = match expression.chars().next() {
        Some('+') => ("", ",", false),
        Some('#') => ("#", ",", false),
        Some('.') => (".", ".", false),
        Some('/') => ("/", "/", false),
        Some(';') => (";", ";", true),
        Some('?') => ("?", "&", true),
        Some('&') => ("&", "&", true),
        _ => ("", ",", false),
    };
    let variables = expression
        .strip_prefix(['+', '#', '.', '/', ';', '?', '&'])
        .unwrap_or(expression);
    let values: Vec<String> = variables
        .split(',')
        .map(|variable| {
            // A prefix (`:3`) or explode (`*`) modifier changes nothing for the value `1`.
            let name = variable.split(':').next().unwrap_or(variable);
            let name = name.trim_end_matches('*');
            if named {
                format!("{name}={TEMPLATE_VALUE}")
            } else {
                TEMPLATE_VALUE.to_owned()
            }
        })
        .collect();
    format!("{first}{}", values.join(between))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_instances() {
        let cases = [
            ("interop://items/{item_id}", "interop://items/1"),
            ("demo://{a}/{b}", "demo://1/1"),
            ("file:///{+path}", "file:///1"),
            ("x://list{?page,size}", "x://list?page=1&size=1"),
            ("x://list?q=a{&page}", "x://list?q=a&page=1"),
            ("x://doc{#part}", "x://doc#1"),
            ("x://{/seg*}{.ext}", "x:///1.1"),
            ("x://m{;v,w:3}", "x://m;v=1;w=1"),
            ("x://plain", "x://plain"),
            ("x://open{brace", "x://open{brace"),
        ];
        for (template, uri) in cases {
            assert_eq!(template_instance(template), uri, "{template}");
        }
    }

    #[test]
    fn blob_sizes() {
        assert_eq!(base64_size(""), Some(0));
        assert_eq!(base64_size("aGk="), Some(2));
        assert_eq!(base64_size("aGV5"), Some(3));
        assert_eq!(base64_size("aA=="), Some(1));
        assert_eq!(base64_size("aGk"), None);
        assert_eq!(base64_size("a==="), None);
        assert_eq!(base64_size("aG k"), None);
    }

    #[test]
    fn previews() {
        let long = "é".repeat(70) + "\nend";
        let text = preview(&[Contents::Text(long)]).unwrap();
        assert_eq!(text.chars().count(), RESOURCE_PREVIEW);
        assert_eq!(
            preview(&[Contents::Blob("aGk=".into()), Contents::Text("a\nb".into())]).unwrap(),
            "<2 bytes blob> (+1 more)"
        );
        assert_eq!(preview(&[Contents::Text("a\nb".into())]).unwrap(), "a\\nb");
        assert_eq!(preview(&[]).unwrap(), "<no contents>");
        assert!(preview(&[Contents::Blob("not base64".into())]).is_err());
    }
}
