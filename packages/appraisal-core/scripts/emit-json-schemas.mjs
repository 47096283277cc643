// Writes every record schema of the built package as JSON Schema (draft 2020-12) into
// dist/json-schema/<name>.json, in its input shape so older record versions validate too.
// Runs after tsup in `build`; it reads the built dist/index.js, never the sources.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const api = await import(new URL('../dist/index.js', import.meta.url).href);
const folder = fileURLToPath(new URL('../dist/json-schema/', import.meta.url));
rmSync(folder, { recursive: true, force: true });
mkdirSync(folder, { recursive: true });

const names = Object.keys(api.recordSchemas);
for (const name of names) {
  const schema = z.toJSONSchema(api.recordSchemas[name], {
    io: 'input',
    target: 'draft-2020-12',
    unrepresentable: 'throw',
  });
  const document = { title: `@mecha/appraisal-core ${name}`, ...schema };
  writeFileSync(`${folder}${name}.json`, `${JSON.stringify(document, null, 2)}\n`);
}
console.error(`json-schema: wrote ${names.length} schemas to dist/json-schema/`);
