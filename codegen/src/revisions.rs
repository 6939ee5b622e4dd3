//! `schema/revisions.toml`: the pinned protocol revisions.

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The JSON Schema dialect a revision's schema is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum Dialect {
    /// `http://json-schema.org/draft-07/schema#`: definitions under `definitions`.
    #[serde(rename = "draft-07")]
    Draft07,
    /// `https://json-schema.org/draft/2020-12/schema`: definitions under `$defs`.
    #[serde(rename = "2020-12")]
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
}

/// Where the pinned schemas come from upstream.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
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
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
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

/// The whole `revisions.toml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Revisions {
    /// Where the files come from.
    pub upstream: Upstream,
    /// The revisions, oldest first.
    #[serde(rename = "revision")]
    pub revisions: Vec<Revision>,
}

/// A problem reading `revisions.toml`.
#[derive(Debug, thiserror::Error)]
pub enum RevisionsError {
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
        /// What the TOML parser said.
        message: String,
    },
    /// A revision name that is not pinned.
    #[error("unknown revision `{0}` (see schema/revisions.toml)")]
    Unknown(String),
}

impl Revisions {
    /// Reads and parses `revisions.toml`.
    pub fn load(path: &Path) -> Result<Self, RevisionsError> {
        let text = std::fs::read_to_string(path).map_err(|source| RevisionsError::Io {
            path: path.to_owned(),
            source,
        })?;
        Self::parse(&text).map_err(|message| RevisionsError::Parse {
            path: path.to_owned(),
            message,
        })
    }

    /// Parses the text of `revisions.toml`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let revisions: Revisions = toml::from_str(text).map_err(|e| e.to_string())?;
        for rev in &revisions.revisions {
            if rev.sha256.len() != 64 || !rev.sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(format!(
                    "revision {}: sha256 must be 64 hex digits",
                    rev.name
                ));
            }
        }
        Ok(revisions)
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
