//! Where a measurement comes from, printed under each table of the benchmark programs: the
//! date (UTC) and the repository's commit. Included by each program (`#[path]`): they are
//! separate binaries of a package without a library.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{SystemTime, UNIX_EPOCH};

/// Today's date, UTC, as `YYYY-MM-DD`, from the days since 1970-01-01 (Howard Hinnant's
/// `civil_from_days`: no date crate for one line of output).
pub fn today() -> String {
    let secs = (SystemTime::now().duration_since(UNIX_EPOCH)).map_or(0, |d| d.as_secs());
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The commit of the repository, if git can tell, marked when the tree has changes.
pub fn commit() -> Option<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let git = |args: &[&str]| {
        let output = Command::new("git")
            .current_dir(&root)
            .args(args)
            .stderr(Stdio::null())
            .output()
            .ok()?;
        (output.status.success()).then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
    };
    let head = git(&["rev-parse", "--short", "HEAD"])?;
    let dirty = git(&["status", "--porcelain", "--untracked-files=no"])?;
    Some(if dirty.is_empty() {
        head
    } else {
        format!("{head}, with uncommitted changes")
    })
}
