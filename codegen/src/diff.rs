//! What changed between two schemas, for the Rust code that uses the generated types.
//!
//! [`diff`] compares two [`Module`]s (the IR, not the JSON, so a reordered or reformatted schema
//! shows no change) and lists every added, removed and changed definition, method, field, enum
//! value, union member and constant, each marked [`Impact::Breaking`] or
//! [`Impact::Compatible`]:
//!
//! - **breaking**: code written against the old types may stop compiling, or JSON the old types
//!   accepted may stop decoding: anything removed or renamed, a type changed, a member turned
//!   required ↔ optional (its Rust type changes between `T` and `Option<T>`), a new required
//!   member, a constant changed, undeclared members newly forbidden;
//! - **compatible**: additions old code cannot observe, other than through an exhaustive
//!   `match` on an enum or a struct literal without `..Default::default()`: new definitions,
//!   methods, optional members, enum values and union members.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::ir::{
    Additional, CallKind, EnumValue, Module, Struct, TypeDef, TypeExpr, TypeKind, Union,
};

/// Whether a change can break code that uses the generated types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Impact {
    /// Old code may stop compiling, or old JSON may stop decoding.
    Breaking,
    /// An addition.
    Compatible,
}

/// What a change is about; the report groups changes by it, in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Section {
    /// Schema definitions (named types).
    Definitions,
    /// Request and notification methods, per direction.
    Methods,
    /// Members of object types.
    Fields,
    /// Values of string enums.
    EnumValues,
    /// Members of unions.
    UnionMembers,
    /// Constant members (`method`, `type`, `jsonrpc`, error codes).
    Consts,
}

impl Section {
    /// The heading of the section in a report.
    pub fn title(self) -> &'static str {
        match self {
            Section::Definitions => "Definitions",
            Section::Methods => "Methods",
            Section::Fields => "Fields",
            Section::EnumValues => "Enum values",
            Section::UnionMembers => "Union members",
            Section::Consts => "Constants",
        }
    }
}

/// One difference.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Change {
    /// The group it belongs to.
    pub section: Section,
    /// What it is about: `ServerRequest`, `tools/call (client request)`, `Tool.title`.
    pub subject: String,
    /// What happened: `removed`, `added`, `type string → integer`, `required → optional`.
    pub what: String,
    /// Whether it can break code.
    pub impact: Impact,
}

/// Every difference from `old` to `new`, sorted by section, subject and description.
pub fn diff(old: &Module, new: &Module) -> Vec<Change> {
    let mut found = Found::default();
    found.definitions(old, new);
    found.methods(old, new);
    // Types present on both sides, by Rust name (definitions and inline types alike).
    for new_type in &new.types {
        if let Some(old_type) = old.get(&new_type.name) {
            found.type_changes(Sides { old, new }, old_type, new_type);
        }
    }
    let mut changes = found.0;
    changes.sort();
    changes.dedup();
    changes
}

/// The two modules compared, for resolving aliases on each side.
#[derive(Clone, Copy)]
struct Sides<'a> {
    old: &'a Module,
    new: &'a Module,
}

/// The changes found so far, in the order found.
#[derive(Default)]
struct Found(Vec<Change>);

impl Found {
    fn push(&mut self, section: Section, subject: String, what: String, impact: Impact) {
        self.0.push(Change {
            section,
            subject,
            what,
            impact,
        })
    }

    /// Definitions: the schema's named types. Inline types are compared by
    /// [`Self::type_changes`], by Rust name, and show up as their parent's field changes.
    fn definitions(&mut self, old: &Module, new: &Module) {
        let defs = |m: &Module| -> BTreeMap<String, String> {
            m.types
                .iter()
                .filter_map(|t| t.schema_name.clone().map(|s| (s, kind_name(t).to_owned())))
                .collect()
        };
        let (old_defs, new_defs) = (defs(old), defs(new));
        for (name, kind) in &old_defs {
            match new_defs.get(name) {
                None => self.push(
                    Section::Definitions,
                    name.clone(),
                    "removed".into(),
                    Impact::Breaking,
                ),
                Some(new_kind) if new_kind != kind => self.push(
                    Section::Definitions,
                    name.clone(),
                    format!("changed from {kind} to {new_kind}"),
                    Impact::Breaking,
                ),
                Some(_) => {}
            }
        }
        for name in new_defs.keys().filter(|n| !old_defs.contains_key(*n)) {
            self.push(
                Section::Definitions,
                name.clone(),
                format!("added ({})", new_defs[name]),
                Impact::Compatible,
            );
        }
    }

    /// Methods, with their direction: a method can be sent by both sides (`ping`).
    fn methods(&mut self, old: &Module, new: &Module) {
        let (old_methods, new_methods) = (methods(old), methods(new));
        for (method, direction) in old_methods.difference(&new_methods) {
            self.push(
                Section::Methods,
                format!("{method} ({direction})"),
                "removed".into(),
                Impact::Breaking,
            );
        }
        for (method, direction) in new_methods.difference(&old_methods) {
            self.push(
                Section::Methods,
                format!("{method} ({direction})"),
                "added".into(),
                Impact::Compatible,
            );
        }
    }

    /// The changes of a type present on both sides, by its kind.
    fn type_changes(&mut self, sides: Sides<'_>, old_type: &TypeDef, new_type: &TypeDef) {
        let name = display_name(new_type);
        match (&old_type.kind, &new_type.kind) {
            (TypeKind::Struct(a), TypeKind::Struct(b)) => {
                self.fields(sides, &name, a, b);
                self.added_fields(&name, a, b);
                self.consts(&name, a, b);
                self.undeclared_members(&name, a, b);
            }
            (TypeKind::StringEnum(a), TypeKind::StringEnum(b)) => self.enum_values(&name, a, b),
            (TypeKind::Union(a), TypeKind::Union(b)) => self.union_members(&name, a, b),
            (TypeKind::Alias(a), TypeKind::Alias(b))
                if resolve(sides.old, a) != resolve(sides.new, b) =>
            {
                self.push(
                    Section::Definitions,
                    name,
                    format!("alias of {} → {}", type_name(a), type_name(b)),
                    Impact::Breaking,
                )
            }
            _ => {}
        }
    }

    /// The members of struct `a` removed, turned constant or changed in `b`.
    fn fields(&mut self, sides: Sides<'_>, name: &str, a: &Struct, b: &Struct) {
        for field in &a.fields {
            let subject = format!("{name}.{}", field.json_name);
            match b.fields.iter().find(|f| f.json_name == field.json_name) {
                None if b.consts.iter().any(|c| c.json_name == field.json_name) => self.push(
                    Section::Fields,
                    subject,
                    "became a constant".into(),
                    Impact::Breaking,
                ),
                None => self.push(Section::Fields, subject, "removed".into(), Impact::Breaking),
                Some(now) => {
                    if resolve(sides.old, &field.ty) != resolve(sides.new, &now.ty) {
                        self.push(
                            Section::Fields,
                            subject.clone(),
                            format!("type {} → {}", type_name(&field.ty), type_name(&now.ty)),
                            Impact::Breaking,
                        );
                    }
                    if now.required != field.required {
                        let what = if now.required {
                            "optional → required"
                        } else {
                            "required → optional"
                        };
                        self.push(Section::Fields, subject, what.into(), Impact::Breaking);
                    }
                }
            }
        }
    }

    /// The members of struct `b` that `a` has neither as a member nor as a constant.
    fn added_fields(&mut self, name: &str, a: &Struct, b: &Struct) {
        for field in &b.fields {
            if a.fields.iter().any(|f| f.json_name == field.json_name)
                || a.consts.iter().any(|c| c.json_name == field.json_name)
            {
                continue;
            }
            let (what, impact) = if field.default_when_absent.is_some() {
                // Old JSON, without the member, still decodes.
                (
                    "added, required with a default when absent",
                    Impact::Compatible,
                )
            } else if field.required {
                ("added, required", Impact::Breaking)
            } else {
                ("added, optional", Impact::Compatible)
            };
            self.push(
                Section::Fields,
                format!("{name}.{}", field.json_name),
                format!("{what} ({})", type_name(&field.ty)),
                impact,
            );
        }
    }

    /// The constant members of struct `a` changed, removed or turned plain in `b`, and those
    /// `b` adds.
    fn consts(&mut self, name: &str, a: &Struct, b: &Struct) {
        for c in &a.consts {
            let subject = format!("{name}.{}", c.json_name);
            match b.consts.iter().find(|n| n.json_name == c.json_name) {
                Some(now) if now.value != c.value => self.push(
                    Section::Consts,
                    subject,
                    format!("{} → {}", c.value.to_json(), now.value.to_json()),
                    Impact::Breaking,
                ),
                Some(_) => {}
                None if b.fields.iter().any(|f| f.json_name == c.json_name) => self.push(
                    Section::Consts,
                    subject,
                    "no longer a constant".into(),
                    Impact::Breaking,
                ),
                None => self.push(Section::Consts, subject, "removed".into(), Impact::Breaking),
            }
        }
        for c in &b.consts {
            let known = a.consts.iter().any(|o| o.json_name == c.json_name)
                || a.fields.iter().any(|f| f.json_name == c.json_name);
            if !known {
                self.push(
                    Section::Consts,
                    format!("{name}.{}", c.json_name),
                    format!("added: {}", c.value.to_json()),
                    Impact::Breaking,
                );
            }
        }
    }

    /// Whether a struct keeps, types or forbids the members it does not declare.
    fn undeclared_members(&mut self, name: &str, a: &Struct, b: &Struct) {
        if a.additional == b.additional {
            return;
        }
        let impact = match (&a.additional, &b.additional) {
            (Additional::Forbidden, _) => Impact::Compatible,
            _ => Impact::Breaking,
        };
        self.push(
            Section::Fields,
            format!("{name} (undeclared members)"),
            format!(
                "{} → {}",
                additional_name(&a.additional),
                additional_name(&b.additional)
            ),
            impact,
        );
    }

    /// The values of a string enum removed and added.
    fn enum_values(&mut self, name: &str, a: &[EnumValue], b: &[EnumValue]) {
        for v in a.iter().filter(|v| !b.iter().any(|w| w.value == v.value)) {
            self.push(
                Section::EnumValues,
                format!("{name} \"{}\"", v.value),
                "removed".into(),
                Impact::Breaking,
            );
        }
        for v in b.iter().filter(|v| !a.iter().any(|w| w.value == v.value)) {
            self.push(
                Section::EnumValues,
                format!("{name} \"{}\"", v.value),
                "added".into(),
                Impact::Compatible,
            );
        }
    }

    /// The members of a union removed and added, by type.
    fn union_members(&mut self, name: &str, a: &Union, b: &Union) {
        let members = |u: &Union| -> BTreeSet<String> {
            u.variants.iter().map(|v| type_name(&v.ty)).collect()
        };
        let (was, is) = (members(a), members(b));
        for m in was.difference(&is) {
            self.push(
                Section::UnionMembers,
                format!("{name} member {m}"),
                "removed".into(),
                Impact::Breaking,
            );
        }
        for m in is.difference(&was) {
            self.push(
                Section::UnionMembers,
                format!("{name} member {m}"),
                "added".into(),
                Impact::Compatible,
            );
        }
    }
}

/// Every method of the module with its direction (`client request`, `server notification`).
fn methods(module: &Module) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for t in &module.types {
        let TypeKind::Calls(set) = &t.kind else {
            continue;
        };
        let side = if t.name.starts_with("Client") {
            "client"
        } else if t.name.starts_with("Server") {
            "server"
        } else {
            "other"
        };
        let kind = match set.kind {
            CallKind::Request => "request",
            CallKind::Notification => "notification",
        };
        for call in &set.calls {
            out.insert((call.method.clone(), format!("{side} {kind}")));
        }
    }
    out
}

/// `t` with every alias replaced by what it stands for: a member whose type became a named
/// alias of the same thing (`{string: any}` → `MetaObject`) has not changed for Rust code.
fn resolve(module: &Module, t: &TypeExpr) -> TypeExpr {
    fn go(module: &Module, t: &TypeExpr, depth: usize) -> TypeExpr {
        let inner = |x: &TypeExpr| Box::new(go(module, x, depth));
        match t {
            TypeExpr::Array(x) => TypeExpr::Array(inner(x)),
            TypeExpr::Map(x) => TypeExpr::Map(inner(x)),
            TypeExpr::Nullable(x) => TypeExpr::Nullable(inner(x)),
            // The depth bound stops a (schema-invalid) alias cycle.
            TypeExpr::Named(name) if depth < 16 => match module.get(name).map(|d| &d.kind) {
                Some(TypeKind::Alias(target)) => go(module, target, depth + 1),
                _ => t.clone(),
            },
            other => other.clone(),
        }
    }
    go(module, t, 0)
}

fn display_name(t: &TypeDef) -> String {
    t.schema_name.clone().unwrap_or_else(|| t.name.clone())
}

fn kind_name(t: &TypeDef) -> &'static str {
    match t.kind {
        TypeKind::Struct(_) => "object",
        TypeKind::StringEnum(_) => "string enum",
        TypeKind::Union(_) => "union",
        TypeKind::Alias(_) => "alias",
        TypeKind::Calls(_) => "method union",
    }
}

fn additional_name(a: &Additional) -> String {
    match a {
        Additional::Forbidden => "forbidden".into(),
        Additional::Any => "kept".into(),
        Additional::Typed(t) => format!("kept as {}", type_name(t)),
    }
}

/// A type expression in schema terms: `string`, `[Tool]`, `{string: JsonValue}`, `Cursor | null`.
fn type_name(t: &TypeExpr) -> String {
    match t {
        TypeExpr::String => "string".into(),
        TypeExpr::Integer => "integer".into(),
        TypeExpr::Number => "number".into(),
        TypeExpr::Boolean => "boolean".into(),
        TypeExpr::Any => "any".into(),
        TypeExpr::Array(item) => format!("[{}]", type_name(item)),
        TypeExpr::Map(value) => format!("{{string: {}}}", type_name(value)),
        TypeExpr::Nullable(inner) => format!("{} | null", type_name(inner)),
        TypeExpr::Named(name) => name.clone(),
    }
}

/// The report as plain text, grouped by section; `color` adds ANSI colors (red for breaking,
/// green for compatible).
pub fn render_text(changes: &[Change], old: &str, new: &str, color: bool) -> String {
    let paint = |impact: Impact, text: &str| -> String {
        match (color, impact) {
            (false, _) => text.to_owned(),
            (true, Impact::Breaking) => format!("\x1b[31m{text}\x1b[0m"),
            (true, Impact::Compatible) => format!("\x1b[32m{text}\x1b[0m"),
        }
    };
    let mut out = format!("{old} → {new}: {}\n", summary(changes));
    for (section, items) in sections(changes) {
        let _ = writeln!(out, "\n{}:", section.title());
        for c in items {
            let mark = match c.impact {
                Impact::Breaking => "breaking  ",
                Impact::Compatible => "compatible",
            };
            let _ = writeln!(out, "  {} {}: {}", paint(c.impact, mark), c.subject, c.what);
        }
    }
    out
}

/// The report as Markdown, for a CHANGELOG or a pull request.
pub fn render_markdown(changes: &[Change], old: &str, new: &str) -> String {
    let mut out = format!("## MCP schema {old} → {new}\n\n{}\n", summary(changes));
    for (section, items) in sections(changes) {
        let _ = writeln!(out, "\n### {}\n", section.title());
        for c in items {
            let mark = match c.impact {
                Impact::Breaking => "**breaking**",
                Impact::Compatible => "compatible",
            };
            let _ = writeln!(out, "- {mark}: `{}` {}", c.subject, c.what);
        }
    }
    out
}

fn summary(changes: &[Change]) -> String {
    let breaking = changes
        .iter()
        .filter(|c| c.impact == Impact::Breaking)
        .count();
    if changes.is_empty() {
        "no changes".into()
    } else {
        format!(
            "{} changes, {breaking} breaking, {} compatible",
            changes.len(),
            changes.len() - breaking
        )
    }
}

fn sections(changes: &[Change]) -> BTreeMap<Section, Vec<&Change>> {
    let mut out: BTreeMap<Section, Vec<&Change>> = BTreeMap::new();
    for c in changes {
        out.entry(c.section).or_default().push(c);
    }
    out
}
