//! `schema/revisions.toml`: the pinned protocol revisions.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::file_error::FileError;
use crate::toml_table::{self, Fields};

/// The JSON Schema dialect a revision's schema is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// `http://json-schema.org/draft-07/schema#`: definitions under `definitions`.
    Draft07,
    /// `https://json-schema.org/draft/2020-12/schema`: definitions under `$defs`.
    Draft2020_12,
}

impl Dialect {
    /// The key under which the schema keeps its definitions.
    pub fn definitions_key(self) -> &'static str {
        match self {
            Dialect::Draft07 => "definitions",
            Dialect::Draft2020_12 => "$defs",
        }
    }

    /// The dialect as `revisions.toml` names it (`draft-07`, `2020-12`).
    fn from_name(name: &str) -> Option<Self> {
        match name {
            "draft-07" => Some(Dialect::Draft07),
            "2020-12" => Some(Dialect::Draft2020_12),
            _ => None,
        }
    }
}

/// Where the pinned schemas come from upstream.
#[derive(Debug, Clone)]
pub struct Upstream {
    /// `owner/name` of the upstream repository.
    pub repository: String,
    /// The commit every revision is pinned to.
    pub commit: String,
    /// Download URL template with `{repository}`, `{commit}` and `{revision}` placeholders.
    pub url: String,
    /// Download URL template of the other pinned files (`examples.sha256`), with `{repository}`,
    /// `{commit}` and `{path}` (the file's path relative to `schema/`) placeholders.
    pub files_url: String,
}

/// One pinned protocol revision.
#[derive(Debug, Clone)]
pub struct Revision {
    /// The revision's name as the spec spells it (`2025-11-25`, `draft`).
    pub name: String,
    /// The Rust module generated for it (`v2025_11_25`).
    pub module: String,
    /// The cargo feature of `mcp-typed` that enables the module.
    pub feature: String,
    /// The JSON Schema dialect of its schema.
    pub dialect: Dialect,
    /// The expected sha256 of `schema.json`, lower-case hex.
    pub sha256: String,
}

impl Upstream {
    fn read(table: &toml::Table) -> Result<Self, String> {
        let fields = Fields::new(
            table,
            "upstream",
            &["repository", "commit", "url", "files_url"],
        )?;
        let upstream = Upstream {
            repository: fields.string("repository")?,
            commit: fields.string("commit")?,
            url: fields.string("url")?,
            files_url: fields.string("files_url")?,
        };
        Ok(upstream)
    }
}

impl Revision {
    /// Reads the `number`th `[[revision]]` (from 1).
    fn read(table: &toml::Table, number: usize) -> Result<Self, String> {
        let fields = Fields::new(
            table,
            format!("revision {number}"),
            &["name", "module", "feature", "dialect", "sha256"],
        )?;
        let name = fields.string("name")?;
        let module = fields.string("module")?;
        let feature = fields.string("feature")?;
        let dialect_name = fields.string("dialect")?;
        let dialect = Dialect::from_name(&dialect_name).ok_or_else(|| {
            fields.error(format_args!(
                "unknown dialect `{dialect_name}`, expected `draft-07` or `2020-12`"
            ))
        })?;
        let sha256 = fields.string("sha256")?;
        if sha256.len() != 64 || !sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!("revision {name}: sha256 must be 64 hex digits"));
        }
        Ok(Revision {
            name,
            module,
            feature,
            dialect,
            sha256,
        })
    }
}

/// The whole `revisions.toml`.
#[derive(Debug, Clone)]
pub struct Revisions {
    /// Where the files come from.
    pub upstream: Upstream,
    /// The revisions (`[[revision]]`), oldest first.
    pub revisions: Vec<Revision>,
}

/// A problem reading `revisions.toml`.
#[derive(Debug)]
pub enum RevisionsError {
    /// The file could not be read.
    Io(FileError),
    /// The file is not valid TOML of the expected shape.
    Parse {
        /// The file.
        path: PathBuf,
        /// What the TOML parser said.
        message: String,
    },
    /// A revision name that is not pinned.
    Unknown(String),
}

impl fmt::Display for RevisionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io(error) => error.fmt(f),
            Self::Parse { path, message } => write!(f, "{}: {message}", path.display()),
            Self::Unknown(name) => {
                write!(f, "unknown revision `{name}` (see schema/revisions.toml)")
            }
        }
    }
}

impl std::error::Error for RevisionsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io(error) => error.source(),
            _ => None,
        }
    }
}

impl Revisions {
    /// Reads and parses `revisions.toml`.
    pub fn load(path: &Path) -> Result<Self, RevisionsError> {
        let text = std::fs::read_to_string(path).map_err(|source| {
            RevisionsError::Io(FileError {
                path: path.to_owned(),
                source,
            })
        })?;
        Self::parse(&text).map_err(|message| RevisionsError::Parse {
            path: path.to_owned(),
            message,
        })
    }

    /// Parses the text of `revisions.toml`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let root = toml_table::parse(text)?;
        let fields = Fields::new(&root, "", &["upstream", "revision"])?;
        let upstream = Upstream::read(fields.table("upstream")?)?;
        let revisions = fields
            .tables("revision")?
            .into_iter()
            .enumerate()
            .map(|(i, table)| Revision::read(table, i + 1))
            .collect::<Result<_, _>>()?;
        Ok(Revisions {
            upstream,
            revisions,
        })
    }

    /// The revision named `name`.
    pub fn get(&self, name: &str) -> Result<&Revision, RevisionsError> {
        self.revisions
            .iter()
            .find(|r| r.name == name)
            .ok_or_else(|| RevisionsError::Unknown(name.to_owned()))
    }

    /// The download URL of another pinned file, by its path relative to `schema/`.
    pub fn url_of_file(&self, path: &str) -> String {
        self.upstream
            .files_url
            .replace("{repository}", &self.upstream.repository)
            .replace("{commit}", &self.upstream.commit)
            .replace("{path}", path)
    }

    /// The download URL of a revision's schema.
    pub fn url_of(&self, revision: &Revision) -> String {
        self.upstream
            .url
            .replace("{repository}", &self.upstream.repository)
            .replace("{commit}", &self.upstream.commit)
            .replace("{revision}", &revision.name)
    }
}
