//! Reading what the conformance suite prints, for the server test (`conformance.rs`) and the
//! client test (`conformance_client.rs`).

/// A scenario line of a summary: `✓ tools_call: 2 passed, 0 failed` (`✗` when it failed).
#[derive(Debug)]
pub struct ScenarioLine {
    /// Marked ✓ and no check failed.
    pub ok: bool,
    pub name: String,
    pub passed: usize,
    pub failed: usize,
}

impl ScenarioLine {
    /// `None` for a line of another shape.
    pub fn parse(line: &str) -> Option<Self> {
        let line = line.trim();
        let (ok, rest) = match line.strip_prefix("✓ ") {
            Some(rest) => (true, rest),
            None => (false, line.strip_prefix("✗ ")?),
        };
        let (name, counts) = rest.rsplit_once(": ")?;
        let (passed, failed) = passed_failed(counts)?;
        Some(Self {
            ok: ok && failed == 0,
            name: name.to_owned(),
            passed,
            failed,
        })
    }
}

/// `3 passed, 0 failed` (also the start of `Total: 3 passed, 0 failed, 0 warnings`'s counts).
pub fn passed_failed(text: &str) -> Option<(usize, usize)> {
    let (passed, failed) = text.split_once(" passed, ")?;
    let failed = failed.split(',').next()?.strip_suffix(" failed")?;
    Some((passed.parse().ok()?, failed.parse().ok()?))
}

/// The scenarios under `Not scored for <revision>:` (`  ✓ name (reason)`).
pub fn unscored(output: &str) -> Vec<String> {
    output
        .lines()
        .skip_while(|line| !line.starts_with("Not scored for"))
        .skip(1)
        .map_while(|line| {
            let line = line.trim();
            let rest = line
                .strip_prefix("✓ ")
                .or_else(|| line.strip_prefix("✗ "))?;
            Some(rest.split(" (").next().unwrap_or(rest).to_owned())
        })
        .collect()
}

/// `text` without its ANSI colour sequences (`ESC [ … letter`).
pub fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.next() == Some('[') {
                for c in chars.by_ref() {
                    if c.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The last `count` lines of `text`.
pub fn last_lines(text: &str, count: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(count)..].join("\n")
}
