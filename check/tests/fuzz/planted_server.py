"""A stdio MCP server (2025-11-25 and older) with a fault planted, for `mcp-check fuzz`'s tests.

    python planted_server.py ok        # no fault
    python planted_server.py invalid   # `count` answers n % 7 == 3 with a content block without `type`
    python planted_server.py crash     # the process exits on n > 90, a legal argument
    python planted_server.py tags      # a second tool, `tag`, answers any call with `tags`
                                       # with an error (-32603), whatever else it has
    python planted_server.py tags-crash  # the same `tag`, and the process exits on a call
                                         # with `tags`
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

if MODE in ("tags", "tags-crash"):
    TOOLS.append(
        {
            "name": "tag",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "minLength": 1, "maxLength": 40},
                    "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 5},
                    "loud": {"type": "boolean"},
                    "level": {"type": "integer", "minimum": 0, "maximum": 9},
                },
                "required": ["name"],
            },
        }
    )

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
    elif method == "tools/call" and message["params"]["name"] == "tag":
        if "tags" in message["params"]["arguments"] and MODE == "tags-crash":
            sys.exit(4)
        if "tags" in message["params"]["arguments"]:
            reply["error"] = {"code": -32603, "message": "tags are not supported"}
        else:
            reply["result"] = {"content": [{"type": "text", "text": "tagged"}]}
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
