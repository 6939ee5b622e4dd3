//! The one shape of a file that could not be read or written, for every error of the crate
//! (`GenerateError`, `ErrataError`, `RevisionsError`, `FetchError`).

use std::fmt;
use std::path::PathBuf;

/// A file or folder that could not be read or written: which, and why. Its text is the path
/// and the system's reason (`schema/x.json: No such file or directory (os error 2)`).
#[derive(Debug)]
pub struct FileError {
    /// The file or folder.
    pub path: PathBuf,
    /// The cause.
    pub source: std::io::Error,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.source)
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}
