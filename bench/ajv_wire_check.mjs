// ajv's side of bench/src/bin/wire_check.rs: the conformance suite's wire validation
// (tests/interop/ajv/wire_validate.mjs: ajv 8.20.0 of the installed suite, its options and its
// choice of definition) timed over the same messages as the Rust engines.
//
//   node bench/ajv_wire_check.mjs CORPUS.json
//
// CORPUS.json: {"schemas": {"<revision>": "<path of schema.json>"}, "messages": [{"text": "<one
// JSON line>", "revision": "2025-11-25", "from": "client"|"server"|null, "requestMethod":
// "<method>"|null}]}. Once every revision is compiled and every message validated once (which
// also compiles each definition it uses), it prints one line {"ready": true, "ajv": VERSION,
// "errors": [[first errors of each message], …]}; then for each line N read on stdin it runs N
// passes over the messages, each pass timed alone (process.hrtime.bigint(), JSON.parse of each
// line included), and prints {"passes": [nanoseconds of each pass], "invalid": COUNT}. It ends
// with its stdin. The process stays alive between requests so that the JIT stays warm.

import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const { loadValidator, suiteDir } = await import(
  pathToFileURL(path.join(here, '../tests/interop/ajv/wire_validate.mjs')).href
);

const corpusPath = process.argv[2];
if (!corpusPath) {
  console.error('usage: node bench/ajv_wire_check.mjs CORPUS.json');
  process.exit(2);
}
const corpus = JSON.parse(readFileSync(corpusPath, 'utf8'));
const validators = new Map();
for (const [revision, schemaPath] of Object.entries(corpus.schemas)) {
  validators.set(revision, await loadValidator(revision, schemaPath));
}
const messages = corpus.messages.map((m) => {
  const validate = validators.get(m.revision);
  if (!validate) throw new Error(`no schema for revision ${m.revision}`);
  return { text: m.text, validate, options: { from: m.from ?? undefined, requestMethod: m.requestMethod ?? undefined } };
});

/** One pass: parse and validate every message; how many are invalid. */
function pass() {
  let invalid = 0;
  for (const m of messages) {
    let errors;
    try {
      errors = m.validate(JSON.parse(m.text), m.options);
    } catch (e) {
      errors = [e];
    }
    if (errors.length > 0) invalid += 1;
  }
  return invalid;
}

const firstErrors = messages.map((m) =>
  m.validate(JSON.parse(m.text), m.options).slice(0, 3).map((e) => `${e.pointer} ${e.keyword}: ${e.message}`),
);
const ajvVersion = createRequire(path.join(suiteDir(), 'package.json'))('ajv/package.json').version;
process.stdout.write(`${JSON.stringify({ ready: true, ajv: ajvVersion, errors: firstErrors })}\n`);

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  const count = Number.parseInt(line, 10);
  if (!(count > 0)) {
    console.error(`ajv_wire_check: not a number of passes: ${JSON.stringify(line)}`);
    process.exit(2);
  }
  const passes = [];
  let invalid = 0;
  for (let i = 0; i < count; i += 1) {
    const start = process.hrtime.bigint();
    invalid = pass();
    passes.push(Number(process.hrtime.bigint() - start));
  }
  process.stdout.write(`${JSON.stringify({ passes, invalid })}\n`);
}
