"""A Streamable HTTP server on the official Python SDK (mcp==2.3.0) whose tool mirrors two of
its arguments into `Mcp-Param-*` headers (`x-mcp-header`, 2026-07-28), for `mcp-check fuzz`'s
tests: the SDK refuses a 2026-07-28 `tools/call` whose headers do not match its arguments
(-32001, HTTP 400).

    python routed_server.py PORT    # http://127.0.0.1:PORT/mcp
"""

import sys
from typing import Annotated

from pydantic import Field

from mcp.server.mcpserver import MCPServer

mcp = MCPServer(name="routed", version="1.0.0", log_level="WARNING")


@mcp.tool(structured_output=False)
def query(
    region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})],
    shard: Annotated[int, Field(ge=0, json_schema_extra={"x-mcp-header": "Shard"})],
    sql: str,
    dry_run: Annotated[bool, Field(json_schema_extra={"x-mcp-header": "Dry-Run"})] = False,
) -> str:
    """Runs `sql` in `region` on `shard`."""
    return f"query: region={region!r}, shard={shard}, dry_run={dry_run}"


if __name__ == "__main__":
    mcp.run("streamable-http", host="127.0.0.1", port=int(sys.argv[1]))
