"""An MCP client on the official Python SDK (mcp==2.3.0), for interop tests.

    python client.py --protocol 2026-07-28|2025-11-25 [options] -- <server command and args...>
    python client.py --protocol 2026-07-28 -- python server.py      # against the Python server
    python client.py --protocol 2026-07-28 --url http://127.0.0.1:8000/mcp   # Streamable HTTP

Options: `--no-discover` (2026-07-28 without the `server/discover` probe),
`--resources-and-prompts` (also read every resource and one instance of each template, get
every prompt; failures count as errors), `--timeout` (whole session, default 45 s; shutting the
server down adds at most a few seconds), `--request-timeout` (one request, default 15 s),
`--url URL` (talk Streamable HTTP to a running server at URL instead of spawning one).

Spawns the server (full environment, stderr passed through) over stdio and talks to it in the chosen protocol era:

- 2025-11-25: `Client(mode="legacy")`, the `initialize` handshake; the server sends live
  `elicitation/create`, `sampling/createMessage` and `roots/list` requests. If the server
  declares `logging`, the client sends `logging/setLevel` "debug" first.
- 2026-07-28: `Client(mode="auto")` probes `server/discover` and adopts 2026-07-28 (a
  fallback to `initialize` is reported as an error); with `--no-discover`,
  `Client(mode="2026-07-28")` adopts the version without a probe. Every request carries its
  own `_meta` (protocol version, client info, capabilities, log level), and the SDK drives
  the multi round-trip flow: `InputRequiredResult` -> the callbacks below -> retry with
  `inputResponses` + `requestState`.

The client declares elicitation (form and url), sampling and roots, lists all tools and
calls each one with arguments built from its `inputSchema`. The callbacks answer
automatically: forms are accepted with values built from `requestedSchema`, URL
elicitations are accepted, sampling replies "sampled reply" (model "python-test-model"),
and roots/list returns the working directory as "cwd".

Output: one line `TOOL <name>: <text>` per tool (text blocks joined with "\\n", written
here as a literal backslash-n), then, as the last line of stdout, a JSON report:

    {"protocol": ..., "server": {...}, "tools": {name: text or null}, "errors": [...],
     "callbacks": [...], "notifications": {...}}

Exit status 0 iff every tool call succeeded (no protocol error, no `isError`).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, MCPError, StdioServerParameters, UriTemplate
from mcp.client import ClientRequestContext
from mcp.shared.exceptions import MCPDeprecationWarning
from mcp_types import (
    CallToolResult,
    ContentBlock,
    CreateMessageRequestParams,
    CreateMessageResult,
    ElicitRequestFormParams,
    ElicitRequestParams,
    ElicitResult,
    Implementation,
    ListRootsResult,
    LoggingMessageNotificationParams,
    Root,
    TextContent,
)

# Logging, sampling and roots are deprecated in 2026-07-28 (SEP-2577); exercising them is the point.
warnings.simplefilter("ignore", MCPDeprecationWarning)

PROTOCOLS = ("2026-07-28", "2025-11-25")
CLIENT_INFO = Implementation(name="python-interop-client", version="1.0.0")
SAMPLED_REPLY = "sampled reply"
SAMPLING_MODEL = "python-test-model"


# --- values built from JSON Schema -----------------------------------------------------------------

STRING_FORMATS = {
    "email": "ada@example.com",
    "uri": "https://example.com",
    "date": "2026-01-02",
    "date-time": "2026-01-02T03:04:05Z",
}
PATTERN_CANDIDATES = ("text", "abc", "a", "A", "1", "123", "a1", "x-1", "2026-01-02", "ada@example.com")


def first_option(prop: dict[str, Any]) -> Any:
    """The first option of a single select: `enum[0]`, or `oneOf`/`anyOf[0].const` (titled enums)."""
    if prop.get("enum"):
        return prop["enum"][0]
    for key in ("oneOf", "anyOf"):
        for option in prop.get(key) or []:
            if isinstance(option, dict) and "const" in option:
                return option["const"]
    return None


def bounds(prop: dict[str, Any]) -> tuple[float, float]:
    """The inclusive-ish bounds of a number: `minimum`/`maximum`, nudged inside exclusive ones."""
    lo, hi = prop.get("minimum", -math.inf), prop.get("maximum", math.inf)
    if isinstance(prop.get("exclusiveMinimum"), int | float):
        lo = max(lo, prop["exclusiveMinimum"] + 1e-6)
    if isinstance(prop.get("exclusiveMaximum"), int | float):
        hi = min(hi, prop["exclusiveMaximum"] - 1e-6)
    return lo, hi


def number_value(prop: dict[str, Any], preferred: float) -> float:
    """A non-integer number within bounds: `preferred` if it fits, else the midpoint (or near a bound)."""
    lo, hi = bounds(prop)
    if lo <= preferred <= hi:
        return preferred
    if math.isfinite(lo) and math.isfinite(hi):
        mid = (lo + hi) / 2
        return mid if mid != int(mid) or lo == hi else lo + (hi - lo) / 4
    return lo + 0.5 if math.isfinite(lo) else hi - 0.5


def integer_value(prop: dict[str, Any]) -> int:
    """`minimum` (rounded up) if there is one, else 1; kept within `maximum`."""
    lo, hi = bounds(prop)
    value = math.ceil(lo) if math.isfinite(lo) else 1
    return min(value, math.floor(hi)) if math.isfinite(hi) else value


def string_value(prop: dict[str, Any]) -> str:
    """A string for `format`, `pattern`, `minLength` and `maxLength`."""
    if prop.get("format") in STRING_FORMATS:
        return STRING_FORMATS[prop["format"]]
    value = "text"
    if pattern := prop.get("pattern"):
        value = next((c for c in PATTERN_CANDIDATES if re.search(pattern, c)), value)
    min_length, max_length = prop.get("minLength", 0), prop.get("maxLength")
    while len(value) < min_length:
        value += value
    return value[:max_length] if max_length is not None else value


def schema_value(prop: dict[str, Any], *, number: float, defs: dict[str, Any] | None = None) -> Any:
    """A valid value for one property schema: its default, else one of its type.

    `number` is the preferred value for a `number` (2.5 for tool arguments, 3.5 in forms).
    """
    defs = defs or {}
    if "$ref" in prop:
        prop = {**defs.get(prop["$ref"].rsplit("/", 1)[-1], {}), **{k: v for k, v in prop.items() if k != "$ref"}}
    if "default" in prop:
        return prop["default"]
    if "const" in prop:
        return prop["const"]
    if (option := first_option(prop)) is not None:
        return option
    kind = prop.get("type")
    if isinstance(kind, list):  # e.g. ["string", "null"]
        kind = next((k for k in kind if k != "null"), "null")
    if kind is None:
        for key in ("anyOf", "oneOf", "allOf"):
            if prop.get(key):  # a union: the first non-null arm
                arm = next((a for a in prop[key] if a.get("type") != "null"), prop[key][0])
                return schema_value(arm, number=number, defs=defs)
    match kind:
        case "string":
            return string_value(prop)
        case "integer":
            return integer_value(prop)
        case "number":
            return number_value(prop, number)
        case "boolean":
            return True
        case "null":
            return None
        case "array":
            items = prop.get("items") or {}
            titled = items.get("anyOf") or items.get("oneOf") or []
            options = items.get("enum") or [option["const"] for option in titled if "const" in option]
            if options:  # a multi-select: the first option(s), distinct
                return options[: max(1, prop.get("minItems", 1))]
            item = schema_value(items, number=number, defs=defs) if items else "text"
            return [item] * max(1, prop.get("minItems", 1))
        case "object":
            return object_value(prop, number=number, defs=defs, required_only=True)
    return "text"


def object_value(
    schema: dict[str, Any], *, number: float, defs: dict[str, Any] | None = None, required_only: bool
) -> dict[str, Any]:
    """Values for an object schema's properties (only the required ones if `required_only`)."""
    defs = {**(defs or {}), **schema.get("$defs", {}), **schema.get("definitions", {})}
    properties: dict[str, Any] = schema.get("properties") or {}
    names = schema.get("required", []) if required_only else list(properties)
    return {name: schema_value(properties.get(name, {}), number=number, defs=defs) for name in names}


def tool_arguments(input_schema: dict[str, Any]) -> dict[str, Any]:
    """Arguments for a tool: a value for each required property."""
    return object_value(input_schema, number=2.5, required_only=True)


def form_content(requested_schema: dict[str, Any]) -> dict[str, Any]:
    """An accepted form: a value for every property (numbers prefer the non-integer 3.5)."""
    return object_value(requested_schema, number=3.5, required_only=False)


# --- the client -----------------------------------------------------------------------------------


@dataclass
class Report:
    protocol: str
    server: dict[str, Any] | None = None
    tools: dict[str, str | None] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    callbacks: list[str] = field(default_factory=list)
    notifications: dict[str, int] = field(default_factory=lambda: {"progress": 0, "message": 0})
    resources: dict[str, str] | None = None
    prompts: dict[str, str] | None = None


class Callbacks:
    """The client's answers to the server's input requests (live in 2025-11-25, embedded in 2026-07-28)."""

    def __init__(self, report: Report) -> None:
        self.report = report

    async def elicitation(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        if isinstance(params, ElicitRequestFormParams):
            self.report.callbacks.append("elicitation/create:form")
            return ElicitResult(action="accept", content=form_content(params.requested_schema))
        self.report.callbacks.append("elicitation/create:url")
        return ElicitResult(action="accept")

    async def sampling(self, context: ClientRequestContext, params: CreateMessageRequestParams) -> CreateMessageResult:
        self.report.callbacks.append("sampling/createMessage")
        return CreateMessageResult(
            role="assistant",
            content=TextContent(type="text", text=SAMPLED_REPLY),
            model=SAMPLING_MODEL,
            stop_reason="endTurn",
        )

    async def list_roots(self, context: ClientRequestContext) -> ListRootsResult:
        self.report.callbacks.append("roots/list")
        return ListRootsResult(roots=[Root(uri=Path.cwd().as_uri(), name="cwd")])

    async def logging(self, params: LoggingMessageNotificationParams) -> None:
        self.report.notifications["message"] += 1

    async def progress(self, progress: float, total: float | None, message: str | None) -> None:
        self.report.notifications["progress"] += 1


def content_text(content: list[ContentBlock]) -> str:
    """The text blocks of a result joined with newlines; other blocks as `<type>`."""
    return "\n".join(block.text if isinstance(block, TextContent) else f"<{block.type}>" for block in content)


def describe(exc: BaseException) -> str:
    """One line per leaf exception (task groups wrap callback failures in exception groups)."""
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(describe(inner) for inner in exc.exceptions)
    if isinstance(exc, MCPError):
        return f"MCPError {exc.error.code}: {exc.error.message}"
    return f"{type(exc).__name__}: {exc}"


async def call_tools(client: Client, report: Report, callbacks: Callbacks) -> None:
    tools, cursor = [], None
    while True:
        page = await client.list_tools(cursor=cursor)
        tools += page.tools
        if (cursor := page.next_cursor) is None:
            break
    for tool in tools:
        try:
            result: CallToolResult = await client.call_tool(
                tool.name, tool_arguments(tool.input_schema), progress_callback=callbacks.progress
            )
        except Exception as exc:
            report.tools[tool.name] = None
            report.errors.append(f"tool {tool.name}: {describe(exc)}")
            print(f"TOOL {tool.name}: <error> {describe(exc)}", flush=True)
            continue
        text = content_text(result.content)
        report.tools[tool.name] = text
        if result.is_error:
            report.errors.append(f"tool {tool.name}: isError: {text}")
        print(f"TOOL {tool.name}: {text}".replace("\n", "\\n"), flush=True)


async def read_resources_and_prompts(client: Client, report: Report) -> None:
    """Reads every resource (and one instance of each template) and gets every prompt."""
    report.resources, report.prompts = {}, {}
    capabilities = client.server_capabilities
    if capabilities.resources is not None:
        uris = [resource.uri for resource in (await client.list_resources()).resources]
        for template in (await client.list_resource_templates()).resource_templates:
            # One instance of each template, every variable set to "1".
            parsed = UriTemplate.parse(template.uri_template)
            uris.append(parsed.expand({name: "1" for name in parsed.variable_names}))
        for uri in uris:
            try:
                contents = (await client.read_resource(uri)).contents
                report.resources[uri] = "\n".join(getattr(c, "text", "<blob>") for c in contents)
            except Exception as exc:
                report.errors.append(f"resource {uri}: {describe(exc)}")
    if capabilities.prompts is not None:
        for prompt in (await client.list_prompts()).prompts:
            arguments = {a.name: "text" for a in prompt.arguments or [] if a.required}
            try:
                messages = (await client.get_prompt(prompt.name, arguments)).messages
                report.prompts[prompt.name] = content_text([m.content for m in messages])
            except Exception as exc:
                report.errors.append(f"prompt {prompt.name}: {describe(exc)}")


def connect_mode(protocol: str, *, discover: bool) -> str:
    """The SDK client's `mode=`: how it opens the connection."""
    if protocol == "2025-11-25":
        return "legacy"  # the initialize handshake
    # "auto" probes server/discover (and would fall back to initialize, which run() reports);
    # a version string adopts that version outright, without any handshake.
    return "auto" if discover else protocol


async def run(args: argparse.Namespace, command: list[str]) -> Report:
    report = Report(protocol=args.protocol)
    callbacks = Callbacks(report)
    # A URL string is the SDK's Streamable HTTP transport.
    server = args.url or StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
    client = Client(
        server,
        mode=connect_mode(args.protocol, discover=not args.no_discover),
        client_info=CLIENT_INFO,
        read_timeout_seconds=args.request_timeout,
        elicitation_callback=callbacks.elicitation,
        sampling_callback=callbacks.sampling,
        list_roots_callback=callbacks.list_roots,
        logging_callback=callbacks.logging,
        log_level="debug",  # 2026-07-28: stamps the per-request `_meta` log-level opt-in
        cache=None,  # every list call goes to the wire
    )
    try:
        with anyio.fail_after(args.timeout):
            async with client:
                negotiated = client.protocol_version
                info = client.server_info
                report.server = info.model_dump(mode="json", exclude_none=True) if info else None
                if negotiated != args.protocol:
                    report.errors.append(f"negotiated protocol {negotiated}, expected {args.protocol}")
                    return report
                if negotiated == "2025-11-25" and client.server_capabilities.logging is not None:
                    await client.set_logging_level("debug")
                await call_tools(client, report, callbacks)
                if args.resources_and_prompts:
                    await read_resources_and_prompts(client, report)
    except TimeoutError:
        report.errors.append(f"timed out after {args.timeout} s")
    except Exception as exc:
        report.errors.append(f"session: {describe(exc)}")
    return report


def parse_args() -> tuple[argparse.Namespace, list[str]]:
    argv = sys.argv[1:]
    if "--" not in argv and "--url" not in argv:
        sys.exit("usage: client.py --protocol 2026-07-28|2025-11-25 [options] -- <server command...>")
    split = argv.index("--") if "--" in argv else len(argv)
    parser = argparse.ArgumentParser(description="MCP interop client on the official Python SDK.")
    parser.add_argument("--protocol", required=True, choices=PROTOCOLS)
    parser.add_argument(
        "--no-discover", action="store_true", help="2026-07-28: adopt the version without a server/discover probe"
    )
    parser.add_argument(
        "--resources-and-prompts", action="store_true", help="also read every resource and get every prompt"
    )
    parser.add_argument("--timeout", type=float, default=45.0, help="limit for the whole session (s)")
    parser.add_argument("--request-timeout", type=float, default=15.0, help="limit for one request (s)")
    parser.add_argument("--url", help="a Streamable HTTP server's URL, instead of a server command")
    args = parser.parse_args(argv[:split])
    command = argv[split + 1 :]
    if not command and not args.url:
        parser.error("no server command after --")
    return args, command


def main() -> int:
    args, command = parse_args()
    report = anyio.run(run, args, command)
    summary = asdict(report)
    for optional in ("resources", "prompts"):  # only with --resources-and-prompts
        if summary[optional] is None:
            del summary[optional]
    print(json.dumps(summary), flush=True)
    return 0 if not report.errors else 1


if __name__ == "__main__":
    sys.exit(main())
