// The suite's wire validation (wire_validate.mjs) over JSON lines: reads
// `{revision, from, requestMethod, message}` lines on stdin, writes one JSON line per input line:
// the array of errors (`[{pointer, keyword, message}]`, empty when valid), or
// `{"harnessError": "…"}` when the line could not be validated (not JSON, unknown revision).
//
// Usage: node check_lines.mjs SCHEMA_DIR   (SCHEMA_DIR/<revision>/schema.json; a line may name
// its own `schemaPath`). One process for a whole corpus: each revision is compiled once.

import { createInterface } from 'node:readline';
import path from 'node:path';
import { loadValidator } from './wire_validate.mjs';

const schemaDir = process.argv[2];
if (!schemaDir) {
  process.stderr.write('usage: node check_lines.mjs SCHEMA_DIR < lines.jsonl\n');
  process.exit(2);
}

const out = [];
const flush = () => {
  if (out.length > 0) process.stdout.write(out.join(''));
  out.length = 0;
};

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (line.trim() === '') continue;
  let result;
  try {
    // JSON.parse, as the suite reads messages: a big integer loses precision here too.
    const input = JSON.parse(line);
    if (typeof input.revision !== 'string') throw new Error('a line needs a `revision`');
    const schemaPath = input.schemaPath ?? path.join(schemaDir, input.revision, 'schema.json');
    const validate = await loadValidator(input.revision, schemaPath);
    result = validate(input.message, { from: input.from, requestMethod: input.requestMethod ?? undefined });
  } catch (e) {
    result = { harnessError: String(e?.stack ?? e) };
  }
  out.push(JSON.stringify(result) + '\n');
  if (out.length >= 256) flush();
}
flush();
