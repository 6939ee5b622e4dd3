//! `mcp-check fuzz --url` (its library) against our two HTTP servers, built on rmcp with the
//! adapter: every drawn call answered and every message of the conversation valid in each
//! revision they serve, 2026-07-28's multi round-trip calls included; where a revision lacks what a tool needs (elicitation
//! before 2025-06-18), the call is refused with the capability it needs, and nothing else is
//! found. It found the everything-server sending audio content to a 2024-11-05 client (audio
//! came with 2025-03-26; the clip now goes as an embedded resource there), and putting a prompt
//! argument that is no URI in a resource's `uri` (now refused with -32602).

use mcp_wire_check::fuzz::{self, Fault, Options, Report, Target};
use mcp_wire_check::Revision;

mod support;

fn fuzz_at(url: &str, revision: Revision, requests: usize) -> Report {
    let target = Target::Url {
        url: url.to_owned(),
        headers: Vec::new(),
    };
    let options = Options {
        revision,
        requests,
        ..Options::default()
    };
    fuzz::run(&target, &options).expect("the fuzzer runs")
}

/// The findings of `report` that are not a call refused for a capability its revision cannot
/// declare (-32021, naming `elicitation`).
fn other_than_missing_elicitation(report: &Report) -> Vec<&fuzz::Finding> {
    (report.findings.iter())
        .filter(|finding| {
            !(finding.fault == Fault::Error
                && finding.detail.contains("-32021")
                && finding.detail.contains("\"elicitation\""))
        })
        .collect()
}

#[test]
fn the_everything_server_answers_every_drawn_call_in_each_revision() {
    let server = support::HttpServer::start(&[]);
    for revision in [
        Revision::V2026_07_28,
        Revision::V2025_11_25,
        Revision::V2025_06_18,
    ] {
        let report = fuzz_at(&server.url, revision, 100);
        assert_eq!(report.tools, 24, "{revision}");
        // Its prompts and resources are got and read in turn with the tools.
        assert_eq!((report.prompts, report.resources), (5, 4), "{revision}");
        // `json_schema_2020_12_tool`'s schema has an `if`, which no value is drawn for.
        assert_eq!(report.skipped.len(), 1, "{revision}: {:?}", report.skipped);
        if revision != Revision::V2025_06_18 {
            assert_eq!(report.answered, 100, "{revision}: {report:#?}");
            assert!(report.findings.is_empty(), "{revision}: {report:#?}");
            // 2026-07-28 (stateless, SEP-2243 headers): its asking tools answer
            // `input_required`, each retried with drawn answers and the sealed state.
            let retried = revision == Revision::V2026_07_28;
            assert_eq!(report.retries > 0, retried, "{revision}: {report:#?}");
        } else {
            // Two forms use what 2025-06-18 lacks (a string's `default`, multi-select enums):
            // refused, saying so; every other call answered.
            for finding in &report.findings {
                assert_eq!(finding.fault, Fault::Error, "{finding:?}");
                assert!(
                    finding.detail.contains("exist in revision 2025-06-18"),
                    "{finding:?}"
                );
            }
            assert_eq!(report.answered + report.findings.len(), 100, "{report:#?}");
        }
    }
    for revision in [Revision::V2024_11_05, Revision::V2025_03_26] {
        let report = fuzz_at(&server.url, revision, 100);
        assert_eq!(report.tools, 24, "{revision}");
        assert!(report.answered >= 50, "{revision}: {report:#?}");
        let others = other_than_missing_elicitation(&report);
        assert!(others.is_empty(), "{revision}: {others:#?}");
    }
}

#[test]
fn the_booking_server_answers_every_drawn_call() {
    let server = support::HttpServer::start_program(env!("CARGO_BIN_EXE_booking-server"), &[]);
    for revision in [
        Revision::V2026_07_28,
        Revision::V2025_11_25,
        Revision::V2025_06_18,
    ] {
        let report = fuzz_at(&server.url, revision, 60);
        assert_eq!(
            (report.tools, report.answered),
            (1, 60),
            "{revision}: {report:#?}"
        );
        assert!(report.findings.is_empty(), "{revision}: {report:#?}");
    }
    // In 2026-07-28 every call asks its form once: one retry each.
    assert_eq!(fuzz_at(&server.url, Revision::V2026_07_28, 20).retries, 20);
    // `book_table` asks with a form, which 2024-11-05 has no way to: each call refused so.
    let report = fuzz_at(&server.url, Revision::V2024_11_05, 10);
    assert_eq!(report.answered, 0);
    assert_eq!(report.findings.len(), 10);
    assert!(
        other_than_missing_elicitation(&report).is_empty(),
        "{report:#?}"
    );
}
