import { describe, expect, it } from 'vitest';
import { metadataExtractor } from './metadata-extractor.js';

const base = {
  kind: 'episode',
  source: 'agent:mecha',
  source_id: 's',
  occurred_at: '2026-08-05',
  body: 'b',
};

describe('metadataExtractor', () => {
  it('turns named entities and relations in the metadata into candidate facts', () => {
    expect(
      metadataExtractor.extract({
        ...base,
        meta: {
          entities: [{ name: 'Priya Nair', type: 'person' }, { name: 'Yale' }],
          relations: [{ subject: 'Priya Nair', predicate: 'is at', object: 'Yale' }],
        },
      }),
    ).toEqual([
      { kind: 'entity', subject: 'Priya Nair', predicate: 'is a', object: 'person' },
      { kind: 'entity', subject: 'Yale', predicate: 'is a', object: 'entity' },
      { kind: 'relation', subject: 'Priya Nair', predicate: 'is at', object: 'Yale' },
    ]);
  });

  it('never reads the prose, and skips malformed items', () => {
    expect(
      metadataExtractor.extract({
        ...base,
        body: 'Priya Nair is at Yale.',
        meta: {
          entities: [null, 'Priya', { name: 3 }, { name: '  ' }, ['x']],
          relations: { subject: 'a', predicate: 'b', object: 'c' },
        },
      }),
    ).toEqual([]);
    expect(
      metadataExtractor.extract({
        ...base,
        meta: { relations: [{ subject: 'a', predicate: 'b' }] },
      }),
    ).toEqual([]);
  });
});
