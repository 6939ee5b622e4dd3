//! Forms answered by a person at a terminal (`mcp_mrtr::terminal::Terminal`): `fill-form` and
//! `http-client --interactive` run in a pseudo-terminal, the keys typed as a person types
//! them, and what they print checked: a bad value refused with its message and asked again, a
//! default taken with Enter, a multi-select, an optional yes/no left empty, a decline; and a
//! server's form over HTTP in both protocol eras.

mod support;

use std::io::{self, Write};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use expectrl::process::unix::UnixProcess;
use expectrl::stream::log::LogStream;
use expectrl::{Expect, Session};

const DOWN: &str = "\x1b[B";
const BACKSPACE: &str = "\x7f";

/// The form of the tests: a required email, an age with a default, a multi-select with titles
/// and a lower bound.
const SIGNUP: &str = r#"{"type":"object","properties":{
  "email":{"type":"string","title":"Email","description":"Where we write to you","format":"email"},
  "age":{"type":"integer","title":"Age","minimum":18,"default":30},
  "colors":{"type":"array","title":"Colors","minItems":1,
            "items":{"anyOf":[{"const":"r","title":"Red"},{"const":"g","title":"Green"},{"const":"b","title":"Blue"}]}}
},"required":["email"]}"#;

/// A copy of what went to and came from the terminal, for the failure messages.
#[derive(Clone, Default)]
struct Transcript(Arc<Mutex<Vec<u8>>>);

impl Write for Transcript {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

struct Terminal {
    session: Session<UnixProcess, LogStream<expectrl::process::unix::PtyStream, Transcript>>,
    transcript: Transcript,
}

/// `fill-form` in a pseudo-terminal, with the form of the tests.
fn fill_form(message: &str) -> Terminal {
    fill_form_with(message, SIGNUP)
}

/// `fill-form` in a pseudo-terminal, with `form`.
fn fill_form_with(message: &str, form: &str) -> Terminal {
    let mut command = Command::new(env!("CARGO_BIN_EXE_fill-form"));
    command.args(["--message", message, form]);
    terminal(command)
}

/// How long a text may take to show: generous, as the tests run beside others on a busy machine.
const PATIENCE: Duration = Duration::from_secs(30);

/// How often the terminal is read while waiting: a pause, not a spin, so that the programs under
/// test keep the processor.
const POLL: Duration = Duration::from_millis(5);

/// `command` in a pseudo-terminal of the size the child gives it before it starts (80×24).
///
/// The size is not changed afterwards: the SIGWINCH that a change sends can reach the program
/// at the moment a key arrives, and crossterm (under inquire) then reports the resize and
/// loses the readiness of the key (mio's edge-triggered poll does not report it again), so the
/// key is never read (a resize 20 ms after the menu showed, then Enter: 3 keys lost in 40).
fn terminal(command: Command) -> Terminal {
    let session = Session::spawn(command).expect("fill-form starts in a pseudo-terminal");
    let transcript = Transcript::default();
    let session =
        expectrl::session::log(session, transcript.clone()).expect("the session is logged");
    Terminal {
        session,
        transcript,
    }
}

/// Waits for `text` on the terminal (what came before it is consumed); fails with everything
/// shown so far when the program ends or [`PATIENCE`] runs out first.
fn see(terminal: &mut Terminal, text: &str) {
    let start = Instant::now();
    let failure = loop {
        match terminal.session.check(text) {
            Ok(found) if !found.is_empty() => return,
            Ok(_) if start.elapsed() < PATIENCE => std::thread::sleep(POLL),
            Ok(_) => break format!("not within {PATIENCE:?}"),
            Err(error) => break error.to_string(),
        }
    };
    let shown = String::from_utf8_lossy(&terminal.transcript.0.lock().unwrap()).into_owned();
    panic!("{text:?} was not shown ({failure}); the terminal showed:\n{shown}");
}

fn typed(terminal: &mut Terminal, keys: &str) {
    terminal.session.send(keys).expect("the keys are typed");
}

#[test]
fn a_form_is_filled_in_field_by_field_with_checks_defaults_and_a_multi_select() {
    let mut terminal = fill_form("Sign up for the newsletter");
    see(&mut terminal, "Sign up for the newsletter");
    see(&mut terminal, "Fill in the form");
    typed(&mut terminal, "\r");

    // A bad email is refused with the validator's message, and asked again.
    see(&mut terminal, "Email:");
    see(&mut terminal, "Where we write to you");
    typed(&mut terminal, "not-an-email\r");
    see(&mut terminal, "is not a valid `email`");
    typed(&mut terminal, &BACKSPACE.repeat("not-an-email".len()));
    typed(&mut terminal, "ada@example.com\r");

    // The default is shown and taken with Enter; a value below the minimum was refused first.
    see(&mut terminal, "Age:");
    see(&mut terminal, "30");
    typed(&mut terminal, "12\r");
    see(&mut terminal, "must be at least 18, is 12");
    typed(&mut terminal, &BACKSPACE.repeat(2));
    typed(&mut terminal, "\r");

    // A multi-select by titles: nothing chosen breaks minItems, then Red and Blue.
    see(&mut terminal, "Colors:");
    see(&mut terminal, "Green");
    typed(&mut terminal, "\r");
    see(&mut terminal, "must select at least 1 options, has 0");
    typed(&mut terminal, " ");
    typed(&mut terminal, DOWN);
    typed(&mut terminal, DOWN);
    typed(&mut terminal, " \r");

    see(
        &mut terminal,
        r#"{"action":"accept","content":{"email":"ada@example.com","age":30,"colors":["r","b"]}}"#,
    );
}

#[test]
fn an_optional_boolean_is_left_empty_and_a_required_one_is_not() {
    let form = r#"{"type":"object","properties":{
      "newsletter":{"type":"boolean","title":"Newsletter","description":"Send me the news"},
      "terms":{"type":"boolean","title":"Terms"}
    },"required":["terms"]}"#;
    let mut terminal = fill_form_with("Before you go", form);
    see(&mut terminal, "Fill in the form");
    typed(&mut terminal, "\r");

    // Enter leaves the optional one unanswered: absent from the answer.
    see(&mut terminal, "Newsletter:");
    see(&mut terminal, "optional: Enter leaves it empty");
    typed(&mut terminal, "\r");

    // The required one refuses Enter, and takes a yes.
    see(&mut terminal, "Terms:");
    typed(&mut terminal, "\r");
    see(&mut terminal, "Invalid answer");
    typed(&mut terminal, "y\r");

    see(
        &mut terminal,
        r#"{"action":"accept","content":{"terms":true}}"#,
    );
}

#[test]
fn a_form_is_declined() {
    let mut terminal = fill_form("Share your location?");
    see(&mut terminal, "Fill in the form");
    typed(&mut terminal, DOWN);
    typed(&mut terminal, "\r");
    see(&mut terminal, r#"{"action":"decline"}"#);
}

#[test]
fn http_client_asks_a_servers_form_in_the_terminal_in_both_eras() {
    let server = support::EverythingServer::start(&[]);
    for protocol in ["2026-07-28", "2025-11-25"] {
        let mut command = Command::new(env!("CARGO_BIN_EXE_http-client"));
        command.args([
            "--interactive",
            "--protocol",
            protocol,
            &server.url,
            "test_elicitation",
        ]);
        let mut terminal = terminal(command);
        see(&mut terminal, "Please provide your information");
        see(&mut terminal, "Fill in the form");
        typed(&mut terminal, "\r");
        // The fields in the order the server's struct declares them (the server on rmcp writes
        // them so with the adapter's default feature `declared-order`, and the client half
        // keeps the order it reads), each with its doc comment as help.
        see(&mut terminal, "username:");
        see(&mut terminal, "Your user name");
        typed(&mut terminal, "ada\r");
        see(&mut terminal, "email:");
        see(&mut terminal, "Your email address");
        typed(&mut terminal, "ada@\r");
        see(&mut terminal, "is not a valid `email`");
        typed(&mut terminal, "example.com\r");
        see(
            &mut terminal,
            "User response: action=accept, username=ada, email=ada@example.com",
        );
    }
}

#[test]
fn the_stdio_client_asks_the_person_with_interactive_in_both_eras() {
    for protocol in ["2026-07-28", "2025-11-25"] {
        let mut command = Command::new(env!("CARGO_BIN_EXE_client"));
        command.args([
            "--interactive",
            "--protocol",
            protocol,
            env!("CARGO_BIN_EXE_server"),
        ]);
        let mut terminal = terminal(command);
        // `signup`'s form is declined, `connect_account`'s URL too.
        see(&mut terminal, "Please sign up");
        see(&mut terminal, "Fill in the form");
        typed(&mut terminal, DOWN);
        typed(&mut terminal, "\r");
        see(&mut terminal, "signup: declined");
        see(&mut terminal, "I opened it");
        typed(&mut terminal, DOWN);
        typed(&mut terminal, "\r");
        see(&mut terminal, "connect_account: declined");
    }
}
