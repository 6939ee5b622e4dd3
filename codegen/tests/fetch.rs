//! Integration tests of `mcp_codegen::fetch`: mirror folders, downloads from a local HTTP
//! server, sha256 refusal, atomic replacement, source resolution and the real pins.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mcp_codegen::fetch::{
    ensure, fetch_revision, sha256_hex, FetchError, FetchOutcome, SchemaSource,
};
use mcp_codegen::revisions::Revisions;

const GOOD: &[u8] = br#"{"$schema":"https://json-schema.org/draft/2020-12/schema","$defs":{}}"#;

/// `GOOD` with one byte changed.
fn bad_bytes() -> Vec<u8> {
    let mut bytes = GOOD.to_vec();
    let last = bytes.len() - 2;
    bytes[last] = b']';
    bytes
}

/// A `Revisions` with one revision per name, all pinned to the sha256 of `GOOD`.
fn revisions(names: &[&str]) -> Revisions {
    let sha = sha256_hex(GOOD);
    let mut text = String::from(
        "[upstream]\nrepository = \"example/none\"\ncommit = \"0000\"\n\
         url = \"http://127.0.0.1:9/{repository}/{commit}/{revision}/schema.json\"\n\
         files_url = \"http://127.0.0.1:9/{repository}/{commit}/{path}\"\n",
    );
    for name in names {
        text.push_str(&format!(
            "\n[[revision]]\nname = \"{name}\"\nmodule = \"m\"\nfeature = \"f\"\n\
             dialect = \"2020-12\"\nsha256 = \"{sha}\"\n"
        ));
    }
    Revisions::parse(&text).expect("test revisions parse")
}

/// Writes `<mirror>/<name>/schema.json`.
fn put(mirror: &Path, name: &str, bytes: &[u8]) {
    std::fs::create_dir_all(mirror.join(name)).unwrap();
    std::fs::write(mirror.join(name).join("schema.json"), bytes).unwrap();
}

/// Every entry under `dir`, recursively, relative to it.
fn tree(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            out.push(path.strip_prefix(dir).unwrap().to_owned());
            if path.is_dir() {
                stack.push(path);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn sha256_hex_is_lower_case_hex() {
    assert_eq!(
        sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(
        sha256_hex(b""),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
}

#[test]
fn dir_source_fetches_then_is_up_to_date() {
    let revs = revisions(&["test-rev"]);
    let rev = revs.get("test-rev").unwrap();
    let mirror = tempfile::tempdir().unwrap();
    put(mirror.path(), "test-rev", GOOD);
    let root = tempfile::tempdir().unwrap();
    let source = SchemaSource::Dir(mirror.path().to_owned());

    let outcome = fetch_revision(&revs, rev, root.path(), &source).unwrap();
    let origin = mirror.path().join("test-rev").join("schema.json");
    assert_eq!(
        outcome,
        FetchOutcome::Fetched {
            origin: origin.display().to_string()
        }
    );
    let dest = root.path().join("test-rev").join("schema.json");
    assert_eq!(std::fs::read(&dest).unwrap(), GOOD);
    // Exactly the file, no temporary left over.
    assert_eq!(
        tree(root.path()),
        vec![
            PathBuf::from("test-rev"),
            PathBuf::from("test-rev/schema.json")
        ]
    );

    // Second time: nothing to do, even if the mirror has gone.
    drop(mirror);
    assert_eq!(
        fetch_revision(&revs, rev, root.path(), &source).unwrap(),
        FetchOutcome::UpToDate
    );
    assert_eq!(ensure(&revs, rev, root.path(), &source).unwrap(), dest);
}

#[test]
fn dir_source_with_corrupted_bytes_is_refused_and_leaves_nothing() {
    let revs = revisions(&["test-rev"]);
    let rev = revs.get("test-rev").unwrap();
    let mirror = tempfile::tempdir().unwrap();
    put(mirror.path(), "test-rev", &bad_bytes());
    let root = tempfile::tempdir().unwrap();
    let source = SchemaSource::Dir(mirror.path().to_owned());

    match fetch_revision(&revs, rev, root.path(), &source) {
        Err(FetchError::Sha256Mismatch {
            revision,
            expected,
            actual,
            origin,
        }) => {
            assert_eq!(revision, "test-rev");
            assert_eq!(expected, sha256_hex(GOOD));
            assert_eq!(actual, sha256_hex(&bad_bytes()));
            assert!(origin.ends_with("schema.json"), "{origin}");
        }
        other => panic!("expected Sha256Mismatch, got {other:?}"),
    }
    assert!(tree(root.path()).is_empty(), "{:?}", tree(root.path()));
    assert!(ensure(&revs, rev, root.path(), &source).is_err());
    assert!(tree(root.path()).is_empty());
}

#[test]
fn dir_source_without_the_file_is_missing_in_mirror() {
    let revs = revisions(&["absent"]);
    let rev = revs.get("absent").unwrap();
    let mirror = tempfile::tempdir().unwrap();
    let root = tempfile::tempdir().unwrap();
    let source = SchemaSource::Dir(mirror.path().to_owned());
    match fetch_revision(&revs, rev, root.path(), &source) {
        Err(FetchError::MissingInMirror { path }) => {
            assert_eq!(path, mirror.path().join("absent").join("schema.json"));
        }
        other => panic!("expected MissingInMirror, got {other:?}"),
    }
    assert!(tree(root.path()).is_empty());
}

#[test]
fn existing_wrong_file_is_replaced_by_a_good_fetch() {
    let revs = revisions(&["test-rev"]);
    let rev = revs.get("test-rev").unwrap();
    let mirror = tempfile::tempdir().unwrap();
    let root = tempfile::tempdir().unwrap();
    put(root.path(), "test-rev", b"stale");
    let dest = root.path().join("test-rev").join("schema.json");

    // A bad source does not touch the existing (wrong) file.
    put(mirror.path(), "test-rev", &bad_bytes());
    let source = SchemaSource::Dir(mirror.path().to_owned());
    assert!(matches!(
        fetch_revision(&revs, rev, root.path(), &source),
        Err(FetchError::Sha256Mismatch { .. })
    ));
    assert_eq!(std::fs::read(&dest).unwrap(), b"stale");
    assert_eq!(
        tree(root.path()),
        vec![
            PathBuf::from("test-rev"),
            PathBuf::from("test-rev/schema.json")
        ]
    );

    // A good source replaces it.
    put(mirror.path(), "test-rev", GOOD);
    assert!(matches!(
        fetch_revision(&revs, rev, root.path(), &source).unwrap(),
        FetchOutcome::Fetched { .. }
    ));
    assert_eq!(std::fs::read(&dest).unwrap(), GOOD);
    assert_eq!(
        tree(root.path()),
        vec![
            PathBuf::from("test-rev"),
            PathBuf::from("test-rev/schema.json")
        ]
    );
    assert_eq!(
        fetch_revision(&revs, rev, root.path(), &source).unwrap(),
        FetchOutcome::UpToDate
    );
}

#[test]
fn path_like_revision_names_are_refused() {
    let revs = revisions(&["..", "a/b", ""]);
    let mirror = tempfile::tempdir().unwrap();
    let root = tempfile::tempdir().unwrap();
    let source = SchemaSource::Dir(mirror.path().to_owned());
    for rev in &revs.revisions {
        assert!(
            matches!(
                fetch_revision(&revs, rev, root.path(), &source),
                Err(FetchError::InvalidRevisionName { .. })
            ),
            "{:?}",
            rev.name
        );
    }
    assert!(tree(root.path()).is_empty());
}

/// Serves one request on `stream`: `/good/schema.json`, `/bad/schema.json`, else 404.
fn serve(mut stream: TcpStream) {
    let timeout = Some(Duration::from_secs(5));
    let _ = stream.set_read_timeout(timeout);
    let _ = stream.set_write_timeout(timeout);
    let Ok(clone) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(clone);
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    // Skip the headers.
    loop {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) if line == "\r\n" || line == "\n" => break,
            Ok(_) => {}
        }
    }
    let path = request_line.split_whitespace().nth(1).unwrap_or("");
    let (status, body): (&str, Vec<u8>) = match path {
        "/good/schema.json" => ("200 OK", GOOD.to_vec()),
        "/bad/schema.json" => ("200 OK", bad_bytes()),
        _ => ("404 Not Found", b"not found".to_vec()),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(&body);
    let _ = stream.flush();
}

/// Starts a server on 127.0.0.1 that handles at most `connections` connections and stops
/// after 30 s in any case. Returns its port.
fn start_server(connections: usize) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut served = 0;
        while served < connections && Instant::now() < deadline {
            match listener.accept() {
                Ok((stream, _)) => {
                    served += 1;
                    if stream.set_nonblocking(false).is_ok() {
                        serve(stream);
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                Err(_) => return,
            }
        }
    });
    port
}

#[test]
fn download_verifies_sha256_and_reports_http_errors() {
    let port = start_server(8);
    let revs = revisions(&["good", "bad", "missing"]);
    let source = SchemaSource::Download {
        url_override: Some(format!("http://127.0.0.1:{port}/{{revision}}/schema.json")),
    };
    let root = tempfile::tempdir().unwrap();

    // Good: fetched, byte-identical.
    let good = revs.get("good").unwrap();
    assert_eq!(
        fetch_revision(&revs, good, root.path(), &source).unwrap(),
        FetchOutcome::Fetched {
            origin: format!("http://127.0.0.1:{port}/good/schema.json")
        }
    );
    assert_eq!(
        std::fs::read(root.path().join("good/schema.json")).unwrap(),
        GOOD
    );
    assert_eq!(
        fetch_revision(&revs, good, root.path(), &source).unwrap(),
        FetchOutcome::UpToDate
    );

    // Bad: refused, nothing left behind.
    let bad = revs.get("bad").unwrap();
    match fetch_revision(&revs, bad, root.path(), &source) {
        Err(FetchError::Sha256Mismatch {
            revision,
            actual,
            origin,
            ..
        }) => {
            assert_eq!(revision, "bad");
            assert_eq!(actual, sha256_hex(&bad_bytes()));
            assert_eq!(origin, format!("http://127.0.0.1:{port}/bad/schema.json"));
        }
        other => panic!("expected Sha256Mismatch, got {other:?}"),
    }

    // 404: an HTTP error, nothing left behind.
    let missing = revs.get("missing").unwrap();
    match fetch_revision(&revs, missing, root.path(), &source) {
        Err(FetchError::Http { url, message }) => {
            assert_eq!(url, format!("http://127.0.0.1:{port}/missing/schema.json"));
            assert!(message.contains("404"), "{message}");
        }
        other => panic!("expected Http, got {other:?}"),
    }

    assert_eq!(
        tree(root.path()),
        vec![PathBuf::from("good"), PathBuf::from("good/schema.json")]
    );
}

#[test]
fn download_connection_failure_is_an_http_error() {
    // Bind then drop a listener to get a port nothing listens on.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let revs = revisions(&["good"]);
    let source = SchemaSource::Download {
        url_override: Some(format!("http://127.0.0.1:{port}/{{revision}}/schema.json")),
    };
    let root = tempfile::tempdir().unwrap();
    assert!(matches!(
        fetch_revision(&revs, revs.get("good").unwrap(), root.path(), &source),
        Err(FetchError::Http { .. })
    ));
    assert!(tree(root.path()).is_empty());
}

/// All environment manipulation lives in this one test (tests run in parallel threads).
#[test]
fn resolve_prefers_from_then_env_then_download() {
    let saved = std::env::var_os("MCP_SCHEMA_MIRROR");

    std::env::set_var("MCP_SCHEMA_MIRROR", "/env/mirror");
    assert_eq!(
        SchemaSource::resolve(Some(PathBuf::from("/from/dir"))),
        SchemaSource::Dir(PathBuf::from("/from/dir"))
    );
    assert_eq!(
        SchemaSource::resolve(None),
        SchemaSource::Dir(PathBuf::from("/env/mirror"))
    );

    std::env::set_var("MCP_SCHEMA_MIRROR", "");
    assert_eq!(
        SchemaSource::resolve(None),
        SchemaSource::Download { url_override: None }
    );

    std::env::remove_var("MCP_SCHEMA_MIRROR");
    assert_eq!(
        SchemaSource::resolve(None),
        SchemaSource::Download { url_override: None }
    );
    assert_eq!(
        SchemaSource::resolve(Some(PathBuf::from("/from/dir"))),
        SchemaSource::Dir(PathBuf::from("/from/dir"))
    );

    match saved {
        Some(value) => std::env::set_var("MCP_SCHEMA_MIRROR", value),
        None => std::env::remove_var("MCP_SCHEMA_MIRROR"),
    }
}

/// The real pins are what the configured source serves (`$MCP_SCHEMA_MIRROR`, or the upstream
/// commit), schemas and examples alike.
#[test]
fn real_pins_match_the_configured_source() {
    let revs = Revisions::load(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../schema/revisions.toml"
    )))
    .unwrap();
    assert!(!revs.revisions.is_empty());
    let source = SchemaSource::resolve(None);
    let root = tempfile::tempdir().unwrap();
    for rev in &revs.revisions {
        let outcome = fetch_revision(&revs, rev, root.path(), &source)
            .unwrap_or_else(|e| panic!("revision {}: {e}", rev.name));
        assert!(
            matches!(outcome, FetchOutcome::Fetched { .. }),
            "{outcome:?}"
        );
        let path = ensure(&revs, rev, root.path(), &source).unwrap();
        assert_eq!(sha256_hex(&std::fs::read(&path).unwrap()), rev.sha256);
        assert!(revs.url_of(rev).contains(&rev.name));
    }
}

/// `examples.sha256`: each example is fetched like a schema (verified, atomic), and a manifest
/// that is malformed or points outside `schema/` is refused.
#[test]
fn pinned_files_are_verified_and_confined() {
    use mcp_codegen::fetch::{fetch_file, read_manifest, PinnedFile};
    let revs = Revisions::load(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../schema/revisions.toml"
    )))
    .unwrap();
    let mirror = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(mirror.path().join("r/examples/T")).unwrap();
    std::fs::write(mirror.path().join("r/examples/T/a.json"), "{\"a\":1}").unwrap();
    let good = PinnedFile {
        path: "r/examples/T/a.json".into(),
        sha256: sha256_hex(b"{\"a\":1}"),
    };
    let root = tempfile::tempdir().unwrap();
    let source = SchemaSource::Dir(mirror.path().to_owned());
    assert!(matches!(
        fetch_file(&revs, &good, root.path(), &source).unwrap(),
        FetchOutcome::Fetched { .. }
    ));
    assert_eq!(
        fetch_file(&revs, &good, root.path(), &source).unwrap(),
        FetchOutcome::UpToDate
    );
    let wrong = PinnedFile {
        sha256: sha256_hex(b"other"),
        ..good.clone()
    };
    let other_root = tempfile::tempdir().unwrap();
    assert!(matches!(
        fetch_file(&revs, &wrong, other_root.path(), &source),
        Err(FetchError::Sha256Mismatch { .. })
    ));
    assert!(
        !other_root.path().join(&good.path).exists(),
        "nothing written"
    );
    assert!(revs
        .url_of_file(&good.path)
        .ends_with("/schema/r/examples/T/a.json"));

    let manifest = root.path().join("m.sha256");
    let sha = "0".repeat(64);
    for (text, expected) in [
        (format!("{sha}  ../etc/passwd\n"), "relative"),
        (format!("{sha}  /etc/passwd\n"), "relative"),
        (format!("{sha} one-space.json\n"), "expected"),
        ("abc  a.json\n".to_owned(), "64 hex digits"),
    ] {
        std::fs::write(&manifest, &text).unwrap();
        let error = read_manifest(&manifest).unwrap_err().to_string();
        assert!(error.contains(expected), "{text}: {error}");
    }
    std::fs::write(
        &manifest,
        format!("# comment\n\n{sha}  r/examples/T/a.json\n"),
    )
    .unwrap();
    assert_eq!(
        read_manifest(&manifest).unwrap(),
        [PinnedFile {
            path: "r/examples/T/a.json".into(),
            sha256: sha
        }]
    );
}

/// A gzip tar archive with these (path, bytes) files, as npm and crates.io pack them.
fn tgz(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut builder = tar::Builder::new(flate2::write::GzEncoder::new(
        Vec::new(),
        flate2::Compression::default(),
    ));
    for (path, bytes) in files {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        builder.append_data(&mut header, path, *bytes).unwrap();
    }
    builder.into_inner().unwrap().finish().unwrap()
}

/// Serves `body` for every request, at most `connections` times; counts the requests.
fn start_archive_server(
    body: Vec<u8>,
    connections: usize,
) -> (u16, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let count = std::sync::Arc::new(AtomicUsize::new(0));
    let counter = count.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(connections) {
            let Ok(mut stream) = stream else { return };
            counter.fetch_add(1, Ordering::SeqCst);
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            loop {
                let mut line = String::new();
                match reader.read_line(&mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) if line == "\r\n" => break,
                    Ok(_) => {}
                }
            }
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
        }
    });
    (port, count)
}

/// A pin of `schema.json` and one example inside `archive`, served at `url`.
fn third_party_pin(url: String, archive: &[u8]) -> mcp_codegen::fetch::ThirdPartySchema {
    let text = format!(
        "[[schema]]\nname = \"tp\"\nproducer = \"test\"\npackage = \"npm:tp\"\nversion = \"1\"\n\
         url = \"{url}\"\narchive_sha256 = \"{}\"\npath = \"package/schema.json\"\n\
         sha256 = \"{}\"\n\n[[schema.example]]\npath = \"package/examples/one.json\"\n\
         sha256 = \"{}\"\n",
        sha256_hex(archive),
        sha256_hex(GOOD),
        sha256_hex(b"{\"one\":1}"),
    );
    let pins = mcp_codegen::fetch::ThirdPartyPins::parse(&text).unwrap();
    pins.get("tp").unwrap().clone()
}

/// The third-party path: the file is extracted from the pinned archive (downloaded once for
/// the schema and its examples), the archive's and each file's sha256 are checked before
/// anything is written, a mirror is honoured when it has the file, and a good cache is used as
/// it is.
#[test]
fn third_party_pins_come_from_the_mirror_or_the_checked_archive() {
    use mcp_codegen::fetch::fetch_third_party;
    use std::sync::atomic::Ordering;
    let archive = tgz(&[
        ("package/README.md", b"readme"),
        ("package/schema.json", GOOD),
        ("package/examples/one.json", b"{\"one\":1}"),
    ]);

    // From the archive: one download for both files, then the cache alone.
    let (port, count) = start_archive_server(archive.clone(), 4);
    let pin = third_party_pin(format!("http://127.0.0.1:{port}/tp-1.tgz"), &archive);
    let root = tempfile::tempdir().unwrap();
    let fetched = fetch_third_party(&pin, root.path(), None).unwrap();
    assert_eq!(
        fetched.schema,
        root.path().join("third-party/tp/schema.json")
    );
    assert_eq!(
        fetched.examples,
        [root.path().join("third-party/tp/examples/one.json")]
    );
    assert_eq!(std::fs::read(&fetched.schema).unwrap(), GOOD);
    assert_eq!(std::fs::read(&fetched.examples[0]).unwrap(), b"{\"one\":1}");
    assert_eq!(count.load(Ordering::SeqCst), 1, "one download");
    assert_eq!(fetched.origins.len(), 2);
    assert!(fetched.origins[0].ends_with("tp-1.tgz!package/schema.json"));
    let again = fetch_third_party(&pin, root.path(), None).unwrap();
    assert!(again.origins.is_empty(), "{again:?}");
    assert_eq!(count.load(Ordering::SeqCst), 1, "no download when cached");
    assert_eq!(
        tree(root.path()),
        [
            "third-party",
            "third-party/tp",
            "third-party/tp/examples",
            "third-party/tp/examples/one.json",
            "third-party/tp/schema.json"
        ]
        .map(PathBuf::from)
    );

    // The mirror has the files: no download (the URL is not even served).
    let mirror = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(mirror.path().join("third-party/tp/examples")).unwrap();
    std::fs::write(mirror.path().join("third-party/tp/schema.json"), GOOD).unwrap();
    std::fs::write(
        mirror.path().join("third-party/tp/examples/one.json"),
        b"{\"one\":1}",
    )
    .unwrap();
    let offline = third_party_pin("http://127.0.0.1:9/unreachable.tgz".into(), &archive);
    let from_mirror = tempfile::tempdir().unwrap();
    let fetched = fetch_third_party(&offline, from_mirror.path(), Some(mirror.path())).unwrap();
    assert_eq!(
        fetched.origins,
        [
            mirror.path().join("third-party/tp/schema.json"),
            mirror.path().join("third-party/tp/examples/one.json")
        ]
        .map(|p| p.display().to_string())
    );

    // A mirror file with the wrong bytes is refused, not replaced by a download.
    std::fs::write(
        mirror.path().join("third-party/tp/schema.json"),
        bad_bytes(),
    )
    .unwrap();
    let refused = tempfile::tempdir().unwrap();
    match fetch_third_party(&pin, refused.path(), Some(mirror.path())) {
        Err(FetchError::Sha256Mismatch {
            revision, origin, ..
        }) => {
            assert_eq!(revision, "tp/schema.json");
            assert!(origin.ends_with("schema.json"), "{origin}");
        }
        other => panic!("expected Sha256Mismatch, got {other:?}"),
    }
    assert!(tree(refused.path()).is_empty());
}

/// An archive whose sha256 is not the pin, or whose file is not, is refused with nothing
/// written; so is an archive without the file.
#[test]
fn third_party_archive_or_file_mismatch_is_refused() {
    use mcp_codegen::fetch::fetch_third_party;
    let archive = tgz(&[
        ("package/schema.json", GOOD),
        ("package/examples/one.json", b"{\"one\":1}"),
    ]);

    // The archive served is another one.
    let other = tgz(&[
        ("package/schema.json", GOOD),
        ("package/examples/one.json", b"{\"one\":2}"),
    ]);
    let (port, _) = start_archive_server(other.clone(), 1);
    let pin = third_party_pin(format!("http://127.0.0.1:{port}/a.tgz"), &archive);
    let root = tempfile::tempdir().unwrap();
    match fetch_third_party(&pin, root.path(), None) {
        Err(FetchError::Sha256Mismatch {
            revision, actual, ..
        }) => {
            assert_eq!(revision, "tp (archive)");
            assert_eq!(actual, sha256_hex(&other));
        }
        other => panic!("expected Sha256Mismatch, got {other:?}"),
    }
    assert!(tree(root.path()).is_empty());

    // The archive is the pinned one, but a file in it is not: the schema is written, the
    // example refused.
    let (port, _) = start_archive_server(other.clone(), 1);
    let mut pin = third_party_pin(format!("http://127.0.0.1:{port}/a.tgz"), &other);
    match fetch_third_party(&pin, root.path(), None) {
        Err(FetchError::Sha256Mismatch { revision, .. }) => {
            assert_eq!(revision, "tp/examples/one.json")
        }
        other => panic!("expected Sha256Mismatch, got {other:?}"),
    }
    assert!(!root.path().join("third-party/tp/examples").exists());

    // No such file in the archive.
    let (port, _) = start_archive_server(other.clone(), 1);
    pin.url = format!("http://127.0.0.1:{port}/a.tgz");
    pin.examples[0].path = "package/examples/absent.json".into();
    match fetch_third_party(&pin, root.path(), None) {
        Err(FetchError::Archive { message, .. }) => {
            assert!(
                message.contains("no file package/examples/absent.json"),
                "{message}"
            )
        }
        other => panic!("expected Archive, got {other:?}"),
    }
}

/// `third-party.toml` is checked: names, sha256s, example file names.
#[test]
fn third_party_manifest_is_checked() {
    use mcp_codegen::fetch::ThirdPartyPins;
    let sha = "a".repeat(64);
    let entry = |name: &str, sha256: &str, examples: &str| {
        format!(
            "[[schema]]\nname = \"{name}\"\nproducer = \"p\"\npackage = \"k\"\nversion = \"1\"\n\
             url = \"u\"\narchive_sha256 = \"{sha}\"\npath = \"x/s.json\"\nsha256 = \"{sha256}\"\n\
             {examples}"
        )
    };
    let example =
        |path: &str| format!("[[schema.example]]\npath = \"{path}\"\nsha256 = \"{sha}\"\n");
    for (text, expected) in [
        (entry("../x", &sha, ""), "not a valid folder name"),
        (entry("x", "abc", ""), "64 hex digits"),
        (
            format!("{}{}", entry("x", &sha, ""), entry("x", &sha, "")),
            "twice",
        ),
        (
            entry(
                "x",
                &sha,
                &format!("{}{}", example("a/e.json"), example("b/e.json")),
            ),
            "two examples",
        ),
        (entry("x", &sha, &example("a/..")), "file name"),
        (entry("x", &sha, "unknown = 1\n"), "unknown"),
    ] {
        let error = ThirdPartyPins::parse(&text).unwrap_err();
        assert!(error.contains(expected), "{text}: {error}");
    }
    assert_eq!(
        ThirdPartyPins::parse(&entry("x", &sha.to_uppercase(), &example("a/e.json")))
            .unwrap()
            .schemas[0]
            .sha256,
        sha
    );
}

/// The real third-party pins parse and name files the build step can fetch.
#[test]
fn real_third_party_pins_parse() {
    let pins = mcp_codegen::fetch::ThirdPartyPins::load(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../schema/third-party.toml"
    )))
    .unwrap();
    for name in ["ext-apps", "rmcp-client-message", "rmcp-server-message"] {
        assert!(pins.get(name).is_some(), "{name}");
    }
}
