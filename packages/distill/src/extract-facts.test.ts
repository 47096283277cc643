import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  entityTypes,
  type FactsAnswer,
  factsGrammarSchema,
  factsPrompt,
  foldText,
  groundFacts,
  parseFactsAnswer,
} from './extract-facts.js';

const episode =
  'Priya Nair works at Yale Medical. She agreed to review the grant for Project Atlas by Friday.';

describe('groundFacts', () => {
  it('keeps what the episode writes and counts the rest by reason', () => {
    const answer: FactsAnswer = {
      entities: [
        { name: 'Priya  Nair', type: 'person' },
        { name: 'yale medical', type: 'organization' },
        { name: 'Project Atlas', type: 'other' },
        { name: 'Priya Nair', type: 'person' },
        { name: 'Omar Haddad', type: 'person' },
        { name: '  ', type: 'person' },
      ],
      relations: [
        {
          subject: 'Priya Nair',
          predicate: 'Works At',
          object: 'Yale Medical',
          quote: 'Priya Nair works at Yale Medical',
        },
        {
          subject: 'Priya Nair',
          predicate: 'reviews',
          object: 'Project Atlas',
          quote: 'She agreed to review the grant for Project Atlas',
        },
        {
          subject: 'Priya Nair',
          predicate: 'is at',
          object: 'Brown',
          quote: 'Priya Nair is at Brown',
        },
        { subject: 'Priya Nair', predicate: 'is', object: 'Priya Nair', quote: 'Priya Nair' },
      ],
    };
    expect(groundFacts(answer, episode)).toEqual({
      entities: [
        { name: 'Priya Nair', type: 'person' },
        { name: 'yale medical', type: 'organization' },
        { name: 'Project Atlas' },
      ],
      relations: [
        {
          subject: 'Priya Nair',
          predicate: 'works at',
          object: 'Yale Medical',
          quote: 'Priya Nair works at Yale Medical',
        },
      ],
      dropped: {
        duplicate: 1,
        not_in_episode: 1,
        empty: 2,
        names_not_in_quote: 1,
        quote_not_in_episode: 1,
      },
    });
  });

  const word = fc.stringMatching(/^[A-Za-z]{1,8}$/);
  const text = fc.array(word, { minLength: 1, maxLength: 12 }).map((words) => words.join(' '));
  const answers = fc.record({
    entities: fc.array(
      fc.record({ name: fc.oneof(text, word), type: fc.constantFrom(...entityTypes) }),
      { maxLength: 8 },
    ),
    relations: fc.array(fc.record({ subject: word, predicate: word, object: word, quote: text }), {
      maxLength: 8,
    }),
  });

  it('never keeps a name, a quote or a relation the episode does not carry, and counts everything it drops', () => {
    fc.assert(
      fc.property(text, answers, (body, answer) => {
        const grounded = groundFacts(answer, body);
        const folded = foldText(body);
        for (const entity of grounded.entities) expect(folded).toContain(foldText(entity.name));
        for (const relation of grounded.relations) {
          const quote = foldText(relation.quote);
          expect(folded).toContain(quote);
          expect(quote).toContain(foldText(relation.subject));
          expect(quote).toContain(foldText(relation.object));
          expect(foldText(relation.subject)).not.toBe(foldText(relation.object));
        }
        const dropped = Object.values(grounded.dropped).reduce((sum, count) => sum + count, 0);
        expect(grounded.entities.length + grounded.relations.length + dropped).toBe(
          answer.entities.length + answer.relations.length,
        );
      }),
    );
  });

  it('keeps every entity whose name is a piece of the episode, once', () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 2, maxLength: 12 }), (words) => {
        const body = words.join(' ');
        const names = words.map((_, i) => words.slice(i, i + 2).join(' '));
        const grounded = groundFacts(
          { entities: names.map((name) => ({ name, type: 'person' })), relations: [] },
          body,
        );
        expect(grounded.dropped.not_in_episode ?? 0).toBe(0);
        expect(new Set(grounded.entities.map((entity) => foldText(entity.name))).size).toBe(
          grounded.entities.length,
        );
      }),
    );
  });
});

describe('parseFactsAnswer', () => {
  it('reads an answer in the grammar’s shape and names what is wrong with any other', () => {
    expect(parseFactsAnswer('{"entities": [], "relations": []}')).toEqual({
      state: 'read',
      value: { entities: [], relations: [] },
    });
    expect(parseFactsAnswer('{"skip": false}')).toMatchObject({ state: 'unreadable' });
    expect(
      parseFactsAnswer('{"entities": [{"name": "A", "type": "alien"}], "relations": []}'),
    ).toMatchObject({ state: 'unreadable', reason: expect.stringContaining('entities.0.type') });
    expect(parseFactsAnswer('not json')).toEqual({
      state: 'unreadable',
      reason: 'the answer is not JSON',
    });
  });
});

describe('the facts prompt and grammar', () => {
  it('shows the episode alone, and bounds every string and list', () => {
    const prompt = factsPrompt(episode);
    expect(prompt.earlier).toBeUndefined();
    expect(prompt.user).toContain(episode);
    const schema = JSON.stringify(factsGrammarSchema());
    expect(schema).not.toMatch(/"type":"string"(?![^}]*maxLength)/);
    expect(schema).toContain('"maxItems":12');
  });
});
