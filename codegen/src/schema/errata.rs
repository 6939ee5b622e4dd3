//! `schema/errata.toml`: known defects of the official schemas, corrected before loading.
//!
//! The official files are pinned byte for byte, so a defect cannot be fixed in them. Each
//! erratum says which revisions it applies to, where in which definition it changes the schema,
//! what it expects to find there (so an upstream fix or change makes generation fail loudly
//! instead of patching the wrong thing), and why: the spec text or the peer traffic that proves
//! the defect. A witness, an instance real peers send, lets the tests show that the erratum is
//! needed and applied.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::Value;

use super::SchemaError;
use crate::ir::Module;
use crate::pointer::{escape, unescape};
use crate::revisions::Dialect;

/// The whole errata list.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Errata {
    /// The errata, in the order they are applied.
    #[serde(rename = "erratum", default)]
    pub errata: Vec<Erratum>,
}

/// One known defect of the official schemas and its correction.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Erratum {
    /// A stable name (`elicit-number-answers`), quoted in the generated docs.
    pub id: String,
    /// One sentence: what the corrected schema says that the official one does not.
    pub summary: String,
    /// Why the official schema is wrong.
    pub why: String,
    /// Where that is shown: spec text, peer traffic.
    pub evidence: Vec<String>,
    /// The edits, each for some revisions.
    #[serde(rename = "change")]
    pub changes: Vec<Change>,
    /// Instances peers send that only the corrected schema describes.
    #[serde(rename = "witness", default)]
    pub witnesses: Vec<Witness>,
}

/// One edit of one definition.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
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
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
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
#[derive(Debug, thiserror::Error)]
pub enum ErrataError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The file is not valid TOML of the expected shape.
    #[error("{path}: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

impl Errata {
    /// Reads and parses `errata.toml`.
    pub fn load(path: &Path) -> Result<Self, ErrataError> {
        let text = std::fs::read_to_string(path).map_err(|source| ErrataError::Io {
            path: path.to_owned(),
            source,
        })?;
        Self::parse(&text).map_err(|message| ErrataError::Parse {
            path: path.to_owned(),
            message,
        })
    }

    /// Parses the text of `errata.toml`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let errata: Errata = toml::from_str(text).map_err(|e| e.to_string())?;
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
        let key = unescape(last);
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
