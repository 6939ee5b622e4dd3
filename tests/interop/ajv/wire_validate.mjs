// The conformance suite's wire validation, reproduced outside the suite so that each message can
// be validated on its own: @modelcontextprotocol/conformance 0.2.0-alpha.12, function `qe` of its
// bundle (dist/index.js; source src/validation/wire-schema.ts), with the suite's own installed
// ajv 8.20.0 and ajv-formats 3.0.1 and the same options:
//
// - `{strict: false, allErrors: true}`; Ajv2020 when the schema's `$schema` names 2020-12, else
//   Ajv (draft-07); every ajv-formats format, plus a `byte` format that accepts anything;
// - NumberSchema's `minimum`/`maximum`/`default` typed `number` where the schema says `integer`
//   (2025-06-18 and 2025-11-25 only, as the suite patches them);
// - dispatch: a message with a `method` is validated as the definition whose
//   `properties.method.const` is that method (the Client*/Server* unions skipped, the last such
//   definition winning), an unknown method as JSONRPCRequest/JSONRPCNotification; an error
//   response as the definition whose `error.allOf[].properties.code.const` is its code, else
//   JSONRPCErrorResponse (JSONRPCError in older schemas); a result first as `XxxResult` of the
//   request's `XxxRequest` when the request's method is known (`InputRequiredResult` for
//   `resultType: "input_required"`, nothing for `resultType: "task"`), and only when that passes
//   as the response envelope.
//
// Differences from the suite, on purpose: the schema is read from `schemaPath` (the suite embeds
// its own copies; the mirror's are the ones this project pins), 2024-11-05 is accepted (the
// suite has no schema for it: validated the same way, draft-07), and every error is returned
// (the suite keeps 6). `from` is accepted and ignored: the suite's dispatch does not use it.
//
// The suite's folder (its package.json, node_modules with ajv) is `$MCP_CONFORMANCE_SUITE_DIR`,
// else the checkout's target/conformance-suite.

import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The folder of the installed conformance suite. */
export function suiteDir() {
  return process.env.MCP_CONFORMANCE_SUITE_DIR || path.resolve(here, '../../../target/conformance-suite');
}

let modules;
/** ajv, Ajv2020 and ajv-formats as the suite resolves them. */
function ajvModules() {
  if (!modules) {
    const require = createRequire(path.join(suiteDir(), 'package.json'));
    modules = {
      Ajv: require('ajv').Ajv,
      Ajv2020: require('ajv/dist/2020.js').Ajv2020,
      addFormats: require('ajv-formats').default,
    };
  }
  return modules;
}

// The unions the suite does not dispatch to (src/validation/wire-schema.ts).
const UNIONS = new Set([
  'ClientRequest', 'ClientNotification', 'ClientResult', 'ClientMessage',
  'ServerRequest', 'ServerNotification', 'ServerResult', 'ServerMessage',
]);
// Result types of extensions: their results are checked against the envelope only. (The suite's
// set of core ones, complete and input_required, only words its messages.)
const EXTENSION_RESULT_TYPES = new Set(['task']);

/** The suite's patch of NumberSchema (its copies of these two revisions typed them integer). */
function patchNumberSchema(revision, schema) {
  if (revision !== '2025-11-25' && revision !== '2025-06-18') return schema;
  const out = structuredClone(schema);
  const defs = out.$defs ?? out.definitions;
  for (const key of ['minimum', 'maximum', 'default']) {
    const member = defs.NumberSchema?.properties?.[key];
    if (member?.type === 'integer') member.type = 'number';
  }
  return out;
}

/** The compiled schema of one revision and its dispatch tables (the suite's `Ge`). */
function compile(revision, official) {
  const { Ajv, Ajv2020, addFormats } = ajvModules();
  const schema = patchNumberSchema(revision, official);
  const is2020 = typeof schema.$schema === 'string' && schema.$schema.includes('2020-12');
  const options = { strict: false, allErrors: true };
  const ajv = is2020 ? new Ajv2020(options) : new Ajv(options);
  addFormats(ajv);
  ajv.addFormat('byte', true);
  const id = `mcp://${revision === '2026-07-28' ? 'draft' : revision}/schema.json`;
  ajv.addSchema({ ...schema, $id: id });
  const defsKey = '$defs' in schema ? '$defs' : 'definitions';
  const defs = schema[defsKey];
  const methodDefs = new Map();
  const errorDefs = new Map();
  const resultDefs = new Map();
  for (const [name, def] of Object.entries(defs)) {
    if (UNIONS.has(name)) continue;
    const properties = def.properties ?? {};
    const method = properties.method?.const;
    if (typeof method === 'string') {
      methodDefs.set(method, name);
      if (name.endsWith('Request')) {
        const result = `${name.slice(0, -'Request'.length)}Result`;
        if (result in defs) resultDefs.set(method, result);
      }
    }
    for (const part of properties.error?.allOf ?? []) {
      const code = part.properties?.code?.const;
      if (typeof code === 'number') errorDefs.set(code, name);
    }
  }
  const validators = new Map();
  const validatorFor = (name) => {
    let validator = validators.get(name);
    if (!validator) {
      validator = ajv.compile({ $ref: `${id}#/${defsKey}/${name}` });
      validators.set(name, validator);
    }
    return validator;
  };
  return { defs, methodDefs, errorDefs, resultDefs, validatorFor };
}

/** ajv's errors as `{pointer, keyword, message}`, pointers from the message's root. */
function errorsOf(definition, validator, value, prefix) {
  if (validator(value)) return [];
  return (validator.errors ?? []).map((e) => ({
    pointer: prefix + (e.instancePath || ''),
    keyword: e.keyword,
    message: `${definition}: ${e.message ?? 'invalid'}` +
      (e.keyword === 'const' || e.keyword === 'enum' ? ` (${JSON.stringify(e.params)})` : ''),
  }));
}

/** The suite's `qe`: the errors of one message (or batch) of the compiled revision `c`. */
function validateMessage(c, message, requestMethod, prefix) {
  const check = (name, value, at = prefix) => errorsOf(name, c.validatorFor(name), value, at);
  const firstDefined = (...names) => names.find((n) => n in c.defs) ?? names[names.length - 1];
  if (Array.isArray(message)) {
    const inner = message.flatMap((m, i) => validateMessage(c, m, requestMethod, `${prefix}/${i}`));
    if (inner.length > 0) return inner;
    return check('JSONRPCMessage', message).length > 0
      ? [{ pointer: prefix, keyword: 'batch', message: 'JSONRPCMessage: batch arrays are not valid in this spec version' }]
      : [];
  }
  const o = typeof message === 'object' && message ? message : {};
  if (typeof o.method === 'string') {
    return check(c.methodDefs.get(o.method) ?? ('id' in o ? 'JSONRPCRequest' : 'JSONRPCNotification'), message);
  }
  if (o.error !== undefined && o.error !== null) {
    const code = o.error.code;
    const byCode = typeof code === 'number' ? c.errorDefs.get(code) : undefined;
    return check(byCode ?? firstDefined('JSONRPCErrorResponse', 'JSONRPCError'), message);
  }
  if (o.result !== undefined) {
    const resultType = o.result?.resultType;
    const inputRequired = resultType === 'input_required' && 'InputRequiredResult' in c.defs;
    const extension = typeof resultType === 'string' && EXTENSION_RESULT_TYPES.has(resultType);
    let definition;
    if (inputRequired) definition = 'InputRequiredResult';
    else if (!extension && requestMethod !== undefined && requestMethod !== null) {
      definition = c.resultDefs.get(requestMethod);
    }
    if (definition) {
      const errors = check(definition, o.result, `${prefix}/result`);
      if (errors.length > 0) return errors;
    }
    return check(firstDefined('JSONRPCResultResponse', 'JSONRPCResponse'), message);
  }
  return [{ pointer: prefix, keyword: 'jsonrpc', message: 'JSONRPCMessage: not a valid JSON-RPC request, notification, or response' }];
}

const loaded = new Map();

/**
 * The suite's wire validation of `revision` ("2025-11-25") with the schema at `schemaPath`.
 * Returns `validate(message, { from, requestMethod })` → `[{pointer, keyword, message}]`, empty
 * when the message is valid; `requestMethod` is the method of the request a response answers.
 */
export async function loadValidator(revision, schemaPath) {
  const key = `${revision}\u0000${schemaPath}`;
  if (!loaded.has(key)) {
    loaded.set(key, readFile(schemaPath, 'utf8').then((text) => compile(revision, JSON.parse(text))));
  }
  const c = await loaded.get(key);
  return (message, { requestMethod } = {}) => validateMessage(c, message, requestMethod, '');
}
