//! A server process of a test on 127.0.0.1: started, waited for until it is ready, and killed
//! (and waited for) when dropped. The one home of that dance for the test suites (Redis, our
//! HTTP programs, the Python and TypeScript servers).
//!
//! Two ways to learn its port, both free of the race in which another server of a test running
//! at the same time takes it:
//! - a program of ours is given port 0 and names the port the system chose in the line it
//!   prints on standard error once listening (`…http://127.0.0.1:PORT…`):
//!   [`Listening::start_reporting`];
//! - another is given a port that was free a moment ago and never handed out before in this
//!   process ([`free_port`]), and is started again on another one if it exits before it is
//!   ready (something took the port meanwhile): [`Listening::start`].

use std::collections::BTreeSet;
use std::fs::File;
use std::io::{BufRead, BufReader, Write as _};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

/// How long a server may take to be ready.
const STARTUP: Duration = Duration::from_secs(60);

/// How many times [`Listening::start`] tries a port.
const ATTEMPTS: usize = 3;

/// A TCP port of 127.0.0.1 that was free when asked, and that this process has not handed out
/// before: two tests running at once never get the same one.
pub fn free_port() -> u16 {
    static HANDED_OUT: Mutex<BTreeSet<u16>> = Mutex::new(BTreeSet::new());
    loop {
        let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port();
        let mut handed_out = HANDED_OUT
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if handed_out.insert(port) {
            return port;
        }
    }
}

/// Whether something accepts connections on `port` of 127.0.0.1.
pub fn accepts(port: u16) -> bool {
    TcpStream::connect((Ipv4Addr::LOCALHOST, port)).is_ok()
}

/// The port of the first `http://127.0.0.1:PORT` in `line`, as a server reports where it
/// listens.
pub fn reported_port(line: &str) -> Option<u16> {
    let (_, rest) = line.split_once("http://127.0.0.1:")?;
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    rest[..digits].parse().ok().filter(|&port| port != 0)
}

/// A server process, killed (and waited for) when dropped.
#[derive(Debug)]
pub struct Listening {
    child: Child,
    /// The port it listens on.
    pub port: u16,
}

impl Listening {
    /// Spawns `command(port)` (its standard streams closed) as the server `name` on a
    /// [`free_port`], and waits until `ready(port)` holds. If it exits first, tries again on
    /// another port, up to three times; panics then, or if it is not ready within 60 s.
    pub fn start(
        name: &str,
        mut command: impl FnMut(u16) -> Command,
        ready: impl Fn(u16) -> bool,
    ) -> Listening {
        let mut exits = Vec::new();
        while exits.len() < ATTEMPTS {
            let port = free_port();
            let child = command(port)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
            let mut server = Listening { child, port };
            let started = Instant::now();
            loop {
                if ready(port) {
                    return server;
                }
                if let Some(status) = server.child.try_wait().expect("the server's status") {
                    exits.push(format!("port {port}: {status}"));
                    break;
                }
                assert!(
                    started.elapsed() < STARTUP,
                    "{name} was not ready within 60 s"
                );
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        panic!("{name} exited before it was ready, {ATTEMPTS} times ({exits:?})")
    }

    /// Spawns `command` (told to listen on port 0) as the server `name`, and waits until it
    /// prints the port it listens on ([`reported_port`]) on standard error; panics, with what
    /// it printed, if it exits first or has not within 60 s. Its later output is read and
    /// dropped.
    pub fn start_reporting(command: &mut Command, name: &str) -> Listening {
        Self::start_reporting_logged(command, name, None)
    }

    /// [`Listening::start_reporting`], keeping what the server prints (standard output and
    /// error) in the file `log` when one is given.
    pub fn start_reporting_logged(
        command: &mut Command,
        name: &str,
        log: Option<&Path>,
    ) -> Listening {
        let mut log = log
            .map(|path| File::create(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())));
        let stdout = match &log {
            Some(file) => Stdio::from(file.try_clone().expect("the server's log")),
            None => Stdio::null(),
        };
        let mut child = command
            .stdin(Stdio::null())
            .stdout(stdout)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
        let stderr = child.stderr.take().expect("its standard error");
        // The guard first: a panic below still stops the server.
        let mut server = Listening { child, port: 0 };
        let (lines, printed) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(log) = &mut log {
                    let _ = writeln!(log, "{line}");
                }
                // Sent until the receiver is gone, read to the end after: the server never
                // blocks on a full pipe.
                let _ = lines.send(line);
            }
        });
        let started = Instant::now();
        let mut shown = Vec::new();
        loop {
            match printed.recv_timeout(Duration::from_millis(50)) {
                Ok(line) => match reported_port(&line) {
                    Some(port) => {
                        server.port = port;
                        return server;
                    }
                    None => shown.push(line),
                },
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    // Its standard error closed: it has exited, or is killed here (a zombie
                    // keeps the status it exited with).
                    let _ = server.child.kill();
                    let status = server.child.wait().expect("the server's status");
                    panic!(
                        "{name} exited before it listened ({status}):\n{}",
                        shown.join("\n")
                    );
                }
            }
            assert!(
                started.elapsed() < STARTUP,
                "{name} did not say where it listens within 60 s:\n{}",
                shown.join("\n")
            );
        }
    }

    /// Its exit status, if it has exited (a server that should still be running).
    pub fn exited(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().expect("the server's status")
    }

    /// The process id (its memory is in `/proc/PID/status`; a signal goes to it).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        let _ = self.child.kill(); // SIGKILL ends a paused process too
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reported_port_is_read_from_a_servers_line() {
        assert_eq!(
            reported_port("everything-server: http://127.0.0.1:40123/mcp"),
            Some(40123)
        );
        assert_eq!(
            reported_port("mcp-check: listening on http://127.0.0.1:8080"),
            Some(8080)
        );
        assert_eq!(
            reported_port("booking-server: http://127.0.0.1:0/mcp"),
            None
        );
        assert_eq!(reported_port("listening on port 3000"), None);
    }

    #[test]
    fn a_server_is_known_by_the_port_it_reports() {
        let mut command = Command::new("sh");
        command.args([
            "-c",
            "echo starting >&2; echo 'x: http://127.0.0.1:45678/mcp' >&2; sleep 30",
        ]);
        let server = Listening::start_reporting(&mut command, "sh");
        assert_eq!(server.port, 45678);
    }

    #[test]
    fn a_server_that_exits_before_it_reports_is_an_error_with_what_it_printed() {
        let failed = std::panic::catch_unwind(|| {
            Listening::start_reporting(
                Command::new("sh").args(["-c", "echo oops >&2; exit 3"]),
                "sh",
            )
        });
        let message = *failed
            .expect_err("a panic")
            .downcast::<String>()
            .expect("a message");
        assert!(message.contains("exited before it listened"), "{message}");
        assert!(
            message.contains("exit status: 3") && message.contains("oops"),
            "{message}"
        );
    }

    #[test]
    fn a_port_is_handed_out_once() {
        let ports: BTreeSet<u16> = (0..200).map(|_| free_port()).collect();
        assert_eq!(ports.len(), 200);
    }
}
