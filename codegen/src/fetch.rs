//! Fetching the pinned schema files into `schema/<revision>/schema.json`.
//!
//! Every file is checked against the sha256 pinned in `schema/revisions.toml` *before* it is
//! written, and written atomically (a temporary file in the destination directory, then a
//! rename), so a failed fetch never leaves a partial, wrong or temporary file behind and never
//! touches a file that is already there.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use sha2::{Digest, Sha256};

use crate::revisions::{Revision, Revisions};

/// The environment variable naming a local mirror folder (same layout as `--from DIR`).
pub const MIRROR_ENV: &str = "MCP_SCHEMA_MIRROR";

/// The largest schema file accepted, from a mirror or a download (16 MiB).
pub const MAX_SCHEMA_BYTES: u64 = 16 * 1024 * 1024;

/// The file name of a revision's schema inside its folder.
const SCHEMA_FILE: &str = "schema.json";

/// Where schema files come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemaSource {
    /// A local folder laid out as `<dir>/<revision>/schema.json` (e.g. `../shared/mcp-schema`).
    Dir(PathBuf),
    /// Download from the pinned upstream URL ([`Revisions::url_of`]), or from `url_override` if
    /// given (a template with `{revision}` substituted; used by tests to point at a local HTTP
    /// server).
    Download {
        /// A URL template replacing the pinned upstream URL; `{revision}` is substituted.
        url_override: Option<String>,
    },
}

impl SchemaSource {
    /// `--from DIR` if given, else `$MCP_SCHEMA_MIRROR` if set and non-empty, else
    /// [`SchemaSource::Download`] from the pinned upstream URL.
    pub fn resolve(from: Option<PathBuf>) -> SchemaSource {
        if let Some(dir) = from {
            return SchemaSource::Dir(dir);
        }
        match std::env::var_os(MIRROR_ENV) {
            Some(dir) if !dir.is_empty() => SchemaSource::Dir(PathBuf::from(dir)),
            _ => SchemaSource::Download { url_override: None },
        }
    }
}

/// A problem fetching a schema file.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    /// A local file or folder could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// The download failed: connection error, non-200 status, oversized or unreadable body.
    #[error("download of {url} failed: {message}")]
    Http {
        /// The URL requested.
        url: String,
        /// What went wrong.
        message: String,
    },
    /// The file's sha256 differs from the pin in `revisions.toml`; nothing was written.
    #[error(
        "sha256 mismatch for revision {revision} from {origin}: expected {expected}, got {actual} \
         (nothing written)"
    )]
    Sha256Mismatch {
        /// The revision's name.
        revision: String,
        /// The pinned sha256.
        expected: String,
        /// The sha256 of the bytes received.
        actual: String,
        /// Where the bytes came from (a path or a URL).
        origin: String,
    },
    /// The mirror folder has no file for the revision.
    #[error("{} does not exist in the schema mirror", path.display())]
    MissingInMirror {
        /// The file that was expected.
        path: PathBuf,
    },
    /// The revision's name cannot be used as a single path component.
    #[error("revision name `{name}` is not a valid folder name")]
    InvalidRevisionName {
        /// The offending name.
        name: String,
    },
}

/// What [`fetch_revision`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FetchOutcome {
    /// The file was already present with the pinned sha256; nothing was done.
    UpToDate,
    /// The file was (re)written from the source.
    Fetched {
        /// Where the bytes came from (a path or a URL).
        origin: String,
    },
}

/// sha256 of `bytes`, lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The path of a revision's schema under `schema_root`: `<schema_root>/<rev.name>/schema.json`.
pub fn schema_path(schema_root: &Path, rev: &Revision) -> PathBuf {
    schema_root.join(&rev.name).join(SCHEMA_FILE)
}

/// Ensures `<schema_root>/<rev.name>/schema.json` exists with the pinned sha256.
///
/// If the file is already there with the right hash, does nothing and returns
/// [`FetchOutcome::UpToDate`]. Otherwise reads it from `source`, verifies the sha256 before
/// writing, and writes it atomically (a temporary file in the same folder, then a rename). A
/// present file with a wrong hash is replaced by a good one; on any error the existing file (if
/// any) is left untouched and no partial or temporary file is left behind.
pub fn fetch_revision(
    revisions: &Revisions,
    rev: &Revision,
    schema_root: &Path,
    source: &SchemaSource,
) -> Result<FetchOutcome, FetchError> {
    check_name(&rev.name)?;
    let dest = schema_path(schema_root, rev);
    match std::fs::read(&dest) {
        Ok(bytes) if sha256_hex(&bytes).eq_ignore_ascii_case(&rev.sha256) => {
            return Ok(FetchOutcome::UpToDate)
        }
        // Present but wrong: replaced below if the source has the right bytes.
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(source) => return Err(FetchError::Io { path: dest, source }),
    }

    let (bytes, origin) = match source {
        SchemaSource::Dir(dir) => read_mirror(dir, rev)?,
        SchemaSource::Download { url_override } => {
            let url = match url_override {
                Some(template) => template.replace("{revision}", &rev.name),
                None => revisions.url_of(rev),
            };
            let bytes = download(&url)?;
            (bytes, url)
        }
    };

    let actual = sha256_hex(&bytes);
    if !actual.eq_ignore_ascii_case(&rev.sha256) {
        return Err(FetchError::Sha256Mismatch {
            revision: rev.name.clone(),
            expected: rev.sha256.clone(),
            actual,
            origin,
        });
    }

    write_atomically(&dest, &bytes)?;
    Ok(FetchOutcome::Fetched { origin })
}

/// Ensures a pinned schema is present (fetching it from `source` if needed, see
/// [`fetch_revision`]) and returns the path of the verified file.
pub fn ensure(
    revisions: &Revisions,
    rev: &Revision,
    schema_root: &Path,
    source: &SchemaSource,
) -> Result<PathBuf, FetchError> {
    fetch_revision(revisions, rev, schema_root, source)?;
    Ok(schema_path(schema_root, rev))
}

/// Refuses names that are not a single, ordinary path component (`..`, `a/b`, empty, …).
fn check_name(name: &str) -> Result<(), FetchError> {
    let ok = !name.is_empty()
        && name != "."
        && name != ".."
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if ok {
        Ok(())
    } else {
        Err(FetchError::InvalidRevisionName {
            name: name.to_owned(),
        })
    }
}

/// Reads `<dir>/<rev.name>/schema.json`, refusing files over [`MAX_SCHEMA_BYTES`].
fn read_mirror(dir: &Path, rev: &Revision) -> Result<(Vec<u8>, String), FetchError> {
    read_limited(&schema_path(dir, rev))
}

/// Reads a file of a mirror, refusing files over [`MAX_SCHEMA_BYTES`].
fn read_limited(path: &Path) -> Result<(Vec<u8>, String), FetchError> {
    let path = path.to_owned();
    let file = match std::fs::File::open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(FetchError::MissingInMirror { path })
        }
        Err(source) => return Err(FetchError::Io { path, source }),
    };
    let mut bytes = Vec::new();
    if let Err(source) = file.take(MAX_SCHEMA_BYTES + 1).read_to_end(&mut bytes) {
        return Err(FetchError::Io { path, source });
    }
    if bytes.len() as u64 > MAX_SCHEMA_BYTES {
        return Err(FetchError::Io {
            path,
            source: std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("file is larger than {MAX_SCHEMA_BYTES} bytes"),
            ),
        });
    }
    let origin = path.display().to_string();
    Ok((bytes, origin))
}

/// GETs `url`, requiring status 200 and a body of at most [`MAX_SCHEMA_BYTES`].
fn download(url: &str) -> Result<Vec<u8>, FetchError> {
    let http_error = |message: String| FetchError::Http {
        url: url.to_owned(),
        message,
    };
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_connect(Some(Duration::from_secs(30)))
        .timeout_global(Some(Duration::from_secs(300)))
        .build()
        .into();
    let mut response = agent
        .get(url)
        .call()
        .map_err(|e| http_error(e.to_string()))?;
    let status = response.status();
    if status != ureq::http::StatusCode::OK {
        return Err(http_error(format!("HTTP status {status}")));
    }
    response
        .body_mut()
        .with_config()
        .limit(MAX_SCHEMA_BYTES)
        .read_to_vec()
        .map_err(|e| http_error(e.to_string()))
}

/// Writes `bytes` to `dest` through a temporary file in the same folder and a rename. Creates
/// the folder if needed (and removes it again if it was created and the write fails).
fn write_atomically(dest: &Path, bytes: &[u8]) -> Result<(), FetchError> {
    let Some(dir) = dest.parent() else {
        return Err(FetchError::Io {
            path: dest.to_owned(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidInput, "no parent folder"),
        });
    };
    let created_dir = !dir.is_dir();
    if created_dir {
        std::fs::create_dir_all(dir).map_err(|source| FetchError::Io {
            path: dir.to_owned(),
            source,
        })?;
    }
    let result = write_temp_then_rename(dir, dest, bytes);
    if result.is_err() && created_dir {
        // Only removes the folder if it is empty; failure to clean up is not worth reporting.
        let _ = std::fs::remove_dir(dir);
    }
    result
}

/// The temporary file is deleted when dropped, so every early return cleans up after itself.
fn write_temp_then_rename(dir: &Path, dest: &Path, bytes: &[u8]) -> Result<(), FetchError> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(".schema.json.").suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o644));
    }
    let mut tmp = builder.tempfile_in(dir).map_err(|source| FetchError::Io {
        path: dir.to_owned(),
        source,
    })?;
    let io_error = |source| FetchError::Io {
        path: dest.to_owned(),
        source,
    };
    tmp.write_all(bytes).map_err(io_error)?;
    tmp.as_file().sync_all().map_err(io_error)?;
    tmp.persist(dest).map_err(|e| FetchError::Io {
        path: dest.to_owned(),
        source: e.error,
    })?;
    Ok(())
}

/// The file of `schema/` that pins the official examples: `sha256sum` lines
/// (`<sha256>  <path relative to schema/>`), `#` comments.
pub const EXAMPLES_MANIFEST: &str = "examples.sha256";

/// A pinned file other than a schema: an official example.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PinnedFile {
    /// Its path relative to `schema/` (`2026-07-28/examples/Tool/basic.json`).
    pub path: String,
    /// Its sha256, lower-case hex.
    pub sha256: String,
}

/// Reads a manifest of pinned files (see [`EXAMPLES_MANIFEST`]).
pub fn read_manifest(path: &Path) -> Result<Vec<PinnedFile>, FetchError> {
    let text = std::fs::read_to_string(path).map_err(|source| FetchError::Io {
        path: path.to_owned(),
        source,
    })?;
    let invalid = |line: usize, what: &str| FetchError::Io {
        path: path.to_owned(),
        source: std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("line {line}: {what}"),
        ),
    };
    let mut files = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((sha256, file)) = line.split_once("  ") else {
            return Err(invalid(index + 1, "expected `<sha256>  <path>`"));
        };
        if sha256.len() != 64 || !sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(invalid(index + 1, "the sha256 must be 64 hex digits"));
        }
        // Each component an ordinary name: nothing is written outside `schema/`.
        if file.split('/').any(|part| check_name(part).is_err()) {
            return Err(invalid(
                index + 1,
                "the path must be relative, without `.` or `..`",
            ));
        }
        files.push(PinnedFile {
            path: file.to_owned(),
            sha256: sha256.to_ascii_lowercase(),
        });
    }
    Ok(files)
}

/// Ensures `<schema_root>/<file.path>` exists with the pinned sha256, from `source` (a mirror
/// folder with the same layout, or the upstream commit) like [`fetch_revision`]: verified before
/// it is written, written atomically, an existing good file untouched.
pub fn fetch_file(
    revisions: &Revisions,
    file: &PinnedFile,
    schema_root: &Path,
    source: &SchemaSource,
) -> Result<FetchOutcome, FetchError> {
    let dest = schema_root.join(&file.path);
    match std::fs::read(&dest) {
        Ok(bytes) if sha256_hex(&bytes) == file.sha256 => return Ok(FetchOutcome::UpToDate),
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(source) => return Err(FetchError::Io { path: dest, source }),
    }
    let (bytes, origin) = match source {
        SchemaSource::Dir(dir) => read_limited(&dir.join(&file.path))?,
        SchemaSource::Download { url_override } => {
            let url = match url_override {
                Some(template) => template.replace("{revision}", &file.path),
                None => revisions.url_of_file(&file.path),
            };
            let bytes = download(&url)?;
            (bytes, url)
        }
    };
    let actual = sha256_hex(&bytes);
    if actual != file.sha256 {
        return Err(FetchError::Sha256Mismatch {
            revision: file.path.clone(),
            expected: file.sha256.clone(),
            actual,
            origin,
        });
    }
    write_atomically(&dest, &bytes)?;
    Ok(FetchOutcome::Fetched { origin })
}

/// The manifest lines of every `*.json` file under `<dir>/<revision>/examples/`, sorted by path:
/// what `mcp-codegen pin-examples` writes after a pin bump.
pub fn manifest_of(dir: &Path, revision: &str) -> Result<String, FetchError> {
    let root = dir.join(revision).join("examples");
    let mut paths = Vec::new();
    let mut pending = vec![root.clone()];
    while let Some(folder) = pending.pop() {
        let entries = std::fs::read_dir(&folder).map_err(|source| FetchError::Io {
            path: folder.clone(),
            source,
        })?;
        for entry in entries {
            let path = entry
                .map_err(|source| FetchError::Io {
                    path: folder.clone(),
                    source,
                })?
                .path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                paths.push(path);
            }
        }
    }
    paths.sort();
    let mut out = String::new();
    for path in paths {
        let (bytes, _) = read_limited(&path)?;
        let relative = path.strip_prefix(dir).expect("under dir");
        let relative = relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        out.push_str(&format!("{}  {relative}\n", sha256_hex(&bytes)));
    }
    Ok(out)
}
