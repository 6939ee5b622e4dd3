//! Integration tests for `mcp-schema` and `mcp-codegen`; see `tests/`.
