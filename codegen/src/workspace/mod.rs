//! This repository's layout: pinned schemas in `schema/`, generated modules in
//! `generated/src/gen/`. Used by the CLI and by the freshness test.

mod fingerprints;

use std::path::{Path, PathBuf};

use self::fingerprints::Fingerprints;
use crate::config::{write_if_changed, Config};
use crate::error::GenerateError;
use crate::fetch::{self, FetchError, SchemaSource};
use crate::pipeline::{self, Generated, Prepared, Reexport, Source};
use crate::revisions::{Revision, Revisions, RevisionsError};
use crate::schema::errata::{Errata, ErrataError};

/// The cargo feature of `mcp-typed` that enables the hidden test lookup.
pub const REGISTRY_FEATURE: &str = "registry";
/// The feature of `mcp-typed` behind which the checked-in modules have their verdict path.
pub const VERDICT_FEATURE: &str = "verdict";

/// The cargo feature of `mcp-typed` that compiles the borrowed family (`mod borrowed`).
pub const BORROWED_FEATURE: &str = "borrowed";

/// The cargo feature of `mcp-typed` that implements `schemars::JsonSchema` for its types.
pub const SCHEMARS_FEATURE: &str = "schemars";

/// The command that regenerates the checked-in modules, named in their headers.
const REGENERATE: &str = "cargo run --bin mcp-codegen -- generate";

/// A checkout of this repository.
#[derive(Debug, Clone)]
pub struct Workspace {
    /// The repository root (the folder with `schema/revisions.toml`).
    pub root: PathBuf,
    /// The pinned revisions.
    pub revisions: Revisions,
    /// The corrections of the official schemas (`schema/errata.toml`).
    pub errata: Errata,
}

/// Anything that can go wrong in a workspace operation.
#[derive(Debug)]
pub enum WorkspaceError {
    /// `revisions.toml` could not be read.
    Revisions(RevisionsError),
    /// `errata.toml` could not be read.
    Errata(ErrataError),
    /// A schema could not be fetched.
    Fetch(FetchError),
    /// Generation failed.
    Generate(GenerateError),
    /// No repository root was found.
    NoRoot(PathBuf),
}

impl std::fmt::Display for WorkspaceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Revisions(error) => error.fmt(f),
            Self::Errata(error) => error.fmt(f),
            Self::Fetch(error) => error.fmt(f),
            Self::Generate(error) => error.fmt(f),
            Self::NoRoot(folder) => write!(
                f,
                "cannot find schema/revisions.toml above {}",
                folder.display()
            ),
        }
    }
}

impl std::error::Error for WorkspaceError {
    /// Transparent: each wrapped error's own source.
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Revisions(error) => error.source(),
            Self::Errata(error) => error.source(),
            Self::Fetch(error) => error.source(),
            Self::Generate(error) => error.source(),
            Self::NoRoot(_) => None,
        }
    }
}

macro_rules! wrap {
    ($($variant:ident($error:ty)),*) => {$(
        impl From<$error> for WorkspaceError {
            fn from(error: $error) -> Self {
                Self::$variant(error)
            }
        }
    )*};
}
wrap!(
    Revisions(RevisionsError),
    Errata(ErrataError),
    Fetch(FetchError),
    Generate(GenerateError)
);

/// One generated file and its expected content.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The revision (empty for `FINGERPRINTS`, which holds every revision's files).
    pub revision: String,
    /// Where it lives.
    pub path: PathBuf,
    /// What it must contain.
    pub text: String,
}

impl Workspace {
    /// Opens the repository at `root`.
    pub fn open(root: impl Into<PathBuf>) -> Result<Self, WorkspaceError> {
        let root = root.into();
        let revisions = Revisions::load(&root.join("schema/revisions.toml"))?;
        // A repository without errata (a scratch copy of the pins) generates from the
        // official schemas as they are.
        let errata_path = root.join("schema/errata.toml");
        let errata = if errata_path.exists() {
            Errata::load(&errata_path)?
        } else {
            Errata::default()
        };
        Ok(Self {
            root,
            revisions,
            errata,
        })
    }

    /// Finds the repository root at or above `start`.
    pub fn discover(start: &Path) -> Result<Self, WorkspaceError> {
        let mut dir = Some(start);
        while let Some(d) = dir {
            if d.join("schema/revisions.toml").is_file() {
                return Self::open(d);
            }
            dir = d.parent();
        }
        Err(WorkspaceError::NoRoot(start.to_owned()))
    }

    /// The folder holding `<revision>/schema.json`.
    pub fn schema_root(&self) -> PathBuf {
        self.root.join("schema")
    }

    /// The checked-in generated file of a revision (its module; the borrowed family is in a
    /// file of its own beside it, see [`Self::render_all`]).
    pub fn generated_path(&self, revision: &Revision) -> PathBuf {
        self.generated_dir().join(format!("{}.rs", revision.module))
    }

    /// The folder of the checked-in generated files.
    fn generated_dir(&self) -> PathBuf {
        self.root.join("generated/src/gen")
    }

    /// The revisions named, or all of them.
    pub fn select(&self, names: &[String]) -> Result<Vec<&Revision>, WorkspaceError> {
        if names.is_empty() {
            return Ok(self.revisions.revisions.iter().collect());
        }
        Ok(names
            .iter()
            .map(|n| self.revisions.get(n))
            .collect::<Result<_, _>>()?)
    }

    /// Makes sure a revision's schema is present and matches its pin.
    pub fn fetch(
        &self,
        revision: &Revision,
        source: &SchemaSource,
    ) -> Result<PathBuf, WorkspaceError> {
        Ok(fetch::ensure(
            &self.revisions,
            revision,
            &self.schema_root(),
            source,
        )?)
    }

    /// The official examples pinned by `schema/examples.sha256`.
    pub fn pinned_examples(&self) -> Result<Vec<fetch::PinnedFile>, WorkspaceError> {
        Ok(fetch::read_manifest(
            &self.schema_root().join(fetch::EXAMPLES_MANIFEST),
        )?)
    }

    /// Makes sure every pinned file is present and matches its pin: each revision's schema and
    /// every official example. Returns the folder holding them (`schema/`), laid out as a
    /// mirror: `<revision>/schema.json`, `<revision>/examples/<Definition>/<name>.json`.
    pub fn fetch_all(&self, source: &SchemaSource) -> Result<PathBuf, WorkspaceError> {
        for revision in &self.revisions.revisions {
            self.fetch(revision, source)?;
        }
        for file in self.pinned_examples()? {
            fetch::fetch_file(&self.revisions, &file, &self.schema_root(), source)?;
        }
        Ok(self.schema_root())
    }

    /// Generates a revision's files in memory: its module first, then the file of its
    /// borrowed family, if it has one.
    pub fn render(
        &self,
        revision: &Revision,
        source: &SchemaSource,
    ) -> Result<Vec<Rendered>, WorkspaceError> {
        self.render_all(&[revision], source)
    }

    /// Generates several revisions' files in memory, in parallel: each revision's module, and
    /// the file of its borrowed family (`<module>/borrowed.rs`, declared by the module under the
    /// feature `borrowed`) right after it; last, `FINGERPRINTS` with these files' entries
    /// updated and the others' kept. A revision whose schema is an earlier one's
    /// ([`same_schema_as`](Self::same_schema_as)) re-exports that one's module, whose body is
    /// rendered once, and has no borrowed file of its own.
    pub fn render_all(
        &self,
        revisions: &[&Revision],
        source: &SchemaSource,
    ) -> Result<Vec<Rendered>, WorkspaceError> {
        let config = self.config();
        let (sources, inputs) = self.sources(revisions, source)?;
        let input = |name: &str| {
            inputs
                .iter()
                .find(|i| i.revision.name == name)
                .expect("every revision and source was read")
        };
        // Each source once.
        let distinct: Vec<&Input<'_>> = inputs
            .iter()
            .filter(|i| sources.iter().any(|s| s.name == i.revision.name))
            .collect();
        let generated = Self::generate_in_parallel(&config, &distinct)?;
        let mut files = Vec::new();
        let mut fingerprints = Fingerprints::read(&self.fingerprints_path());
        for (revision, from) in revisions.iter().zip(&sources) {
            let (_, own) = generated
                .iter()
                .find(|(name, _)| *name == from.name)
                .expect("every source revision was generated");
            let rendered = |path, text| Rendered {
                revision: revision.name.clone(),
                path,
                text,
            };
            let module_file = format!("{}.rs", revision.module);
            if from.name != revision.name {
                let source = input(&revision.name).source();
                let same_as = (from.name.as_str(), from.module.as_str());
                let reexport = Reexport::new(&config.errata, &config.settings, source, same_as);
                let text = reexport.text(&own.items)?;
                let fingerprint = reexport.fingerprint(&own.fingerprint);
                fingerprints.record(&module_file, &fingerprint, &text);
                files.push(rendered(self.generated_path(revision), text));
                continue;
            }
            fingerprints.record(&module_file, &own.fingerprint, &own.text);
            files.push(rendered(self.generated_path(revision), own.text.clone()));
            if let Some(text) = &own.borrowed {
                let file = Self::borrowed_relative_path(revision);
                fingerprints.record(&file, &own.fingerprint, text);
                files.push(rendered(self.generated_dir().join(file), text.clone()));
            }
        }
        let generated_files = self.generated_files();
        fingerprints.retain(|file| generated_files.iter().any(|f| f == file));
        files.push(Rendered {
            revision: String::new(),
            path: self.fingerprints_path(),
            text: fingerprints.text(),
        });
        Ok(files)
    }

    /// Whether the files of `revisions` are what generating them again would write, judged by
    /// their fingerprints (`generated/src/gen/FINGERPRINTS`) without
    /// printing them: `false` when any file's fingerprint or text differs from the recorded
    /// ones, or is not recorded (then [`render_all`](Self::render_all) and compare).
    pub fn fingerprints_match(
        &self,
        revisions: &[&Revision],
        source: &SchemaSource,
    ) -> Result<bool, WorkspaceError> {
        let recorded = Fingerprints::read(&self.fingerprints_path());
        let config = self.config();
        let (sources, inputs) = self.sources(revisions, source)?;
        let distinct: Vec<&Input<'_>> = inputs
            .iter()
            .filter(|i| sources.iter().any(|s| s.name == i.revision.name))
            .collect();
        let computed = Self::in_parallel(&distinct, |input| {
            let borrowed_path = Self::borrowed_relative_path(input.revision);
            Prepared::new(&config.errata, &config.settings, input.source())?
                .fingerprint(Some(&borrowed_path))
        })?;
        for (revision, from) in revisions.iter().zip(&sources) {
            let (_, own) = (distinct.iter().zip(&computed))
                .find(|(input, _)| input.revision.name == from.name)
                .expect("every source revision was fingerprinted");
            let module_file = format!("{}.rs", revision.module);
            let module_path = self.generated_path(revision);
            if from.name != revision.name {
                let source = (inputs.iter().find(|i| i.revision.name == revision.name))
                    .expect("every revision was read")
                    .source();
                let same_as = (from.name.as_str(), from.module.as_str());
                let fingerprint = Reexport::new(&config.errata, &config.settings, source, same_as)
                    .fingerprint(own);
                if !recorded.holds(&module_file, &module_path, &fingerprint) {
                    return Ok(false);
                }
                continue;
            }
            let borrowed_file = Self::borrowed_relative_path(revision);
            let borrowed_path = self.generated_dir().join(&borrowed_file);
            if !recorded.holds(&module_file, &module_path, own)
                || !recorded.holds(&borrowed_file, &borrowed_path, own)
            {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The revision each of `revisions` takes its module from (the one it re-exports, or
    /// itself), and the schemas of all of them, read.
    fn sources<'r>(
        &'r self,
        revisions: &[&'r Revision],
        source: &SchemaSource,
    ) -> Result<(Vec<&'r Revision>, Vec<Input<'r>>), WorkspaceError> {
        let sources: Vec<&Revision> = (revisions.iter())
            .map(|r| self.same_schema_as(r).unwrap_or(r))
            .collect();
        let inputs = self.read_schemas(revisions.iter().chain(&sources).copied(), source)?;
        Ok((sources, inputs))
    }

    /// `generated/src/gen/FINGERPRINTS`.
    pub fn fingerprints_path(&self) -> PathBuf {
        self.generated_dir().join("FINGERPRINTS")
    }

    /// Every file the generator writes for the pinned revisions, relative to
    /// `generated/src/gen/`.
    fn generated_files(&self) -> Vec<String> {
        let revisions = &self.revisions.revisions;
        revisions
            .iter()
            .flat_map(|r| {
                let borrowed = self.same_schema_as(r).is_none();
                let borrowed = borrowed.then(|| Self::borrowed_relative_path(r));
                std::iter::once(format!("{}.rs", r.module)).chain(borrowed)
            })
            .collect()
    }

    /// The settings of the checked-in modules.
    fn config(&self) -> Config {
        let mut config = Config::new();
        config
            .registry_feature(REGISTRY_FEATURE)
            .verdict_feature(VERDICT_FEATURE)
            .schemars_feature(SCHEMARS_FEATURE)
            .module_doc(true)
            .borrowed_types_feature(BORROWED_FEATURE)
            // The checked-in modules predate constraint docs: turning them on is a reviewed
            // change of every generated file, not a side effect of a generator change.
            .constraint_docs(false)
            .regenerate_with(REGENERATE)
            .errata(self.errata.clone());
        config
    }

    /// The pinned schemas of `revisions`, each fetched and read once, in order.
    fn read_schemas<'r>(
        &self,
        revisions: impl Iterator<Item = &'r Revision>,
        source: &SchemaSource,
    ) -> Result<Vec<Input<'r>>, WorkspaceError> {
        let mut inputs: Vec<Input> = Vec::new();
        for revision in revisions {
            if inputs.iter().any(|i| i.revision.name == revision.name) {
                continue;
            }
            let path = self.fetch(revision, source)?;
            let bytes = pipeline::read(&path)?;
            inputs.push(Input {
                revision,
                path,
                bytes,
            });
        }
        Ok(inputs)
    }

    /// Runs the pipeline on each input, a thread each; the first error, in input order, wins.
    fn generate_in_parallel<'a>(
        config: &Config,
        inputs: &[&'a Input<'a>],
    ) -> Result<Vec<(&'a str, Generated)>, GenerateError> {
        let results = Self::in_parallel(inputs, |input| {
            let borrowed_path = Self::borrowed_relative_path(input.revision);
            Ok(
                Prepared::new(&config.errata, &config.settings, input.source())?
                    .generate(Some(&borrowed_path)),
            )
        })?;
        Ok(inputs
            .iter()
            .map(|input| input.revision.name.as_str())
            .zip(results)
            .collect())
    }

    /// `work` on each input, a thread each; the first error, in input order, wins.
    fn in_parallel<T: Send>(
        inputs: &[&Input<'_>],
        work: impl Fn(&Input<'_>) -> Result<T, GenerateError> + Sync,
    ) -> Result<Vec<T>, GenerateError> {
        let work = &work;
        std::thread::scope(|scope| {
            let workers: Vec<_> = (inputs.iter())
                .map(|input| scope.spawn(move || work(input)))
                .collect();
            workers
                .into_iter()
                .map(|w| {
                    w.join().unwrap_or_else(|_| {
                        Err(GenerateError::Config("the generator panicked".into()))
                    })
                })
                .collect()
        })
    }

    /// The borrowed family of a revision, in a file of its own so that the default build does
    /// not parse it (`generated/src/gen/<module>/borrowed.rs`), relative to its module's folder.
    fn borrowed_relative_path(revision: &Revision) -> String {
        format!("{}/borrowed.rs", revision.module)
    }

    /// The revision listed before `revision` whose pinned schema is byte for byte the same (by
    /// sha256) and corrected by the same errata: `revision`'s module re-exports that revision's
    /// types instead of compiling a copy.
    pub fn same_schema_as(&self, revision: &Revision) -> Option<&Revision> {
        let changes = self.errata.for_revision(&revision.name);
        self.revisions
            .revisions
            .iter()
            .take_while(|r| r.name != revision.name)
            .find(|r| r.sha256 == revision.sha256 && self.errata.for_revision(&r.name) == changes)
    }

    /// A revision's schema with its errata applied, and its IR.
    pub fn load(
        &self,
        revision: &Revision,
        source: &SchemaSource,
    ) -> Result<(serde_json::Value, crate::ir::Module), WorkspaceError> {
        let path = self.fetch(revision, source)?;
        let bytes = pipeline::read(&path)?;
        let mut config = Config::new();
        config.errata(self.errata.clone());
        let source = Source {
            bytes: &bytes,
            revision: &revision.name,
            path: &path,
        };
        let prepared = Prepared::new(&config.errata, &config.settings, source)?;
        Ok((prepared.root, prepared.module))
    }

    /// Writes a rendered file if it changed; `true` when it did.
    pub fn write(&self, rendered: &Rendered) -> Result<bool, WorkspaceError> {
        Ok(write_if_changed(&rendered.path, &rendered.text)?)
    }
}

/// A pinned schema, read.
struct Input<'r> {
    revision: &'r Revision,
    path: PathBuf,
    bytes: Vec<u8>,
}

impl Input<'_> {
    fn source(&self) -> Source<'_> {
        Source {
            bytes: &self.bytes,
            revision: &self.revision.name,
            path: &self.path,
        }
    }
}
