"""A stdio tap: runs an MCP stdio server and logs every JSON-RPC line in both directions.

    python tap.py <logfile> -- <server command and args...>

Put it between a client and a server, e.g.

    python client.py --protocol 2026-07-28 -- python tap.py /tmp/wire.jsonl -- python server.py

Lines are forwarded unchanged (stdin -> server, server stdout -> stdout; the server's stderr
is inherited). The log is in the record format `mcp-check` reads, one line per message:

    {"from": "client", "message": {...}}

`message` is the line as it was sent (byte for byte), or `text` holds a line that is not JSON.
Standard library only, so it runs under any Python 3.
"""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
import threading
import time
from typing import TextIO


class WireLog:
    """The JSON Lines log, shared by the two forwarding directions."""

    def __init__(self, file: TextIO) -> None:
        self.file = file
        self.start = time.monotonic()
        self.lock = threading.Lock()

    def record(self, sender: str, line: bytes) -> None:
        text = line.decode("utf-8", errors="replace").rstrip("\r\n")
        try:
            json.loads(text)
            entry = '{"from": "%s", "message": %s}' % (sender, text.strip())
        except ValueError:
            entry = json.dumps({"from": sender, "text": text}, ensure_ascii=False)
        with self.lock:
            self.file.write(entry + "\n")
            self.file.flush()


def client_to_server(log: WireLog, child: subprocess.Popen[bytes]) -> None:
    """Forwards our stdin to the server; at EOF closes the server's stdin (the stdio shutdown signal)."""
    assert child.stdin is not None
    try:
        for line in sys.stdin.buffer:
            log.record("client", line)
            child.stdin.write(line)
            child.stdin.flush()
    except (BrokenPipeError, ValueError):
        pass  # the server is gone
    finally:
        with contextlib.suppress(BrokenPipeError):
            child.stdin.close()


def server_to_client(log: WireLog, child: subprocess.Popen[bytes]) -> None:
    """Forwards the server's stdout to ours until the server closes it."""
    assert child.stdout is not None
    try:
        for line in child.stdout:
            log.record("server", line)
            sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()
    except BrokenPipeError:
        child.terminate()  # the client is gone


def main() -> int:
    args = sys.argv[1:]
    if len(args) < 3 or args[1] != "--":
        print(__doc__, file=sys.stderr)
        return 2
    log_path, command = args[0], args[2:]

    with open(log_path, "w", encoding="utf-8") as file:
        log = WireLog(file)
        child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        # Pass a polite stop on to the server; the client side then sees its stdout end.
        signal.signal(signal.SIGTERM, lambda *_: child.terminate())
        threading.Thread(target=client_to_server, args=(log, child), daemon=True).start()
        server_to_client(log, child)
        return child.wait()


if __name__ == "__main__":
    sys.exit(main())
