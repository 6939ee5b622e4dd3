//! `schema/errata.toml`: known defects of the official schemas, corrected before loading.
//!
//! The official files are pinned byte for byte, so a defect cannot be fixed in them. Each
//! erratum says which revisions it applies to, where in which definition it changes the schema,
//! what it expects to find there (so an upstream fix or change makes generation fail loudly
//! instead of patching the wrong thing), and why: the spec text or the peer traffic that proves
//! the defect. A witness, an instance real peers send, lets the tests show that the erratum is
//! needed and applied.

use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::SchemaError;
use crate::file_error::FileError;
use crate::ir::Module;
use crate::revisions::Dialect;
use crate::toml_table::{self, Fields};
use mcp_typed_json::pointer::{escape, unescape};

/// The whole errata list.
#[derive(Debug, Clone, Default)]
pub struct Errata {
    /// The errata (`[[erratum]]`), in the order they are applied.
    pub errata: Vec<Erratum>,
}

/// One known defect of the official schemas and its correction.
#[derive(Debug, Clone, PartialEq)]
pub struct Erratum {
    /// A stable name (`elicit-number-answers`), quoted in the generated docs.
    pub id: String,
    /// One sentence: what the corrected schema says that the official one does not.
    pub summary: String,
    /// Why the official schema is wrong.
    pub why: String,
    /// Where that is shown: spec text, peer traffic.
    pub evidence: Vec<String>,
    /// The edits (`[[erratum.change]]`), each for some revisions.
    pub changes: Vec<Change>,
    /// Instances peers send that only the corrected schema describes (`[[erratum.witness]]`).
    pub witnesses: Vec<Witness>,
}

/// One edit of one definition.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// The revisions whose schema gets this edit.
    pub revisions: Vec<String>,
    /// The definition edited (`ElicitResult`).
    pub definition: String,
    /// JSON pointer inside the definition (`/properties/content/additionalProperties/type`).
    pub path: String,
    /// What the official schema has there. Absent: the member must not exist yet, and is added.
    pub expect: Option<Value>,
    /// What the corrected schema has there.
    pub value: Value,
}

/// An instance of a definition, as a real peer sent it.
#[derive(Debug, Clone, PartialEq)]
pub struct Witness {
    /// The revisions it is a witness for.
    pub revisions: Vec<String>,
    /// The definition it is an instance of.
    pub definition: String,
    /// The instance, as JSON text.
    pub json: String,
    /// Whether the official definition refuses it (`false`: it accepts the instance but does not
    /// declare the member the erratum adds, so the member would be untyped).
    pub official_refuses: bool,
}

/// A problem reading `errata.toml`.
#[derive(Debug)]
pub enum ErrataError {
    /// The file could not be read.
    Io(FileError),
    /// The file is not valid TOML of the expected shape.
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

impl fmt::Display for ErrataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io(error) => error.fmt(f),
            Self::Parse { path, message } => write!(f, "{}: {message}", path.display()),
        }
    }
}

impl std::error::Error for ErrataError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io(error) => error.source(),
            Self::Parse { .. } => None,
        }
    }
}

impl Erratum {
    /// Reads the `number`th `[[erratum]]` (from 1).
    fn read(table: &toml::Table, number: usize) -> Result<Self, String> {
        let fields = Fields::new(
            table,
            format!("erratum {number}"),
            &["id", "summary", "why", "evidence", "change", "witness"],
        )?;
        let id = fields.string("id")?;
        let summary = fields.string("summary")?;
        let why = fields.string("why")?;
        let evidence = fields.strings("evidence")?;
        let changes = fields.tables("change")?;
        let witnesses = fields.tables("witness")?;
        let place = |kind: &str, i: usize| format!("erratum `{id}`, {kind} {}", i + 1);
        let changes = (changes.iter().enumerate())
            .map(|(i, table)| Change::read(table, place("change", i)))
            .collect::<Result<_, _>>()?;
        let witnesses = (witnesses.iter().enumerate())
            .map(|(i, table)| Witness::read(table, place("witness", i)))
            .collect::<Result<_, _>>()?;
        Ok(Erratum {
            id,
            summary,
            why,
            evidence,
            changes,
            witnesses,
        })
    }
}

impl Change {
    fn read(table: &toml::Table, place: String) -> Result<Self, String> {
        let fields = Fields::new(
            table,
            place,
            &["revisions", "definition", "path", "expect", "value"],
        )?;
        let change = Change {
            revisions: fields.strings("revisions")?,
            definition: fields.string("definition")?,
            path: fields.string("path")?,
            expect: fields.json("expect")?,
            value: (fields.json("value")?).ok_or_else(|| fields.error("missing field `value`"))?,
        };
        Ok(change)
    }
}

impl Witness {
    fn read(table: &toml::Table, place: String) -> Result<Self, String> {
        let fields = Fields::new(
            table,
            place,
            &["revisions", "definition", "json", "official_refuses"],
        )?;
        let witness = Witness {
            revisions: fields.strings("revisions")?,
            definition: fields.string("definition")?,
            json: fields.string("json")?,
            official_refuses: fields.boolean("official_refuses")?,
        };
        Ok(witness)
    }
}

impl Errata {
    /// Reads and parses `errata.toml`.
    pub fn load(path: &Path) -> Result<Self, ErrataError> {
        let text = std::fs::read_to_string(path).map_err(|source| {
            ErrataError::Io(FileError {
                path: path.to_owned(),
                source,
            })
        })?;
        Self::parse(&text).map_err(|message| ErrataError::Parse {
            path: path.to_owned(),
            message,
        })
    }

    /// Parses the text of `errata.toml`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let root = toml_table::parse(text)?;
        let fields = Fields::new(&root, "", &["erratum"])?;
        let errata = Errata {
            errata: (fields.tables("erratum")?.into_iter().enumerate())
                .map(|(i, table)| Erratum::read(table, i + 1))
                .collect::<Result<_, _>>()?,
        };
        for (i, erratum) in errata.errata.iter().enumerate() {
            if errata.errata[..i].iter().any(|e| e.id == erratum.id) {
                return Err(format!("erratum `{}` is listed twice", erratum.id));
            }
            if erratum.changes.is_empty() {
                return Err(format!("erratum `{}` has no change", erratum.id));
            }
            if erratum.witnesses.is_empty() {
                return Err(format!(
                    "erratum `{}` has no witness: show an instance a peer sends",
                    erratum.id
                ));
            }
            for change in &erratum.changes {
                if !change.path.starts_with('/') {
                    return Err(format!(
                        "erratum `{}`: path `{}` must be a JSON pointer starting with `/`",
                        erratum.id, change.path
                    ));
                }
            }
        }
        Ok(errata)
    }

    /// The changes that apply to `revision`, with their errata, in order.
    pub fn for_revision<'a>(&'a self, revision: &str) -> Vec<(&'a Erratum, &'a Change)> {
        self.errata
            .iter()
            .flat_map(|e| e.changes.iter().map(move |c| (e, c)))
            .filter(|(_, c)| c.revisions.iter().any(|r| r == revision))
            .collect()
    }
}

/// Applies `changes` to a schema root, checking each one's expectation. The error's pointer is
/// the place in the official schema that does not look as the erratum expects.
pub fn apply(
    root: &mut Value,
    dialect: Dialect,
    changes: &[(&Erratum, &Change)],
) -> Result<(), SchemaError> {
    for (erratum, change) in changes {
        let at = absolute(dialect, change);
        let fail = |message: String| SchemaError {
            pointer: at.clone(),
            message: format!("erratum `{}`: {message}", erratum.id),
        };
        let (parent_at, last) = at.rsplit_once('/').expect("an absolute pointer has a `/`");
        let key = unescape(last).into_owned();
        let Some(parent) = root.pointer_mut(parent_at) else {
            return Err(fail(format!("no `{parent_at}` in the official schema")));
        };
        let slot = match parent {
            Value::Object(members) => members.get_mut(&key),
            Value::Array(items) => key.parse::<usize>().ok().and_then(|i| items.get_mut(i)),
            _ => {
                return Err(fail(format!(
                    "`{parent_at}` is neither an object nor an array"
                )))
            }
        };
        match (slot, &change.expect) {
            (Some(found), Some(expected)) if found == expected => *found = change.value.clone(),
            (Some(found), Some(expected)) => {
                return Err(fail(format!(
                    "expected {expected}, found {found}: the official schema changed, review the erratum"
                )))
            }
            (Some(found), None) => {
                return Err(fail(format!(
                    "expected no member here, found {found}: the official schema changed, review the erratum"
                )))
            }
            (None, Some(expected)) => {
                return Err(fail(format!("expected {expected}, found nothing")))
            }
            (None, None) => match parent {
                Value::Object(members) => {
                    members.insert(key, change.value.clone());
                }
                _ => return Err(fail("only object members can be added".into())),
            },
        }
    }
    Ok(())
}

/// Says in the rustdoc of each type a change touched (its definition, and the inline types on
/// the way to the changed place) which erratum changed it.
pub fn annotate(module: &mut Module, dialect: Dialect, changes: &[(&Erratum, &Change)]) {
    for (erratum, change) in changes {
        let at = absolute(dialect, change);
        let note = format!(
            "**Erratum** `{}` (schema/errata.toml): {}",
            erratum.id, erratum.summary
        );
        for ty in &mut module.types {
            let on_the_way = at == ty.pointer
                || at
                    .strip_prefix(ty.pointer.as_str())
                    .is_some_and(|rest| rest.starts_with('/'));
            if !on_the_way {
                continue;
            }
            if !ty.errata.contains(&note) {
                ty.errata.push(note.clone());
            }
        }
    }
}

/// The change's place as a pointer from the schema root.
fn absolute(dialect: Dialect, change: &Change) -> String {
    format!(
        "/{}/{}{}",
        dialect.definitions_key(),
        escape(&change.definition),
        change.path
    )
}
