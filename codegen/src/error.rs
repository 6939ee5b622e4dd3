//! What can stop a generation, for every entry point of the library.

use std::path::PathBuf;

use crate::file_error::FileError;
use crate::schema::errata::ErrataError;
use crate::schema_error::SchemaError;

/// Everything that can stop a generation.
#[derive(Debug)]
pub enum GenerateError {
    /// Reading or writing a file failed.
    Io(FileError),
    /// The schema file is not JSON.
    Json {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: serde_json::Error,
    },
    /// The schema uses something the generator cannot turn into Rust.
    Schema {
        /// The file.
        path: PathBuf,
        /// What and where.
        source: SchemaError,
    },
    /// The errata file could not be read.
    Errata(ErrataError),
    /// A required setting was not given.
    Config(String),
}

impl std::fmt::Display for GenerateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Io(error) => error.fmt(f),
            Self::Json { path, source } => {
                write!(f, "{}: not valid JSON: {source}", path.display())
            }
            Self::Schema { path, source } => write!(f, "{}#{source}", path.display()),
            Self::Errata(error) => error.fmt(f),
            Self::Config(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for GenerateError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io(error) => error.source(),
            Self::Json { source, .. } => Some(source),
            Self::Schema { source, .. } => Some(source),
            // Transparent, as thiserror writes it: the errata error's own source.
            Self::Errata(error) => error.source(),
            Self::Config(_) => None,
        }
    }
}

impl From<ErrataError> for GenerateError {
    fn from(error: ErrataError) -> Self {
        Self::Errata(error)
    }
}
