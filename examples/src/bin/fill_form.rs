//! Shows a form in the terminal as a client with `--interactive` shows it, and prints the
//! answer the client would send: a server author's way to try a `requestedSchema` by hand.
//!
//! ```text
//! cargo run -p mcp-typed-examples --bin fill-form -- [--message TEXT] <FILE.json | '{"type":"object",…}'>
//! ```
//!
//! The form is asked field by field by [`mcp_mrtr::terminal::Terminal`]; the answer then goes
//! through [`mcp_mrtr::client::answer`], as in every client of this project: the form's
//! defaults fill what was left empty and the whole answer is validated. The `ElicitResult` is
//! printed on stdout (`{"action":"accept","content":{…}}`, `{"action":"decline"}`, …), a
//! refused form or answer on stderr with exit code 1.

use std::process::ExitCode;

use mcp_mrtr::client::answer;
use mcp_mrtr::terminal::Terminal;
use mcp_typed::v2026_07_28::{
    ClientCapabilities, ClientCapabilitiesElicitation, ElicitRequestFormParamsRequestedSchema,
    ElicitRequestParams, InputRequest, JsonObject,
};

const USAGE: &str = "usage: fill-form [--message TEXT] <FILE.json | JSON>";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("fill-form: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let mut message = "Please fill in the form".to_owned();
    let mut form = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--message" => message = args.next().ok_or(USAGE)?,
            "-h" | "--help" => return Err(USAGE.to_owned()),
            _ if form.is_none() => form = Some(arg),
            _ => return Err(USAGE.to_owned()),
        }
    }
    let form = form.ok_or(USAGE)?;
    let text = if form.trim_start().starts_with('{') {
        form
    } else {
        std::fs::read_to_string(&form).map_err(|error| format!("{form}: {error}"))?
    };
    // Read from the text, not through a `Value`: the fields are asked in the order the form
    // declares them, which a `serde_json::Map` would sort.
    let schema: ElicitRequestFormParamsRequestedSchema =
        serde_json::from_str(&text).map_err(|error| format!("not a form: {error}"))?;
    let request = InputRequest::elicit(ElicitRequestParams::form(message, schema));
    let forms = ClientCapabilities::new()
        .with_elicitation(ClientCapabilitiesElicitation::new().with_form(JsonObject::new()));
    let response = answer(&forms, "form", &request, &mut Terminal::new())
        .map_err(|error| error.to_string())?;
    println!(
        "{}",
        serde_json::to_string(&response).map_err(|error| error.to_string())?
    );
    Ok(())
}
