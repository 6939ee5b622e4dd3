// The official TypeScript SDK (2025-11-25) as the client of the example server
// (examples/src/bin/server.rs), whose tools are `mcp_typed::mrtr::serve` handlers: here they
// ask through live server requests, which this client answers.
//
//   node tests/interop/sdk_example_client.mjs <path to the example server binary>
//
// Run by examples/tests/typescript_sdk.rs. The last line on stdout is a JSON report.

import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
    CreateMessageRequestSchema,
    ElicitRequestSchema,
    ListRootsRequestSchema
} from '@modelcontextprotocol/sdk/types.js';

const serverPath = process.argv[2];
assert.ok(serverPath, 'usage: node sdk_example_client.mjs <example server binary>');
const TIMEOUT_MS = 5000;

const client = new Client(
    { name: 'mcp-typed-ts-example-client', version: '1.0.0' },
    { capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: { listChanged: true } } }
);
const asked = [];

/** A value for each property: its default, else one of its type (a fraction for a number). */
function fill(schema) {
    const content = {};
    for (const [name, p] of Object.entries(schema.properties)) {
        if ('default' in p) content[name] = p.default;
        else if (p.type === 'string' && p.oneOf) content[name] = p.oneOf[0].const;
        else if (p.type === 'string' && p.enum) content[name] = p.enum[0];
        else if (p.type === 'string' && p.format === 'email') content[name] = 'ts@example.com';
        else if (p.type === 'string') content[name] = 'TypeScript';
        else if (p.type === 'integer') content[name] = p.minimum ?? 1;
        else if (p.type === 'number') content[name] = ((p.minimum ?? 0) + (p.maximum ?? 10)) / 2 + 0.25;
        else if (p.type === 'boolean') content[name] = true;
        else if (p.type === 'array') content[name] = [(p.items.anyOf?.[0].const) ?? p.items.enum[0]];
    }
    return content;
}

client.setRequestHandler(ElicitRequestSchema, async request => {
    asked.push(`elicitation/create:${request.params.mode ?? 'form'}`);
    if (request.params.mode === 'url') return { action: 'accept' };
    return { action: 'accept', content: fill(request.params.requestedSchema) };
});
client.setRequestHandler(CreateMessageRequestSchema, async () => {
    asked.push('sampling/createMessage');
    return { role: 'assistant', content: { type: 'text', text: 'a TypeScript summary' }, model: 'ts-model' };
});
client.setRequestHandler(ListRootsRequestSchema, async () => {
    asked.push('roots/list');
    return { roots: [{ uri: 'file:///ts/root', name: 'ts' }] };
});

const transport = new StdioClientTransport({ command: serverPath, args: [], stderr: 'inherit' });
await client.connect(transport, { timeout: TIMEOUT_MS });
const report = { serverInfo: client.getServerVersion(), tools: {}, asked };
const { tools } = await client.listTools();
for (const tool of tools) {
    const args = {};
    for (const [name, p] of Object.entries(tool.inputSchema.properties ?? {})) {
        if ((tool.inputSchema.required ?? []).includes(name)) args[name] = p.default;
    }
    const result = await client.callTool({ name: tool.name, arguments: args }, undefined, { timeout: TIMEOUT_MS });
    assert.ok(!result.isError, `${tool.name} failed: ${JSON.stringify(result)}`);
    report.tools[tool.name] = result.content.map(block => block.text).join('\n');
}
await client.close();
console.log(JSON.stringify(report));
