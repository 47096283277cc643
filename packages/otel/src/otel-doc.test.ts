import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { backendNames, evaluationNames, genAiNames, mechaNames } from './attribute-names.js';

const doc = readFileSync(new URL('../../../docs/otel.md', import.meta.url), 'utf8');

describe('docs/otel.md', () => {
  it('names every attribute, event and evaluation the export writes', () => {
    const names = [genAiNames, mechaNames, backendNames, evaluationNames].flatMap((group) =>
      Object.values(group),
    );
    const missing = names.filter((name) => !doc.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});
