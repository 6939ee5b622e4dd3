//! The reports: a line per problem for a person, a JSON line per message for a tool, a JUnit XML
//! document for a CI system.

use serde_json::{json, Value};

use crate::session::Verdict;

/// A verdict for a person: nothing when the message is valid, else a line per violation
/// (`#12 line 12 client→server tools/call (2025-11-25) /params/name: maxLength: …`); a
/// message of an unknown method says so on a line of its own.
pub fn text(file: &str, verdict: &Verdict) -> String {
    let mut out = String::new();
    let message = format!(
        "{file}:{} #{} {}",
        verdict.line,
        verdict.number,
        subject(verdict)
    );
    if verdict.unknown_method {
        out.push_str(&format!(
            "{message} note: unknown method, checked as a JSON-RPC envelope only (--strict \
             counts it)\n"
        ));
    }
    for v in &verdict.violations {
        let pointer = if v.pointer.is_empty() {
            "(message)"
        } else {
            &v.pointer
        };
        out.push_str(&format!(
            "{message} {pointer}: {}: {}\n",
            v.keyword, v.expected
        ));
    }
    out
}

/// What names a message in every report: `FROM METHOD (REVISION)`.
fn subject(verdict: &Verdict) -> String {
    let from = verdict.from.map_or("?", |side| side.arrow());
    let method = verdict.method.as_deref().unwrap_or("-");
    let revision = verdict
        .revision
        .map_or_else(|| "no revision".to_owned(), |r| r.to_string());
    format!("{from} {method} ({revision})")
}

/// A verdict as one JSON object: `number`, `line`, `from`, `method`, `revision`, `valid`, and
/// `violations` (each `pointer`, `keyword`, `expected`); `id` for a message that has one,
/// `error` (the code) for an error response, and `"unknown_method": true` for a method its
/// revision does not define.
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
    if verdict.unknown_method {
        line["unknown_method"] = true.into();
    }
    line
}

/// A JUnit XML report of recorded files, as CI systems read test results: a `<testsuite>` per
/// file and a `<testcase>` per message (named `#NUMBER line LINE FROM METHOD (REVISION)`), a
/// message with violations being a `<failure>` that lists them as the text report does.
#[derive(Debug, Default)]
pub struct Junit {
    suites: String,
    tests: usize,
    failures: usize,
    /// The suite being written.
    current: Option<Suite>,
}

/// One file's test suite, as it is written.
#[derive(Debug, Default)]
struct Suite {
    name: String,
    /// Its `<testcase>` elements so far.
    cases: String,
    tests: usize,
    failures: usize,
}

impl Junit {
    /// Adds `verdict`, a message of `file` (a new file starts a new suite).
    pub fn add(&mut self, file: &str, verdict: &Verdict) {
        if self.current.as_ref().is_none_or(|suite| suite.name != file) {
            self.close_suite();
        }
        let suite = self.current.get_or_insert_with(|| Suite {
            name: file.to_owned(),
            ..Suite::default()
        });
        let name = format!(
            "#{} line {} {}",
            verdict.number,
            verdict.line,
            subject(verdict)
        );
        suite.cases.push_str(&format!(
            "    <testcase name=\"{}\" classname=\"{}\"",
            xml_escape(&name),
            xml_escape(file)
        ));
        suite.tests += 1;
        if verdict.is_valid() {
            suite.cases.push_str("/>\n");
        } else {
            suite.failures += 1;
            let count = verdict.violations.len();
            let message = format!("{count} violation{}", if count == 1 { "" } else { "s" });
            suite.cases.push_str(&format!(
                ">\n      <failure message=\"{message}\" type=\"{}\">{}</failure>\n    </testcase>\n",
                xml_escape(&verdict.violations[0].keyword),
                xml_escape(&text(file, verdict))
            ));
        }
    }

    fn close_suite(&mut self) {
        if let Some(suite) = self.current.take() {
            let Suite {
                name,
                cases,
                tests,
                failures,
            } = suite;
            self.suites.push_str(&format!(
                "  <testsuite name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\">\n{cases}  </testsuite>\n",
                xml_escape(&name)
            ));
            self.tests += tests;
            self.failures += failures;
        }
    }

    /// The document.
    pub fn finish(mut self) -> String {
        self.close_suite();
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"mcp-check\" tests=\"{}\" failures=\"{}\" errors=\"0\">\n{}</testsuites>\n",
            self.tests, self.failures, self.suites
        )
    }
}

/// `text` as XML character data or an attribute value: the five markup characters as
/// entities, and the characters XML 1.0 cannot hold (most control characters) as U+FFFD.
fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
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
    /// Messages of a method their revision does not define (valid or not).
    pub unknown_methods: usize,
    /// Messages a proxy forwarded without checking them (`--no-check`).
    pub unchecked: usize,
}

impl Summary {
    /// Counts `verdict` in.
    pub fn add(&mut self, verdict: &Verdict) {
        self.messages += 1;
        self.invalid += usize::from(!verdict.is_valid());
        self.violations += verdict.violations.len();
        self.unknown_methods += usize::from(verdict.unknown_method);
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.messages == 0 && self.unchecked > 0 {
            return write!(f, "{} messages: forwarded, not checked", self.unchecked);
        }
        write!(
            f,
            "{} messages: {} valid, {} with violations ({} violations)",
            self.messages,
            self.messages - self.invalid,
            self.invalid,
            self.violations
        )?;
        match self.unknown_methods {
            0 => Ok(()),
            n => write!(f, "; {n} of a method the revision does not define"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::xml_escape;

    #[test]
    fn xml_escape_keeps_markup_and_unwritable_characters_out() {
        assert_eq!(
            xml_escape("a<b>&\"c'\u{1}\u{7f}é\n"),
            "a&lt;b&gt;&amp;&quot;c&apos;\u{FFFD}\u{7f}é\n"
        );
    }
}
