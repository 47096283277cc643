// Writes the JSON Schemas (draft 2020-12) of the records this package owns into
// dist/json-schema/<name>.json, in their input shape, beside those @mecha/appraisal-core emits
// for the records it owns. Runs after tsup in `build`; it reads the built dist/index.js.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const api = await import(new URL('../dist/index.js', import.meta.url).href);
const folder = fileURLToPath(new URL('../dist/json-schema/', import.meta.url));

/** The schemas this package owns, by file name. */
export const ownSchemas = {
  'distilled-record': api.distilledRecordSchema,
  'rule-record': api.ruleRecordSchema,
  'shell-registration': api.shellRegistrationSchema,
  manifest: api.manifestSchema,
  config: api.configSchema,
};

/** One schema as JSON Schema, titled. */
export function jsonSchemaOf(name) {
  const schema = z.toJSONSchema(ownSchemas[name], {
    io: 'input',
    target: 'draft-2020-12',
    unrepresentable: 'any',
  });
  return { title: `@mecha/stores ${name}`, ...schema };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  for (const name of Object.keys(ownSchemas)) {
    writeFileSync(`${folder}${name}.json`, `${JSON.stringify(jsonSchemaOf(name), null, 2)}\n`);
  }
  console.error(
    `json-schema: wrote ${Object.keys(ownSchemas).length} schemas to dist/json-schema/`,
  );
}
