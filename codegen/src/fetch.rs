//! Fetching the pinned schema files into `schema/<revision>/schema.json`.
//!
//! Every file is checked against the sha256 pinned in `schema/revisions.toml` *before* it is
//! written, and written atomically (a temporary file in the destination directory, then a
//! rename), so a failed fetch never leaves a partial, wrong or temporary file behind and never
//! touches a file that is already there.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::file_error::FileError;
use crate::revisions::{Revision, Revisions};
use crate::toml_table::{self, Fields};

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
#[derive(Debug)]
pub enum FetchError {
    /// A local file or folder could not be read or written.
    Io(FileError),
    /// The download failed: connection error, non-200 status, oversized or unreadable body.
    Http {
        /// The URL requested.
        url: String,
        /// What went wrong.
        message: String,
    },
    /// The file's sha256 differs from the pin in `revisions.toml`; nothing was written.
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
    MissingInMirror {
        /// The file that was expected.
        path: PathBuf,
    },
    /// A pinned archive (already checked against its sha256) is not a gzip tar, or lacks the
    /// pinned file.
    Archive {
        /// The archive's URL.
        url: String,
        /// What went wrong.
        message: String,
    },
    /// The revision's name cannot be used as a single path component.
    InvalidRevisionName {
        /// The offending name.
        name: String,
    },
}

impl std::fmt::Display for FetchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Io(error) => error.fmt(f),
            Self::Http { url, message } => write!(f, "download of {url} failed: {message}"),
            Self::Sha256Mismatch {
                revision,
                expected,
                actual,
                origin,
            } => write!(
                f,
                "sha256 mismatch for revision {revision} from {origin}: expected {expected}, \
                 got {actual} (nothing written)"
            ),
            Self::MissingInMirror { path } => {
                write!(f, "{} does not exist in the schema mirror", path.display())
            }
            Self::Archive { url, message } => write!(f, "archive {url}: {message}"),
            Self::InvalidRevisionName { name } => {
                write!(f, "revision name `{name}` is not a valid folder name")
            }
        }
    }
}

impl std::error::Error for FetchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io(error) => error.source(),
            _ => None,
        }
    }
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

pub use crate::pipeline::sha256_hex;

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
        Err(source) => return Err(FetchError::Io(FileError { path: dest, source })),
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
        Err(source) => return Err(FetchError::Io(FileError { path, source })),
    };
    let mut bytes = Vec::new();
    if let Err(source) = file.take(MAX_SCHEMA_BYTES + 1).read_to_end(&mut bytes) {
        return Err(FetchError::Io(FileError { path, source }));
    }
    if bytes.len() as u64 > MAX_SCHEMA_BYTES {
        return Err(FetchError::Io(FileError {
            path,
            source: std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("file is larger than {MAX_SCHEMA_BYTES} bytes"),
            ),
        }));
    }
    let origin = path.display().to_string();
    Ok((bytes, origin))
}

/// GETs `url`, requiring status 200 and a body of at most [`MAX_SCHEMA_BYTES`].
fn download(url: &str) -> Result<Vec<u8>, FetchError> {
    download_limited(url, MAX_SCHEMA_BYTES)
}

/// GETs `url`, requiring status 200 and a body of at most `limit` bytes.
fn download_limited(url: &str, limit: u64) -> Result<Vec<u8>, FetchError> {
    let http_error = |message: String| FetchError::Http {
        url: url.to_owned(),
        message,
    };
    let mut config = ureq::Agent::config_builder();
    if let Some(roots) = roots_from_env() {
        config = config.tls_config(ureq::tls::TlsConfig::builder().root_certs(roots).build());
    }
    let agent: ureq::Agent = config
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
        .limit(limit)
        .read_to_vec()
        .map_err(|e| http_error(e.to_string()))
}

/// The certificates of the PEM bundle named by `$SSL_CERT_FILE` (what curl and OpenSSL
/// honour), if it is set and holds any: a machine behind a TLS-intercepting proxy trusts the
/// proxy's authority there, which the built-in Mozilla roots do not include. Without it, or if
/// it cannot be read, the built-in roots.
fn roots_from_env() -> Option<ureq::tls::RootCerts> {
    let path = std::env::var_os("SSL_CERT_FILE").filter(|p| !p.is_empty())?;
    let pem = std::fs::read(path).ok()?;
    let certs: Vec<_> = ureq::tls::parse_pem(&pem)
        .filter_map(|item| match item {
            Ok(ureq::tls::PemItem::Certificate(cert)) => Some(cert),
            _ => None,
        })
        .collect();
    (!certs.is_empty()).then(|| ureq::tls::RootCerts::new_with_certs(&certs))
}

/// Writes `bytes` to `dest` through a temporary file in the same folder and a rename. Creates
/// the folder if needed (and removes it again if it was created and the write fails).
fn write_atomically(dest: &Path, bytes: &[u8]) -> Result<(), FetchError> {
    let Some(dir) = dest.parent() else {
        return Err(FetchError::Io(FileError {
            path: dest.to_owned(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidInput, "no parent folder"),
        }));
    };
    let created_dir = !dir.is_dir();
    if created_dir {
        std::fs::create_dir_all(dir).map_err(|source| {
            FetchError::Io(FileError {
                path: dir.to_owned(),
                source,
            })
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
    let mut tmp = builder.tempfile_in(dir).map_err(|source| {
        FetchError::Io(FileError {
            path: dir.to_owned(),
            source,
        })
    })?;
    let io_error = |source| {
        FetchError::Io(FileError {
            path: dest.to_owned(),
            source,
        })
    };
    tmp.write_all(bytes).map_err(io_error)?;
    tmp.as_file().sync_all().map_err(io_error)?;
    tmp.persist(dest).map_err(|e| {
        FetchError::Io(FileError {
            path: dest.to_owned(),
            source: e.error,
        })
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
    let text = std::fs::read_to_string(path).map_err(|source| {
        FetchError::Io(FileError {
            path: path.to_owned(),
            source,
        })
    })?;
    let invalid = |line: usize, what: &str| {
        FetchError::Io(FileError {
            path: path.to_owned(),
            source: std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("line {line}: {what}"),
            ),
        })
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
        Err(source) => return Err(FetchError::Io(FileError { path: dest, source })),
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
        let entries = std::fs::read_dir(&folder).map_err(|source| {
            FetchError::Io(FileError {
                path: folder.clone(),
                source,
            })
        })?;
        for entry in entries {
            let path = entry
                .map_err(|source| {
                    FetchError::Io(FileError {
                        path: folder.clone(),
                        source,
                    })
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

/// The file of `schema/` that pins third-party schemas (an extension's, an SDK's), each a file
/// inside a registry archive (see [`ThirdPartyPins`]).
pub const THIRD_PARTY_MANIFEST: &str = "third-party.toml";

/// The folder, under `schema/` and under a mirror, of the third-party files:
/// `third-party/<name>/schema.json` and `third-party/<name>/examples/<file name>`.
pub const THIRD_PARTY_DIR: &str = "third-party";

/// The largest archive downloaded for a third-party pin (64 MiB).
pub const MAX_ARCHIVE_BYTES: u64 = 64 * 1024 * 1024;

/// `schema/third-party.toml`: the third-party schemas, each pinned as a file inside a registry
/// archive (an npm `.tgz`, a crates.io `.crate`: both gzip tar).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThirdPartyPins {
    /// The `[[schema]]` entries.
    pub schemas: Vec<ThirdPartySchema>,
}

/// One `[[schema]]` of [`ThirdPartyPins`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThirdPartySchema {
    /// Its folder name under `third-party/` (a single path component).
    pub name: String,
    /// The tool that wrote the schema (documentation only).
    pub producer: String,
    /// The registry and package (`npm:@scope/name`, `crates.io:name`; documentation only).
    pub package: String,
    /// The package's version (documentation only).
    pub version: String,
    /// Where the archive is downloaded from.
    pub url: String,
    /// The archive's sha256, checked before anything is read from it.
    pub archive_sha256: String,
    /// The schema's path inside the archive.
    pub path: String,
    /// The schema file's sha256.
    pub sha256: String,
    /// The producer's own example messages inside the same archive (`[[schema.example]]`).
    pub examples: Vec<ThirdPartyFile>,
}

/// A file inside a third-party archive, with its sha256.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThirdPartyFile {
    /// Its path inside the archive.
    pub path: String,
    /// Its sha256.
    pub sha256: String,
}

impl ThirdPartyPins {
    /// The file's shape: each table's fields, none missing, none unknown.
    fn read(text: &str) -> Result<Self, String> {
        let root = toml_table::parse(text)?;
        let fields = Fields::new(&root, "", &["schema"])?;
        let schemas = (fields.tables("schema")?.into_iter().enumerate())
            .map(|(i, table)| ThirdPartySchema::read(table, i + 1))
            .collect::<Result<_, _>>()?;
        Ok(Self { schemas })
    }
}

impl ThirdPartySchema {
    /// Reads the `number`th `[[schema]]` (from 1).
    fn read(table: &toml::Table, number: usize) -> Result<Self, String> {
        let fields = Fields::new(
            table,
            format!("schema {number}"),
            &[
                "name",
                "producer",
                "package",
                "version",
                "url",
                "archive_sha256",
                "path",
                "sha256",
                "example",
            ],
        )?;
        let mut schema = ThirdPartySchema {
            name: fields.string("name")?,
            producer: fields.string("producer")?,
            package: fields.string("package")?,
            version: fields.string("version")?,
            url: fields.string("url")?,
            archive_sha256: fields.string("archive_sha256")?,
            path: fields.string("path")?,
            sha256: fields.string("sha256")?,
            examples: Vec::new(),
        };
        for (i, example) in fields.tables("example")?.into_iter().enumerate() {
            let place = format!("schema `{}`, example {}", schema.name, i + 1);
            let fields = Fields::new(example, place, &["path", "sha256"])?;
            schema.examples.push(ThirdPartyFile {
                path: fields.string("path")?,
                sha256: fields.string("sha256")?,
            });
        }
        Ok(schema)
    }
}

/// Where [`fetch_third_party`] put a pin's verified files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThirdPartyFetched {
    /// `<schema_root>/third-party/<name>/schema.json`.
    pub schema: PathBuf,
    /// `<schema_root>/third-party/<name>/examples/<file name>`, in the order of the pin.
    pub examples: Vec<PathBuf>,
    /// Where the bytes of each file written came from (a mirror path or the archive's URL);
    /// empty when every file was already there with its sha256.
    pub origins: Vec<String>,
}

impl ThirdPartyPins {
    /// Reads and checks `third-party.toml`.
    pub fn load(path: &Path) -> Result<Self, FetchError> {
        let text = std::fs::read_to_string(path).map_err(|source| {
            FetchError::Io(FileError {
                path: path.to_owned(),
                source,
            })
        })?;
        Self::parse(&text).map_err(|message| {
            FetchError::Io(FileError {
                path: path.to_owned(),
                source: std::io::Error::new(std::io::ErrorKind::InvalidData, message),
            })
        })
    }

    /// Parses and checks the text of `third-party.toml`: names are single path components and
    /// unique, sha256s are 64 hex digits, example file names are unique within their schema.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut pins = Self::read(text)?;
        let is_sha = |s: &str| s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit());
        let mut names = Vec::new();
        for pin in &mut pins.schemas {
            let at = format!("schema `{}`", pin.name);
            check_name(&pin.name).map_err(|e| format!("{at}: {e}"))?;
            if names.contains(&pin.name) {
                return Err(format!("{at} appears twice"));
            }
            names.push(pin.name.clone());
            for sha in [&mut pin.archive_sha256, &mut pin.sha256] {
                if !is_sha(sha) {
                    return Err(format!("{at}: a sha256 must be 64 hex digits, not `{sha}`"));
                }
                *sha = sha.to_ascii_lowercase();
            }
            let mut files: Vec<String> = Vec::new();
            for example in &mut pin.examples {
                if !is_sha(&example.sha256) {
                    return Err(format!(
                        "{at}: example `{}`: the sha256 must be 64 hex digits",
                        example.path
                    ));
                }
                example.sha256 = example.sha256.to_ascii_lowercase();
                let file = file_name_of(&example.path).map_err(|e| format!("{at}: {e}"))?;
                if files.contains(&file) || file == SCHEMA_FILE {
                    return Err(format!("{at}: two examples are named `{file}`"));
                }
                files.push(file);
            }
        }
        Ok(pins)
    }

    /// The pin named `name`.
    pub fn get(&self, name: &str) -> Option<&ThirdPartySchema> {
        self.schemas.iter().find(|pin| pin.name == name)
    }
}

/// The last component of an archive path, refused unless it is an ordinary file name.
fn file_name_of(path: &str) -> Result<String, String> {
    let name = path.rsplit('/').next().unwrap_or_default();
    check_name(name).map_err(|_| format!("`{path}` does not end in a file name"))?;
    Ok(name.to_owned())
}

/// `<root>/third-party/<name>`: the cache (under `schema/`) or the mirror folder of a pin.
pub fn third_party_dir(root: &Path, name: &str) -> PathBuf {
    root.join(THIRD_PARTY_DIR).join(name)
}

/// Ensures the files of a third-party pin (its schema and its examples) are under
/// `<schema_root>/third-party/<name>/` with their pinned sha256s, and returns their paths.
///
/// A file already there with its sha256 is left alone (no network). A missing one is copied
/// from `<mirror>/third-party/<name>/…` when the mirror has it, else read from the pinned
/// archive: downloaded once from its URL, its sha256 checked, then the file extracted from the
/// gzip tar. Every file's sha256 is checked before it is written, and written atomically; a
/// mismatch, in the mirror or the archive, is refused without writing anything.
pub fn fetch_third_party(
    pin: &ThirdPartySchema,
    schema_root: &Path,
    mirror: Option<&Path>,
) -> Result<ThirdPartyFetched, FetchError> {
    check_name(&pin.name)?;
    let dest_dir = third_party_dir(schema_root, &pin.name);
    // (path inside the archive, sha256, path relative to `third-party/<name>/`)
    let mut wanted = vec![(
        pin.path.as_str(),
        pin.sha256.as_str(),
        SCHEMA_FILE.to_owned(),
    )];
    for example in &pin.examples {
        let file = file_name_of(&example.path).map_err(|_| FetchError::InvalidRevisionName {
            name: example.path.clone(),
        })?;
        wanted.push((&example.path, &example.sha256, format!("examples/{file}")));
    }

    let mut archive: Option<Vec<u8>> = None;
    let mut origins = Vec::new();
    for (inner, sha256, relative) in &wanted {
        let dest = dest_dir.join(relative);
        match std::fs::read(&dest) {
            Ok(bytes) if sha256_hex(&bytes) == *sha256 => continue,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => return Err(FetchError::Io(FileError { path: dest, source })),
        }
        let in_mirror = mirror
            .map(|dir| third_party_dir(dir, &pin.name).join(relative))
            .filter(|path| path.is_file());
        let (bytes, origin) = match in_mirror {
            Some(path) => read_limited(&path)?,
            None => {
                if archive.is_none() {
                    archive = Some(download_archive(pin)?);
                }
                let bytes = extract(archive.as_deref().unwrap_or_default(), inner, &pin.url)?;
                (bytes, format!("{}!{inner}", pin.url))
            }
        };
        let actual = sha256_hex(&bytes);
        if actual != *sha256 {
            return Err(FetchError::Sha256Mismatch {
                revision: format!("{}/{relative}", pin.name),
                expected: (*sha256).to_owned(),
                actual,
                origin,
            });
        }
        write_atomically(&dest, &bytes)?;
        origins.push(origin);
    }
    Ok(ThirdPartyFetched {
        schema: dest_dir.join(SCHEMA_FILE),
        examples: wanted[1..]
            .iter()
            .map(|(_, _, relative)| dest_dir.join(relative))
            .collect(),
        origins,
    })
}

/// Downloads a pin's archive and checks its sha256.
fn download_archive(pin: &ThirdPartySchema) -> Result<Vec<u8>, FetchError> {
    let bytes = download_limited(&pin.url, MAX_ARCHIVE_BYTES)?;
    let actual = sha256_hex(&bytes);
    if actual != pin.archive_sha256 {
        return Err(FetchError::Sha256Mismatch {
            revision: format!("{} (archive)", pin.name),
            expected: pin.archive_sha256.clone(),
            actual,
            origin: pin.url.clone(),
        });
    }
    Ok(bytes)
}

/// The bytes of the regular file at `inner` in a gzip tar archive (`origin` names it in
/// errors). The archive has been checked against its pin, so it is trusted as far as its size
/// goes; the file is still held to [`MAX_SCHEMA_BYTES`].
fn extract(archive: &[u8], inner: &str, origin: &str) -> Result<Vec<u8>, FetchError> {
    let bad = |message: String| FetchError::Archive {
        url: origin.to_owned(),
        message,
    };
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(archive));
    let entries = tar
        .entries()
        .map_err(|e| bad(format!("not a gzip tar archive: {e}")))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| bad(format!("reading the archive: {e}")))?;
        let path = entry
            .path()
            .map_err(|e| bad(format!("reading the archive: {e}")))?;
        if path != Path::new(inner) || !entry.header().entry_type().is_file() {
            continue;
        }
        if entry.size() > MAX_SCHEMA_BYTES {
            return Err(bad(format!(
                "{inner} is larger than {MAX_SCHEMA_BYTES} bytes"
            )));
        }
        let mut bytes = Vec::new();
        entry
            .read_to_end(&mut bytes)
            .map_err(|e| bad(format!("reading {inner}: {e}")))?;
        return Ok(bytes);
    }
    Err(bad(format!("the archive has no file {inner}")))
}
