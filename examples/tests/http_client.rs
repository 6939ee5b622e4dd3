//! `http-client` against everything-server, without a terminal: `--help` documents every option
//! and exits 0; `--answers FILE` answers `test_elicitation`'s form in both eras (by the input
//! request's key in 2026-07-28, by the form's message in either); a form that cannot be answered
//! (no terminal and no `--answers`, or no member for it in the file) and an answer that breaks
//! the form are errors: exit status 1, the form or the field named; an answers file that is not
//! one and `--interactive` without a terminal are usage errors (2); a member that answers no form
//! is named in a warning.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::Duration;

mod support;
use support::EverythingServer;

const ERAS: [&str; 2] = ["2026-07-28", "2025-11-25"];

/// Runs http-client with `args`, stdin not a terminal.
fn http_client(args: &[&str]) -> Output {
    support::run(
        Command::new(env!("CARGO_BIN_EXE_http-client")).args(args),
        Duration::from_secs(60),
    )
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Writes an answers file named `name` with `contents`.
fn answers(name: &str, contents: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("http-client-{name}.json"));
    std::fs::write(&path, contents).expect("write the answers file");
    path
}

#[test]
fn help_documents_every_option_and_exits_0() {
    let out = http_client(&["--help"]);
    let help = text(&out.stdout);
    assert!(out.status.success(), "{out:?}");
    for named in [
        "--protocol",
        "2026-07-28",
        "2025-11-25",
        "--answers <FILE>",
        "--interactive",
        "--help",
        "<URL>",
        "[TOOL]",
        "[ARGUMENTS]",
        // The shape of the answers file, with an example.
        r#"{"user_info": {"username": "ada", "email": "ada@example.com"}}"#,
    ] {
        assert!(help.contains(named), "`{named}` not in the help:\n{help}");
    }
}

#[test]
fn answers_from_a_file_complete_a_form_in_both_eras() {
    let server = EverythingServer::start(&[]);
    // By the input request's key (2026-07-28 only), and by the form's message (either era).
    let by_key = answers(
        "by-key",
        r#"{"user_info": {"username": "ada", "email": "ada@example.com"}}"#,
    );
    let by_message = answers(
        "by-message",
        r#"{"Who are you?": {"username": "grace", "email": "grace@example.com"}}"#,
    );
    let out = http_client(&[
        "--answers",
        by_key.to_str().unwrap(),
        &server.url,
        "test_elicitation",
    ]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        text(&out.stdout).trim(),
        "User response: action=accept, username=ada, email=ada@example.com"
    );
    for protocol in ERAS {
        let out = http_client(&[
            "--protocol",
            protocol,
            "--answers",
            by_message.to_str().unwrap(),
            &server.url,
            "test_elicitation",
            r#"{"message": "Who are you?"}"#,
        ]);
        assert!(out.status.success(), "{protocol}: {out:?}");
        assert_eq!(
            text(&out.stdout).trim(),
            "User response: action=accept, username=grace, email=grace@example.com",
            "{protocol}"
        );
    }
    // "decline" declines.
    let declined = answers(
        "decline",
        r#"{"Please provide your information": "decline"}"#,
    );
    for protocol in ERAS {
        let out = http_client(&[
            "--protocol",
            protocol,
            "--answers",
            declined.to_str().unwrap(),
            &server.url,
            "test_elicitation",
        ]);
        assert!(out.status.success(), "{protocol}: {out:?}");
        assert_eq!(
            text(&out.stdout).trim(),
            "User response: action=decline",
            "{protocol}"
        );
    }
}

#[test]
fn a_form_that_cannot_be_answered_is_an_error() {
    let server = EverythingServer::start(&[]);
    for protocol in ERAS {
        // No terminal (stdin is not one) and no answers file.
        let out = http_client(&["--protocol", protocol, &server.url, "test_elicitation"]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{protocol}: {out:?}");
        assert!(
            stderr.contains("stdin is not a terminal and no --answers FILE was given"),
            "{protocol}: {stderr}"
        );
        assert!(
            stderr.contains("Please provide your information"),
            "{protocol}: {stderr}"
        );
        assert!(stderr.contains("username"), "{protocol}: {stderr}");
        assert!(text(&out.stdout).is_empty(), "{protocol}: {out:?}");

        // An answers file without a member for the form.
        let other = answers("other", r#"{"someone_else": {"username": "x"}}"#);
        let out = http_client(&[
            "--protocol",
            protocol,
            "--answers",
            other.to_str().unwrap(),
            &server.url,
            "test_elicitation",
        ]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{protocol}: {out:?}");
        assert!(
            stderr.contains("has no answer to the form")
                && stderr.contains("Please provide your information")
                && stderr.contains("username")
                && stderr.contains("email"),
            "{protocol}: {stderr}"
        );
        if protocol == "2026-07-28" {
            assert!(stderr.contains(r#""user_info""#), "{stderr}");
        }
        // The member that answered nothing is named, not silently ignored.
        assert!(
            stderr.contains(r#"member "someone_else" answered no form"#),
            "{protocol}: {stderr}"
        );

        // --interactive without a terminal: a usage error.
        let out = http_client(&[
            "--interactive",
            "--protocol",
            protocol,
            &server.url,
            "test_elicitation",
        ]);
        assert_eq!(out.status.code(), Some(2), "{protocol}: {out:?}");
        assert!(
            text(&out.stderr).contains("stdin is not one"),
            "{protocol}: {out:?}"
        );
    }
    // A file that is not an answers file: a usage error, before anything is sent.
    let wrong = answers("wrong", r#"{"user_info": 7}"#);
    let out = http_client(&[
        "--answers",
        wrong.to_str().unwrap(),
        &server.url,
        "test_elicitation",
    ]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        text(&out.stderr).contains(r#"the answer to "user_info" must be an object"#),
        "{out:?}"
    );
}

#[test]
fn an_answer_that_breaks_the_form_is_not_sent_and_names_the_field() {
    let server = EverythingServer::start(&[]);
    let broken = answers(
        "broken",
        r#"{"user_info": {"username": "ada", "email": "not an address"},
            "Who are you?": {"username": "ada", "email": "not an address"}}"#,
    );
    for protocol in ERAS {
        let out = http_client(&[
            "--protocol",
            protocol,
            "--answers",
            broken.to_str().unwrap(),
            &server.url,
            "test_elicitation",
            r#"{"message": "Who are you?"}"#,
        ]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{protocol}: {out:?}");
        assert!(
            stderr.contains("breaks it, and was not sent") && stderr.contains("/email"),
            "{protocol}: {stderr}"
        );
        assert!(text(&out.stdout).is_empty(), "{protocol}: {out:?}");
    }
}
