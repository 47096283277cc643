import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { episodeExtractor, plainTextExtractor } from './episode-extractor.js';

const base = {
  kind: 'episode',
  source: 'agent:mecha',
  source_id: 's',
  occurred_at: '2026-08-05',
  meta: {},
};

const triples = (body: string, meta: Record<string, never> | object = {}) =>
  episodeExtractor
    .extract({ ...base, body, meta: meta as never })
    .map((fact) => [fact.subject, fact.predicate, fact.object]);

describe('plainTextExtractor', () => {
  it('proposes the names and the relations a sentence states plainly', () => {
    expect(
      triples(
        'Met Priya Nair about the grant. Priya Nair is at Brown and leads the Atlas Project. The deadline moved.',
      ),
    ).toEqual([
      ['Priya Nair', 'is a', 'entity'],
      ['Atlas Project', 'is a', 'entity'],
      ['Priya Nair', 'is at', 'Brown'],
    ]);
  });

  it('reads past tense as what held then, in the present form a correction names', () => {
    expect(triples('Omar Haddad worked at Initech. Dana Lee was at Yale.')).toEqual([
      ['Omar Haddad', 'is a', 'entity'],
      ['Dana Lee', 'is a', 'entity'],
      ['Omar Haddad', 'works at', 'Initech'],
      ['Dana Lee', 'is at', 'Yale'],
    ]);
  });

  it('does not guess: pronouns, lower-case words and sentence openers are never names', () => {
    expect(triples('She is at Brown. The report is at risk. Today we met.')).toEqual([]);
  });

  it('leaves names the metadata already types to the metadata', () => {
    expect(
      triples('Priya Nair is at Brown.', {
        entities: [{ name: 'Priya Nair', type: 'person' }],
      }),
    ).toEqual([
      ['Priya Nair', 'is a', 'person'],
      ['Priya Nair', 'is at', 'Brown'],
    ]);
  });

  it('is total and deterministic, and every name it proposes is in the text', () => {
    const words = fc.constantFrom(
      'Priya',
      'Nair',
      'is',
      'at',
      'was',
      'Brown',
      'the',
      'The',
      '.',
      ',',
      'and',
      'works',
      'for',
      'Ünal',
      '\n',
    );
    const text = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.array(words, { maxLength: 40 }).map((parts) => parts.join(' ')),
    );
    fc.assert(
      fc.property(text, (body) => {
        const first = plainTextExtractor.extract({ ...base, body });
        expect(plainTextExtractor.extract({ ...base, body })).toEqual(first);
        for (const fact of first) {
          expect(body).toContain(fact.subject);
          if (fact.kind === 'relation') expect(body).toContain(fact.object);
        }
      }),
    );
  });
});

describe('episodeExtractor', () => {
  const body = 'Priya Nair is at Brown. Omar Haddad leads the Atlas Project.';
  const modelFacts = {
    entities: [{ name: 'Priya Nair', type: 'person' }],
    relations: [{ subject: 'Priya Nair', predicate: 'is at', object: 'Brown' }],
  };

  it('reads the metadata and the prose when no model extracted the facts', () => {
    // The prose's copy of a metadata relation is merged by the store, which de-duplicates.
    expect(triples(body, modelFacts)).toEqual([
      ['Priya Nair', 'is a', 'person'],
      ['Priya Nair', 'is at', 'Brown'],
      ['Omar Haddad', 'is a', 'entity'],
      ['Atlas Project', 'is a', 'entity'],
      ['Priya Nair', 'is at', 'Brown'],
      ['Omar Haddad', 'leads', 'Atlas Project'],
    ]);
  });

  it('takes the model’s facts as the whole extraction when meta.facts_by names who extracted them', () => {
    expect(triples(body, { ...modelFacts, facts_by: 'sha256:abc' })).toEqual([
      ['Priya Nair', 'is a', 'person'],
      ['Priya Nair', 'is at', 'Brown'],
    ]);
    // A model that found nothing proposes nothing; the prose is not read behind its back.
    expect(triples(body, { facts_by: 'sha256:abc' })).toEqual([]);
  });

  it('reads the prose when facts_by is not a name (empty, blank or not a string)', () => {
    for (const facts_by of ['', '  ', 1, null, true]) {
      expect(triples(body, { facts_by })).toEqual(triples(body));
    }
  });
});
