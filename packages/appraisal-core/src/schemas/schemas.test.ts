import { validateCharter } from '@mecha/charter';
import fc from 'fast-check';
import { isRight } from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { closureRecordSchema } from './closures.js';
import { goalErrorSchema, goalRefSchema } from './goal-error.js';
import { outboxRecordSchema } from './outbox.js';
import { transcriptEventSchema } from './transcript.js';

const at = '2026-09-25T09:00:00Z';

describe('record schemas', () => {
  it('reads a version 1 draft outcome as sent by nobody recorded', () => {
    const record = outboxRecordSchema.parse({
      v: 1,
      type: 'outcome',
      at,
      draft_id: 'd-1',
      outcome: 'sent_unchanged',
    });
    expect(record).toMatchObject({ v: 2, sender: 'unrecorded', outcome: 'sent_unchanged' });
  });

  it('keeps the sender of a version 2 outcome', () => {
    const record = outboxRecordSchema.parse({
      v: 2,
      type: 'outcome',
      at,
      draft_id: 'd-1',
      outcome: 'rejected',
      sender: 'owner',
    });
    expect(record).toMatchObject({ v: 2, sender: 'owner' });
  });

  it('reads a version 1 closure as closed by someone unknown', () => {
    const record = closureRecordSchema.parse({
      v: 1,
      closure_id: 'close-1',
      at,
      task_id: 'task-1',
      from: 'next',
      to: 'done',
      surface: 'cli',
      session_ids: ['s-1'],
    });
    expect(record).toMatchObject({ v: 2, who: 'unknown', person_present: false });
  });

  it('refuses prose where a cite holds a pointer', () => {
    const error = {
      channel: 'edit',
      sign: -1,
      agency: 'owner',
      visible: false,
      controllable: 'unfilled',
      cite: { kind: 'draft', draft_id: 'you have failed your owner' },
    };
    expect(goalErrorSchema.safeParse(error).success).toBe(false);
    expect(
      goalErrorSchema.safeParse({ ...error, cite: { kind: 'draft', draft_id: 'd-7f3e' } }).success,
    ).toBe(true);
  });

  it('still loads a retired appraiser verdict, but only on the appraisal channel citing the appraiser', () => {
    const event = {
      v: 1,
      type: 'appraiser_verdict',
      at,
      run_id: 'r-1',
      error: {
        channel: 'appraisal',
        sign: -0.5,
        agency: 'other',
        visible: false,
        controllable: 'unfilled',
        cite: { kind: 'appraiser' },
      },
    };
    expect(transcriptEventSchema.parse(event)).toEqual(event);
    const forged = { ...event, error: { ...event.error, channel: 'edit' } };
    expect(transcriptEventSchema.safeParse(forged).success).toBe(false);
    const cited = { ...event, error: { ...event.error, cite: { kind: 'turn', turn: 1 } } };
    expect(transcriptEventSchema.safeParse(cited).success).toBe(false);
  });

  it('lets a goal name any charter line id, Unicode ones included, and still refuses prose', () => {
    for (const id of ['replies', 'réponses', '回复', 'line-2.b']) {
      expect(goalRefSchema.safeParse({ kind: 'charter', id }).success).toBe(true);
    }
    for (const id of ['two words', 'Ünter', 'x\u202ey', 'a,b', '']) {
      expect(goalRefSchema.safeParse({ kind: 'charter', id }).success).toBe(false);
    }
  });

  it('accepts every valid charter line id as a goal id', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 64 }), (text) => {
        const charter = validateCharter([{ id: text, text: 'a line' }]);
        fc.pre(isRight(charter));
        expect(goalRefSchema.safeParse({ kind: 'charter', id: text }).success).toBe(true);
      }),
    );
  });

  it('refuses an unknown transcript event type', () => {
    expect(
      transcriptEventSchema.safeParse({ v: 1, type: 'feeling', at, run_id: 'r-1' }).success,
    ).toBe(false);
  });
});
