//! The reports: a line per problem for a person, a JSON line per message for a tool.

use serde_json::{json, Value};

use crate::session::Verdict;

/// A verdict for a person: nothing when the message is valid, else a line per violation
/// (`#12 line 12 client→server tools/call (2025-11-25) /params/name: maxLength: …`).
pub fn text(file: &str, verdict: &Verdict) -> String {
    let mut out = String::new();
    let from = verdict.from.map_or("?", |side| side.arrow());
    let method = verdict.method.as_deref().unwrap_or("-");
    let revision = verdict
        .revision
        .map_or_else(|| "no revision".to_owned(), |r| r.to_string());
    for v in &verdict.violations {
        let pointer = if v.pointer.is_empty() {
            "(message)"
        } else {
            &v.pointer
        };
        out.push_str(&format!(
            "{file}:{} #{} {from} {method} ({revision}) {pointer}: {}: {}\n",
            verdict.line, verdict.number, v.keyword, v.expected
        ));
    }
    out
}

/// A verdict as one JSON object: `number`, `line`, `from`, `method`, `revision`, `valid`, and
/// `violations` (each `pointer`, `keyword`, `expected`); `id` for a message that has one, and
/// `error` (the code) for an error response.
pub fn json(file: &str, verdict: &Verdict) -> Value {
    let violations: Vec<Value> = (verdict.violations.iter())
        .map(|v| json!({"pointer": v.pointer, "keyword": v.keyword, "expected": v.expected}))
        .collect();
    let mut line = json!({
        "file": file,
        "number": verdict.number,
        "line": verdict.line,
        "from": verdict.from.map(|side| side.name()),
        "method": verdict.method,
        "revision": verdict.revision.map(|r| r.version()),
        "valid": verdict.is_valid(),
        "violations": violations,
    });
    if let Some(id) = &verdict.id {
        line["id"] = id.clone();
    }
    if let Some(code) = verdict.error_code {
        line["error"] = code.into();
    }
    line
}

/// The totals of a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// Messages checked.
    pub messages: usize,
    /// Messages with at least one violation.
    pub invalid: usize,
    /// Violations in all.
    pub violations: usize,
}

impl Summary {
    /// Counts `verdict` in.
    pub fn add(&mut self, verdict: &Verdict) {
        self.messages += 1;
        self.invalid += usize::from(!verdict.is_valid());
        self.violations += verdict.violations.len();
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} messages: {} valid, {} with violations ({} violations)",
            self.messages,
            self.messages - self.invalid,
            self.invalid,
            self.violations
        )
    }
}
