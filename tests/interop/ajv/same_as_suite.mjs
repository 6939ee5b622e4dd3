// Checks that wire_validate.mjs is the suite's wire validation: runs the suite's own function
// (`qe` of the installed bundle of @modelcontextprotocol/conformance 0.2.0-alpha.12, with the
// schemas the bundle embeds) and wire_validate.mjs (with SCHEMA_DIR's schemas) on each line of
// stdin (`{revision, requestMethod, message}`, as check_lines.mjs reads them), and writes one
// JSON line: `{same, differ, skipped, differences: [first 10]}`, where a difference is a line
// one calls valid and the other not. Lines of 2024-11-05 (no schema in the suite) or with their
// own `schemaPath` are skipped.
//
// The function is taken from the minified bundle by its text (from its first embedded schema,
// `Pe={$schema`, to the code after `qe`), so this script fits that pinned version only, and
// says so when the text is not found.
//
// Usage: node same_as_suite.mjs SCHEMA_DIR < lines.jsonl

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { loadValidator, suiteDir } from './wire_validate.mjs';

function suiteFunction() {
  const dir = suiteDir();
  const bundle = path.join(dir, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
  const text = readFileSync(bundle, 'utf8');
  const start = text.indexOf('Pe={$schema');
  const end = text.indexOf('const Je=new re');
  if (start < 0 || end < start || !text.slice(start, end).includes('function qe(')) {
    throw new Error(`${bundle}: not the bundle of 0.2.0-alpha.12 (no \`Pe={$schema\` … \`qe\`)`);
  }
  const require = createRequire(path.join(dir, 'package.json'));
  // The bundle's names for what the function uses: ajv (ie), Ajv2020 (ae), ajv-formats (O),
  // and the 2026-07-28 version string (A).
  const make = new Function('ie', 'ae', 'O', `const A = '2026-07-28'; let ${text.slice(start, end)}; return qe;`);
  return make(require('ajv').Ajv, require('ajv/dist/2020.js').Ajv2020, require('ajv-formats').default);
}

const schemaDir = process.argv[2];
if (!schemaDir) {
  process.stderr.write('usage: node same_as_suite.mjs SCHEMA_DIR < lines.jsonl\n');
  process.exit(2);
}
const suite = suiteFunction();
const summary = { same: 0, differ: 0, skipped: 0, differences: [] };
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (line.trim() === '') continue;
  const input = JSON.parse(line);
  if (input.schemaPath || input.revision === '2024-11-05') {
    summary.skipped++;
    continue;
  }
  const requestMethod = input.requestMethod ?? undefined;
  const theirs = suite(input.revision, input.message, requestMethod);
  const validate = await loadValidator(input.revision, path.join(schemaDir, input.revision, 'schema.json'));
  const ours = validate(input.message, { from: input.from, requestMethod });
  if ((theirs.length === 0) === (ours.length === 0)) {
    summary.same++;
  } else {
    summary.differ++;
    if (summary.differences.length < 10) summary.differences.push({ line: input, suite: theirs, ours });
  }
}
process.stdout.write(JSON.stringify(summary) + '\n');
