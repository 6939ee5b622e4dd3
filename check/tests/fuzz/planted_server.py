"""A stdio MCP server (2025-11-25 and older) with a fault planted, for `mcp-check fuzz`'s tests.

    python planted_server.py ok        # no fault
    python planted_server.py invalid   # `count` answers n % 7 == 3 with a content block without `type`
    python planted_server.py crash     # the process exits on n > 90, a legal argument
"""

import json
import sys

MODE = sys.argv[1]
TOOLS = [
    {
        "name": "count",
        "inputSchema": {
            "type": "object",
            "properties": {"n": {"type": "integer", "minimum": 0, "maximum": 100}},
            "required": ["n"],
        },
    }
]

for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message or "method" not in message:
        continue
    method = message["method"]
    reply = {"jsonrpc": "2.0", "id": message["id"]}
    if method == "initialize":
        reply["result"] = {
            "protocolVersion": message["params"]["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "planted", "version": "1.0.0"},
        }
    elif method == "tools/list":
        reply["result"] = {"tools": TOOLS}
    elif method == "tools/call":
        n = message["params"]["arguments"]["n"]
        if MODE == "crash" and n > 90:
            sys.exit(3)
        if MODE == "invalid" and n % 7 == 3:
            reply["result"] = {"content": [{"text": str(n)}]}
        else:
            reply["result"] = {"content": [{"type": "text", "text": str(n)}]}
    else:
        reply["error"] = {"code": -32601, "message": f"no method {method}"}
    print(json.dumps(reply), flush=True)
