// The official TypeScript SDK as the client of our example server (tests/src/bin/interop_server.rs).
//
//   node tests/interop/sdk_client.mjs <path to the interop-server binary>
//
// Run by tests/tests/interop.rs. Every check is an assertion here; the last line on stdout is a
// JSON report that the Rust test asserts on again, so a silently skipped step is noticed there.

import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
    ElicitRequestSchema,
    ElicitationCompleteNotificationSchema,
    ErrorCode,
    ListResourcesResultSchema,
    McpError,
    UrlElicitationRequiredError
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

const serverPath = process.argv[2];
assert.ok(serverPath, 'usage: node sdk_client.mjs <interop-server binary>');

const TIMEOUT_MS = 5000;
const ajv = new AjvJsonSchemaValidator();

/** Connects a client declaring `elicitation` (undefined: no elicitation capability). */
async function connect(elicitation, more = {}) {
    const capabilities = elicitation === undefined ? { ...more } : { elicitation, ...more };
    const client = new Client({ name: 'mcp-typed-interop-sdk-client', version: '1.0.0' }, { capabilities });
    const state = { answers: [], requests: [], completions: [], events: [], waiters: [], negotiated: undefined, wire: [], errors: [] };
    // Protocol errors the SDK noticed (a response to an unknown id, a message it cannot read).
    client.onerror = error => state.errors.push(String(error));
    if (elicitation !== undefined) {
        client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
            // The request as it came off the wire (the handler's copy went through zod already).
            const raw = state.wire.find(m => m.method === 'elicitation/create' && m.id === extra.requestId);
            assert.ok(raw, 'the raw elicitation request was seen');
            state.requests.push(raw.params);
            state.events.push(`elicit:${raw.params.mode ?? 'form'}`);
            // The SDK's own zod schemas know every keyword we sent: zod drops unknown keys, so an
            // equal parse means nothing was unknown to them.
            const parsed = ElicitRequestSchema.parse(raw);
            assert.deepEqual(parsed.params, raw.params, 'the SDK schema drops nothing from our request');
            const answer = state.answers.shift();
            assert.ok(answer, `an elicitation request nobody expected: ${JSON.stringify(raw.params)}`);
            return answer(raw.params);
        });
    }
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, notification => {
        const id = notification.params.elicitationId;
        state.completions.push(id);
        state.events.push(`complete:${id}`);
        for (const waiter of state.waiters.filter(w => w.id === id)) waiter.resolve();
    });
    const transport = new StdioClientTransport({ command: serverPath, args: [], stderr: 'inherit' });
    // A tap on what the transport read, before the client sees it.
    // (Protocol.connect chains to a handler already set: there is none before it sets its own.)
    let deliver;
    const tap = (message, extra) => {
        state.wire.push(structuredClone(message));
        deliver(message, extra);
    };
    Object.defineProperty(transport, 'onmessage', {
        get: () => deliver && tap,
        set: handler => {
            deliver = handler;
        }
    });
    transport.setProtocolVersion = version => {
        state.negotiated = version;
    };
    await client.connect(transport, { timeout: TIMEOUT_MS });
    return { client, state };
}

function completion(state, id) {
    if (state.completions.includes(id)) return Promise.resolve();
    return new Promise((resolve, reject) => {
        state.waiters.push({ id, resolve });
        setTimeout(() => reject(new Error(`no notifications/elicitation/complete for ${id}`)), TIMEOUT_MS);
    });
}

const call = (client, name) => client.callTool({ name, arguments: {} }, undefined, { timeout: TIMEOUT_MS });

/** The code of the protocol error a promise is rejected with. */
async function errorOf(promise) {
    try {
        const result = await promise;
        assert.fail(`expected a JSON-RPC error, got ${JSON.stringify(result)}`);
    } catch (error) {
        assert.ok(error instanceof McpError, `not an McpError: ${error}`);
        return error;
    }
}

/** A form answer: the schema's defaults (what a UI pre-fills) overridden by what the user typed. */
function filled(schema, typed) {
    const content = {};
    for (const [name, property] of Object.entries(schema.properties)) {
        if ('default' in property) content[name] = property.default;
    }
    return { ...content, ...typed };
}

const text = result => result.content.map(block => block.text).join('\n');

const report = {};

// ---- A client that declares both modes, as the issue asks: {form: {}, url: {}}.
{
    const { client, state } = await connect({ form: {}, url: {} }, { roots: { listChanged: true } });
    report.protocolVersion = state.negotiated;
    report.serverInfo = client.getServerVersion();
    assert.equal(report.protocolVersion, '2025-11-25');
    assert.equal(report.serverInfo.name, 'mcp-typed-interop-server');
    assert.deepEqual(await client.ping(), {});

    const { tools } = await client.listTools();
    report.tools = tools.map(tool => tool.name);
    assert.deepEqual(report.tools, ['register_contact', 'connect_calendar', 'link_account']);
    assert.equal(tools[0].outputSchema.type, 'object');

    // Accept, with the pre-filled defaults. The SDK validates structuredContent against the
    // tool's outputSchema (listTools cached it).
    let schemaSeen;
    state.answers.push(params => {
        assert.equal(params.mode, 'form');
        schemaSeen = params.requestedSchema;
        const content = filled(params.requestedSchema, {
            name: 'Ada Lovelace',
            email: 'ada@example.com',
            age: 36,
            company: 'Analytical Engines Ltd'
        });
        const verdict = ajv.getValidator(params.requestedSchema)(content);
        assert.ok(verdict.valid, `ajv refuses a valid answer: ${verdict.errorMessage}`);
        return { action: 'accept', content };
    });
    const accepted = await call(client, 'register_contact');
    assert.equal(accepted.isError, undefined);
    assert.equal(accepted.structuredContent.outcome, 'accepted');
    // The form's fields arrive in the order the Rust struct declares them.
    assert.deepEqual(Object.keys(schemaSeen.properties), ['name', 'email', 'age', 'plan', 'topics', 'company']);
    assert.deepEqual(schemaSeen.required, ['name', 'email', 'age', 'plan', 'topics']);
    assert.deepEqual(schemaSeen.properties.plan.oneOf.map(o => o.const), ['free', 'pro', 'team']);
    assert.deepEqual(schemaSeen.properties.topics.default, ['releases', 'security']);
    report.accept = {
        text: text(accepted),
        structured: accepted.structuredContent,
        schema: schemaSeen,
        // (A serde_json::Value on the Rust side sorts keys: the order is reported as a list.)
        order: Object.keys(schemaSeen.properties)
    };

    // Accept, with other choices than the defaults.
    state.answers.push(params =>
        ({ action: 'accept', content: filled(params.requestedSchema, { name: 'Grace', email: 'grace@example.org', age: 85, plan: 'team', topics: ['events'] }) })
    );
    const changed = await call(client, 'register_contact');
    report.acceptChanged = { text: text(changed), structured: changed.structuredContent };

    state.answers.push(() => ({ action: 'decline' }));
    const declined = await call(client, 'register_contact');
    report.decline = { text: text(declined), structured: declined.structuredContent, isError: declined.isError ?? false };

    state.answers.push(() => ({ action: 'cancel' }));
    const cancelled = await call(client, 'register_contact');
    report.cancel = { text: text(cancelled), structured: cancelled.structuredContent, isError: cancelled.isError ?? false };

    // An answer that breaks five constraints. ajv (the SDK's validator) refuses it too.
    const broken = { name: '', email: 'not an email', age: 12, plan: 'gold', topics: ['releases', 'security', 'events'] };
    state.answers.push(params => {
        const verdict = ajv.getValidator(params.requestedSchema)(broken);
        assert.equal(verdict.valid, false, 'ajv accepts the broken answer');
        return { action: 'accept', content: broken };
    });
    const invalid = await call(client, 'register_contact');
    report.invalid = { text: text(invalid), isError: invalid.isError ?? false };

    // URL mode through the error: -32042, then notifications/elicitation/complete, then a retry.
    const required = await errorOf(call(client, 'connect_calendar'));
    assert.ok(required instanceof UrlElicitationRequiredError, `not a UrlElicitationRequiredError: ${required}`);
    assert.equal(required.code, ErrorCode.UrlElicitationRequired);
    const [pending] = required.elicitations;
    assert.equal(required.elicitations.length, 1);
    assert.equal(pending.mode, 'url');
    assert.match(pending.url, /^https:\/\/mcp\.example\.com\/connect\?elicitationId=/);
    await completion(state, pending.elicitationId);
    const retried = await call(client, 'connect_calendar');
    report.urlRequired = {
        code: required.code,
        elicitationId: pending.elicitationId,
        url: pending.url,
        completed: state.completions.includes(pending.elicitationId),
        retry: text(retried),
        retryIsError: retried.isError ?? false
    };

    // URL mode through a request: the result comes after the out-of-band step completed.
    state.answers.push(params => {
        assert.equal(params.mode, 'url');
        assert.match(params.url, /^https:\/\/mcp\.example\.com\/link\?elicitationId=/);
        return { action: 'accept' };
    });
    state.events.length = 0;
    const linked = await call(client, 'link_account');
    const link = state.requests.at(-1);
    report.link = { text: text(linked), elicitationId: link.elicitationId, events: [...state.events] };
    assert.deepEqual(report.link.events, ['elicit:url', `complete:${link.elicitationId}`]);

    state.answers.push(() => ({ action: 'decline' }));
    report.linkDecline = { text: text(await call(client, 'link_account')) };

    // The client's handler fails: the SDK answers our elicitation/create with an error
    // response, which the server decodes and turns into a tool error.
    state.answers.push(() => {
        throw new McpError(ErrorCode.InternalError, 'the form could not be shown');
    });
    const refused = await call(client, 'register_contact');
    report.handlerError = { text: text(refused), isError: refused.isError ?? false };

    // A fractional age for an integer field: the message decodes (any number is an answer),
    // and the form refuses it: the tool call fails naming the member.
    state.answers.push(params => ({
        action: 'accept',
        content: filled(params.requestedSchema, { name: 'Ada', email: 'ada@example.com', age: 36.5 })
    }));
    const fractional = await call(client, 'register_contact');
    report.fractional = { text: text(fractional), isError: fractional.isError ?? false };

    // The user gives up while the form is open: the SDK sends notifications/cancelled for the
    // tools/call; the server forgets the call and ignores the late answer to its form.
    const abort = new AbortController();
    state.answers.push(params => {
        abort.abort('the user closed the tool');
        return { action: 'accept', content: filled(params.requestedSchema, { name: 'Ada', email: 'ada@example.com', age: 36 }) };
    });
    const aborted = await client.callTool({ name: 'register_contact', arguments: {} }, undefined, { signal: abort.signal }).then(
        () => 'completed',
        error => (error instanceof McpError ? `mcp ${error.code}` : 'aborted')
    );
    // The connection is still in order, and nothing answered the cancelled call.
    assert.deepEqual(await client.ping(), {});
    report.cancelled = { outcome: aborted, sdkErrors: [...state.errors] };

    // Progress tokens and a roots notification are read by the server like anything else.
    await client.callTool({ name: 'connect_calendar', arguments: {} }, undefined, { onprogress: () => {}, timeout: TIMEOUT_MS });
    await client.sendRootsListChanged();
    assert.deepEqual(await client.ping(), {});

    report.unknownTool = (await errorOf(call(client, 'no_such_tool'))).code;
    // Sent although the server declared no resources (the SDK checks only in strict mode).
    report.unknownMethod = (await errorOf(client.request({ method: 'resources/list' }, ListResourcesResultSchema))).code;
    assert.equal(state.answers.length, 0, 'every prepared answer was used');
    report.sdkErrors = state.errors;
    await client.close();
}

// ---- Clients that did not declare URL mode: never sent one, refused with -32602.
for (const [label, elicitation] of [['formOnly', { form: {} }], ['emptyMeansForm', {}], ['noElicitation', undefined]]) {
    const { client, state } = await connect(elicitation);
    const outcome = {};
    outcome.connectCalendar = (await errorOf(call(client, 'connect_calendar'))).code;
    outcome.linkAccount = (await errorOf(call(client, 'link_account'))).code;
    if (elicitation === undefined) {
        outcome.registerContact = (await errorOf(call(client, 'register_contact'))).code;
    } else {
        state.answers.push(params => ({
            action: 'accept',
            content: filled(params.requestedSchema, { name: 'Ada', email: 'ada@example.com', age: 36 })
        }));
        outcome.registerContact = (await call(client, 'register_contact')).structuredContent.outcome;
    }
    outcome.urlRequestsSeen = state.requests.filter(p => p.mode === 'url').length;
    outcome.completions = state.completions.length;
    report[label] = outcome;
    await client.close();
}

console.log(JSON.stringify(report));
