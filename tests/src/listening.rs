//! A server process of a test, on a free port of 127.0.0.1: started, waited for until it is
//! ready, and killed (and waited for) when dropped. The one home of that dance for the test
//! suites (Redis, our HTTP programs, the TypeScript server-everything).

use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A free TCP port of 127.0.0.1 (free when asked: the server started on it binds it next).
pub fn free_port() -> u16 {
    TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port()
}

/// Whether something accepts connections on `port` of 127.0.0.1.
pub fn accepts(port: u16) -> bool {
    TcpStream::connect((Ipv4Addr::LOCALHOST, port)).is_ok()
}

/// A server process, killed (and waited for) when dropped.
#[derive(Debug)]
pub struct Listening {
    child: Child,
    /// The port it listens on.
    pub port: u16,
}

impl Listening {
    /// Spawns `command` (its standard streams closed) as the server `name` on `port` and waits
    /// until `ready(port)` holds; panics if it exits first or is not ready within 60 s.
    pub fn start(
        command: &mut Command,
        name: &str,
        port: u16,
        ready: impl Fn(u16) -> bool,
    ) -> Listening {
        let child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
        let mut server = Listening { child, port };
        let started = Instant::now();
        while !ready(port) {
            if let Some(status) = server.child.try_wait().expect("the server's status") {
                panic!("{name} exited before it was ready ({status})");
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "{name} was not ready within 60 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        server
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
