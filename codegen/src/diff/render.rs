//! The report: plain text, Markdown for a pull request, JSON for tools. Each lists what fails
//! the [`Gate`] first, then what breaks only styles or kinds the gate lets through, then the
//! compatible changes, then the documentation changes; within each, grouped by [`Kind`].

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::{json, Value};

use super::{Change, Gate, Kind};

/// The version of the JSON report's shape ([`render_json`]); it changes only when a member is
/// removed or changes meaning.
pub const JSON_VERSION: u32 = 1;

/// How the two sides are named in a report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Names {
    /// The old side as the reviewer named it: a revision (`2025-11-25`) or a relative path.
    pub old_label: String,
    /// The new side, likewise.
    pub new_label: String,
    /// The Rust module of the old side (`v2025_11_25`).
    pub old_module: String,
    /// The Rust module of the new side.
    pub new_module: String,
}

/// Where a change is listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Group {
    /// Fails the gate.
    Breaking,
    /// Breaks a style the gate does not judge, or a kind it allows.
    Allowed,
    /// Breaks nothing.
    Compatible,
    /// Documentation only.
    Docs,
}

impl Group {
    fn of(change: &Change, gate: &Gate) -> Group {
        if gate.fails(change) {
            Group::Breaking
        } else if change.is_breaking() {
            Group::Allowed
        } else if change.kind == Kind::DocsChanged {
            Group::Docs
        } else {
            Group::Compatible
        }
    }

    fn title(self) -> &'static str {
        match self {
            Group::Breaking => "Breaking",
            Group::Allowed => "Breaking, let through (other styles or allowed kinds)",
            Group::Compatible => "Compatible",
            Group::Docs => "Documentation only",
        }
    }
}

/// The changes by group, then kind, in report order.
fn grouped<'a>(changes: &'a [Change], gate: &Gate) -> BTreeMap<(Group, Kind), Vec<&'a Change>> {
    let mut out: BTreeMap<(Group, Kind), Vec<&Change>> = BTreeMap::new();
    for c in changes {
        out.entry((Group::of(c, gate), c.kind)).or_default().push(c);
    }
    out
}

/// The full Rust path of the item: in the new module, or the old one where it was removed or
/// renamed (the new name is the change's `after`).
fn rust_path(c: &Change, names: &Names) -> String {
    let module = if (c.after.is_none() && c.before.is_some()) || c.kind == Kind::TypeRenamed {
        &names.old_module
    } else {
        &names.new_module
    };
    format!("{module}::{}", c.item.path())
}

/// `Option<T>`, `i64 → serde_json::Number`, `Option<T> → (removed)`.
fn types(c: &Change) -> String {
    match (&c.before, &c.after) {
        (None, None) => String::new(),
        (None, Some(after)) => after.clone(),
        (Some(before), None) => format!("{before} → (removed)"),
        (Some(before), Some(after)) => format!("{before} → {after}"),
    }
}

/// `literals, constructors, wire`, or `nothing`.
fn broken(c: &Change) -> String {
    let mut parts: Vec<&str> = c.breaks.iter().map(|s| s.name()).collect();
    if c.wire {
        parts.push("wire");
    }
    if parts.is_empty() {
        "nothing".into()
    } else {
        parts.join(", ")
    }
}

/// The summary line.
fn summary(changes: &[Change], gate: &Gate) -> String {
    if changes.is_empty() {
        return "no changes".into();
    }
    let count = |g: Group| changes.iter().filter(|c| Group::of(c, gate) == g).count();
    let styles: Vec<&str> = gate.styles.iter().map(|s| s.name()).collect();
    let mut line = format!(
        "{} changes: {} breaking (judged for {}), {} let through, {} compatible, {} documentation only",
        changes.len(),
        count(Group::Breaking),
        styles.join(", "),
        count(Group::Allowed),
        count(Group::Compatible),
        count(Group::Docs),
    );
    if !gate.allowed.is_empty() {
        let allowed: Vec<&str> = gate.allowed.iter().map(|k| k.name()).collect();
        let _ = write!(line, "; allowed: {}", allowed.join(", "));
    }
    line
}

/// The report as plain text; `color` paints breaking entries red and compatible ones green.
pub fn render_text(changes: &[Change], names: &Names, gate: &Gate, color: bool) -> String {
    let paint = |group: Group, text: &str| -> String {
        match (color, group) {
            (true, Group::Breaking) => format!("\x1b[31m{text}\x1b[0m"),
            (true, Group::Compatible) => format!("\x1b[32m{text}\x1b[0m"),
            _ => text.to_owned(),
        }
    };
    let mut out = format!(
        "{} → {} ({} → {}): {}\n",
        names.old_label,
        names.new_label,
        names.old_module,
        names.new_module,
        summary(changes, gate)
    );
    let mut current = None;
    for ((group, kind), items) in grouped(changes, gate) {
        if current != Some(group) {
            let _ = writeln!(out, "\n{}:", paint(group, group.title()));
            current = Some(group);
        }
        let _ = writeln!(out, "  {} ({}):", kind.name(), items.len());
        for c in items {
            let ty = types(c);
            let sep = if ty.is_empty() { "" } else { ": " };
            let _ = writeln!(out, "    {}{sep}{ty}", rust_path(c, names));
            let note = c.note.as_ref().map_or(String::new(), |n| format!("; {n}"));
            let _ = writeln!(
                out,
                "      breaks {}{note}; schema {}",
                broken(c),
                c.pointer
            );
        }
    }
    out
}

/// The report as Markdown, to paste into a pull request: a summary, the breaking changes in
/// tables by kind, the rest folded.
pub fn render_markdown(changes: &[Change], names: &Names, gate: &Gate) -> String {
    let mut out = format!(
        "## MCP schema {} → {} (`{}` → `{}`)\n\n{}\n",
        names.old_label,
        names.new_label,
        names.old_module,
        names.new_module,
        summary(changes, gate)
    );
    let mut current = None;
    for ((group, kind), items) in grouped(changes, gate) {
        if current != Some(group) {
            if matches!(current, Some(g) if g >= Group::Compatible) {
                out.push_str("\n</details>\n");
            }
            let count = changes
                .iter()
                .filter(|c| Group::of(c, gate) == group)
                .count();
            // What breaks nothing is folded: a reviewer reads the breaking part first.
            if group >= Group::Compatible {
                let _ = write!(
                    out,
                    "\n<details><summary>{} ({count})</summary>\n",
                    group.title()
                );
            } else {
                let _ = writeln!(out, "\n### {} ({count})", group.title());
            }
            current = Some(group);
        }
        let _ = writeln!(out, "\n#### `{}` ({})\n", kind.name(), items.len());
        out.push_str("| Rust item | type | breaks | schema |\n|---|---|---|---|\n");
        for c in items {
            let ty = types(c);
            let ty = if ty.is_empty() {
                String::new()
            } else {
                format!("`{ty}`")
            };
            let note = c.note.as_ref().map_or(String::new(), |n| format!(" ({n})"));
            let _ = writeln!(
                out,
                "| `{}`{note} | {ty} | {} | `{}` |",
                rust_path(c, names),
                broken(c),
                c.pointer
            );
        }
    }
    if matches!(current, Some(g) if g >= Group::Compatible) {
        out.push_str("\n</details>\n");
    }
    out
}

/// The report as JSON, shape version [`JSON_VERSION`]:
///
/// ```json
/// {"version": 1,
///  "old": {"label": "2025-11-25", "module": "v2025_11_25"}, "new": {…},
///  "styles": ["literals", "constructors", "match"], "allowed": ["struct_field_added"],
///  "fails": true,
///  "summary": {"changes": 9, "breaking": 3, "let_through": 1, "compatible": 4, "docs": 1},
///  "changes": [{"kind": "struct_field_added", "group": "breaking",
///               "path": "v2026_07_28::Implementation::keywords", "before": null,
///               "after": "Option<Vec<String>>", "pointer": "#/$defs/Implementation/…",
///               "breaks": ["literals"], "wire": false, "fails": true, "note": null}]}
/// ```
///
/// `group` is one of `breaking` (fails the gate), `let_through`, `compatible`, `docs`; the
/// changes come in report order.
pub fn render_json(changes: &[Change], names: &Names, gate: &Gate) -> String {
    let count = |g: Group| changes.iter().filter(|c| Group::of(c, gate) == g).count();
    let group_name = |g: Group| match g {
        Group::Breaking => "breaking",
        Group::Allowed => "let_through",
        Group::Compatible => "compatible",
        Group::Docs => "docs",
    };
    let entries: Vec<Value> = grouped(changes, gate)
        .into_iter()
        .flat_map(|((group, _), items)| items.into_iter().map(move |c| (group, c)))
        .map(|(group, c)| {
            let breaks: Vec<&str> = c.breaks.iter().map(|s| s.name()).collect();
            json!({
                "kind": c.kind.name(),
                "group": group_name(group),
                "path": rust_path(c, names),
                "before": c.before,
                "after": c.after,
                "pointer": c.pointer,
                "breaks": breaks,
                "wire": c.wire,
                "fails": gate.fails(c),
                "note": c.note,
            })
        })
        .collect();
    let styles: Vec<&str> = gate.styles.iter().map(|s| s.name()).collect();
    let allowed: Vec<&str> = gate.allowed.iter().map(|k| k.name()).collect();
    let report = json!({
        "version": JSON_VERSION,
        "old": {"label": names.old_label, "module": names.old_module},
        "new": {"label": names.new_label, "module": names.new_module},
        "styles": styles,
        "allowed": allowed,
        "fails": gate.fails_any(changes),
        "summary": {
            "changes": changes.len(),
            "breaking": count(Group::Breaking),
            "let_through": count(Group::Allowed),
            "compatible": count(Group::Compatible),
            "docs": count(Group::Docs),
        },
        "changes": entries,
    });
    let mut text = serde_json::to_string_pretty(&report).unwrap_or_default();
    text.push('\n');
    text
}
