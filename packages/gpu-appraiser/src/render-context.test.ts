import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ContextGroup,
  maxContextBytes,
  maxContextReferences,
  renderContext,
} from './render-context.js';

const group = (id: number, text: string, appraised = true): ContextGroup => ({
  source: { id, version: 1, actor: 'alice', subject: 'bob', text },
  ...(appraised
    ? {
        appraisal: {
          assessmentId: id * 10,
          queueId: id * 10 + 1,
          relationshipId: id * 10 + 2,
          evidence: text,
          consequence: 1,
          confidence: null,
          positive: { benefit: 700_000, regard_gain: null },
          negative: { harm: 200_000, regard_loss: null },
        },
      }
    : {}),
});

describe('renderContext', () => {
  it('keeps the exact revision 3 rendering: identity on every row, no group header', () => {
    const rendered = renderContext([group(7, 'Bob fixed the login page.')], 'What did Bob do?', 3);
    expect(rendered.text).toBe(
      [
        '<memory historical="true">',
        'source=#7 v1 actor="alice" source_ref: text: "Bob fixed the login page."',
        'source=#7 v1 actor="alice" queue #71: complete',
        'source=#7 v1 actor="alice" assessment #70: positive: benefit=700000; negative: harm=200000; consequence=1 confidence=unknown; evidence: text: see source_ref',
        'source=#7 v1 actor="alice" relationship #72: exposure=1; positive: regard_gain=unknown; negative: regard_loss=unknown',
        '</memory>',
        '<request>',
        'What did Bob do?',
        '</request>',
      ].join('\n'),
    );
    expect(rendered.system).toMatch(/historical data/);
    expect(rendered.references).toBe(4);
  });

  it('writes a source id, version and actor once per group header in revision 4', () => {
    const rendered = renderContext([group(7, 'Bob fixed the login page.')], 'q');
    expect(rendered.text.match(/source=#7 v1 actor="alice"/g)).toHaveLength(1);
    expect(rendered.text).toContain('group g1: source=#7 v1 actor="alice" subject="bob"');
    expect(rendered.text).toContain('  [g1] assessment #70:');
  });

  it('writes a body of 20 bytes or fewer out even when it copies its source', () => {
    const rendered = renderContext([group(1, 'Bob fixed it.')], 'q');
    expect(rendered.text).toContain('evidence: text: "Bob fixed it."');
  });

  it('renders no memory and no system marking when nothing fits or nothing matched', () => {
    expect(renderContext([], 'just the request')).toMatchObject({
      text: 'just the request',
      system: '',
      references: 0,
    });
  });

  it('holds at most 16 references in 4096 bytes, each group whole, in rank order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ minLength: 1, maxLength: 900 }), fc.boolean()), {
          maxLength: 30,
        }),
        (specs) => {
          const groups = specs.map(([text, appraised], index) => group(index + 1, text, appraised));
          const rendered = renderContext(groups, 'q');
          expect(rendered.references).toBeLessThanOrEqual(maxContextReferences);
          expect(rendered.memoryBytes).toBeLessThanOrEqual(maxContextBytes);
          const expectedReferences = rendered.sources
            .map((id) => (groups[id - 1]?.appraisal ? 4 : 1))
            .reduce((sum, n) => sum + n, 0);
          expect(rendered.references).toBe(expectedReferences);
          expect([...rendered.sources].sort((a, b) => a - b)).toEqual(rendered.sources);
          // The request always comes after the memory.
          if (rendered.sources.length > 0)
            expect(rendered.text.endsWith('<request>\nq\n</request>')).toBe(true);
        },
      ),
    );
  });
});
