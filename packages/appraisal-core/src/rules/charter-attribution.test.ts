import type { CharterLine } from '@mecha/charter';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Cite, GoalError } from '../schemas/goal-error.js';
import { attributeToCharter } from './charter-attribution.js';

const error = (cite: Cite, goal?: GoalError['goal']): GoalError => ({
  channel: 'edit',
  sign: 1,
  agency: 'self',
  visible: true,
  controllable: 'unfilled',
  cite,
  ...(goal === undefined ? {} : { goal }),
});

const lines: CharterLine[] = [
  { id: 'deep-work', text: 'Protect deep work' },
  { id: 'replies', text: 'Answer people', sensor: 'outbox_age', setpoint: 3_600_000 },
  { id: 'replies-too', text: 'Answer people again', sensor: 'outbox_age' },
  { id: 'asks', text: 'Unblock questions', sensor: 'question_latency' },
];

describe('attributeToCharter', () => {
  it('keeps a named line, attributes by the highest-ranked sensor on the store, and leaves the rest', () => {
    const attributed = attributeToCharter(
      [
        error({ kind: 'draft', draft_id: 'd-1' }, { kind: 'charter', id: 'deep-work' }),
        error({ kind: 'draft', draft_id: 'd-2' }, { kind: 'task', id: 'task-1' }),
        error({ kind: 'outcome', outcome_id: 'o-1' }),
        error({ kind: 'question', question_id: 'q-1' }),
        error({ kind: 'request', request_id: 'r-1' }),
        error({ kind: 'counter', name: 'loop_stop' }),
        error({ kind: 'draft', draft_id: 'd-3' }, { kind: 'charter', id: 'no-such-line' }),
      ],
      lines,
    );
    expect(attributed.map((entry) => [entry.attribution, entry.error.goal])).toEqual([
      ['named', { kind: 'charter', id: 'deep-work' }],
      ['sensor', { kind: 'charter', id: 'replies' }],
      ['sensor', { kind: 'charter', id: 'replies' }],
      ['sensor', { kind: 'charter', id: 'asks' }],
      ['none', undefined],
      ['none', undefined],
      ['sensor', { kind: 'charter', id: 'replies' }],
    ]);
  });

  it('attributes each store to the line whose sensor watches it, and only that one', () => {
    // One line per age sensor: each kind of cite finds its own, never a neighbour's.
    const perSensor: CharterLine[] = [
      { id: 'asks', text: 'Unblock questions', sensor: 'question_latency' },
      { id: 'closes', text: 'Close requests', sensor: 'request_closure' },
      { id: 'replies', text: 'Answer people', sensor: 'outbox_age' },
    ];
    const attributed = attributeToCharter(
      [
        error({ kind: 'draft', draft_id: 'd-1' }),
        error({ kind: 'outcome', outcome_id: 'o-1' }),
        error({ kind: 'question', question_id: 'q-1' }),
        error({ kind: 'request', request_id: 'r-1' }),
        error({ kind: 'closure', closure_id: 'c-1' }),
      ],
      perSensor,
    );
    expect(attributed.map((entry) => entry.error.goal?.id ?? entry.attribution)).toEqual([
      'replies',
      'replies',
      'asks',
      'closes',
      'none',
    ]);
  });

  it('never changes a sign, a channel, an agency or a cite', () => {
    const cites = fc.constantFrom<Cite>(
      { kind: 'draft', draft_id: 'd-1' },
      { kind: 'question', question_id: 'q-1' },
      { kind: 'turn', turn: 3 },
      { kind: 'closure', closure_id: 'c-1' },
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(cites, fc.constantFrom(-1, -0.5, 0, 0.5, 1))),
        fc.subarray(lines),
        (specs, charter) => {
          const errors = specs.map(([cite, sign]) => ({ ...error(cite), sign }));
          const attributed = attributeToCharter(errors, charter);
          attributed.forEach((entry, index) => {
            const { goal: _after, ...after } = entry.error;
            const { goal: _before, ...before } = errors[index] as GoalError;
            expect(after).toEqual(before);
          });
        },
      ),
    );
  });
});
