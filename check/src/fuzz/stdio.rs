//! The server as a child process, one JSON-RPC message per line on its stdin and stdout.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use super::{Received, Transport, Unanswered};

pub(super) struct StdioServer {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl StdioServer {
    /// Runs `command` (a program and its arguments), its stderr passed through.
    pub(super) fn spawn(command: &[String]) -> Result<StdioServer, String> {
        let (program, arguments) = command
            .split_first()
            .ok_or_else(|| "no server command".to_owned())?;
        let mut child = Command::new(program)
            .args(arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("{program}: {e}"))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if !line.trim().is_empty() && sender.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(StdioServer {
            child,
            stdin,
            lines,
        })
    }
}

impl Transport for StdioServer {
    fn send(&mut self, text: &str) {
        // A server that stopped reading is found waiting for its answer.
        let _ = writeln!(self.stdin, "{text}").and_then(|()| self.stdin.flush());
    }

    fn next(&mut self, timeout: Duration) -> Result<Received, Unanswered> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => Ok(Received::Message(line)),
            Err(RecvTimeoutError::Timeout) => {
                Err(Unanswered::Hang(format!("no answer in {timeout:?}")))
            }
            Err(RecvTimeoutError::Disconnected) => {
                let status = self.child.wait().map(|s| s.to_string());
                let how = status.unwrap_or_else(|e| e.to_string());
                Err(Unanswered::Crash(format!("the server ended ({how})")))
            }
        }
    }

    fn close(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
