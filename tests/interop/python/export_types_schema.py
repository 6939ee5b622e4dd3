"""Writes the JSON Schema pydantic makes of the Python SDK's protocol types (`mcp.types`), as one
document on standard output: what a producer other than the official TypeScript schema writes,
for tests/tests/pydantic_sdk_schema.rs to generate Rust from.

Which types: the six direction unions (ClientRequest, ServerRequest, ClientNotification,
ServerNotification, ClientResult, ServerResult) are what the SDK itself decodes each direction's
messages with, so together they reach every message type of the protocol and everything those
messages hold; under these names the generator builds its message layer from them, as from the
official schema. JSONRPCMessage adds the JSON-RPC envelopes (JSONRPCRequest, JSONRPCError, …),
and RequestId the id type the message layer needs by name. With `--unions-only`, RequestId is
left out: pydantic then writes that type alias inline wherever it is used (each `id` an `anyOf`
of string and integer), as an export of the unions alone does. Each is exported with
`TypeAdapter(...).json_schema()` (mode "validation", pydantic's default), all of them in one call
so that the definitions they share are written once, under `$defs`.

Usage: python export_types_schema.py [--unions-only] > schema.json
"""

import json
import sys

import mcp.types as types
from pydantic import TypeAdapter

ROOTS = [
    "ClientRequest",
    "ServerRequest",
    "ClientNotification",
    "ServerNotification",
    "ClientResult",
    "ServerResult",
    "JSONRPCMessage",
    "RequestId",
]


def main() -> None:
    args = sys.argv[1:]
    if args not in ([], ["--unions-only"]):
        sys.exit("usage: export_types_schema.py [--unions-only]")
    roots = [r for r in ROOTS if not (args and r == "RequestId")]
    inputs = [(name, "validation", TypeAdapter(getattr(types, name))) for name in roots]
    keys, schema = TypeAdapter.json_schemas(inputs, ref_template="#/$defs/{model}")
    defs = schema.setdefault("$defs", {})
    for (name, mode), root in keys.items():
        # A union's schema is an `anyOf` of `$ref`s, a model's a `$ref` to its definition:
        # either way the root becomes a definition of its own name (a model's is already there).
        if root.get("$ref") == f"#/$defs/{name}":
            continue
        if name in defs:
            sys.exit(f"{name}: pydantic already defines another type of that name")
        defs[name] = root
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs}
    json.dump(document, sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
