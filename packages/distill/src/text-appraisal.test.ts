import { textAppraisalRecordSchema } from '@mecha/appraisal-core';
import { describe, expect, it } from 'vitest';
import { conversation } from './__fixtures__/events.js';
import { goalDirectory } from './resolve-goal.js';
import {
  type AppraisalAnswer,
  appraisalGrammarSchema,
  appraisalPrompt,
  buildTextAppraisal,
  parseAppraisalAnswer,
} from './text-appraisal.js';

const directory = goalDirectory(
  { state: 'read', records: [{ id: 'replies', text: 'Reply to people waiting on me' }] },
  { state: 'read', records: [] },
  { state: 'read', records: [] },
);

const answer = (overrides: Partial<AppraisalAnswer> = {}): AppraisalAnswer => ({
  interpretation:
    'The reply went out to the right address; the owner cared about the new affiliation.',
  claims: [
    {
      text: 'Priya moved to Yale.',
      cite: { kind: 'owner_message', id: 'msg-1' },
      quote: 'she moved to Yale',
    },
    {
      text: 'The deadline is the 9th.',
      cite: { kind: 'tool_result', id: 'call-1' },
      quote: 'deadline is the 9th',
    },
    {
      text: 'The agent said so.',
      cite: { kind: 'owner_message', id: 'msg-2' },
      quote: 'I drafted',
    },
    { text: 'Invented.', cite: { kind: 'tool_result', id: 'call-404' }, quote: 'anything' },
  ],
  judgments: [
    {
      goal: { kind: 'charter', id: 'replies' },
      outcome: 'went_well',
      text: 'The reply reached Priya at her new address.',
    },
    {
      goal: { kind: 'task', id: 'task-made-up' },
      outcome: 'went_badly',
      text: 'A task mecha does not hold.',
    },
    { goal: null, outcome: 'unclear', text: '  No goal named.  ' },
    { goal: null, outcome: 'mixed', text: '   ' },
  ],
  owner_wants: ' Replies that use the current affiliation. ',
  lessons: ['Check the affiliation before drafting.', '  '],
  prediction: 'The owner will send the next grant reply as written.',
  expected_act: 'released_unchanged',
  goal: { kind: 'charter', id: 'replies' },
  ...overrides,
});

const context = {
  sessionId: '20260925T090000-a1b2c3d4',
  at: '2026-09-26T03:00:00.000Z',
  taint: 'clean' as const,
  events: conversation(),
  directory,
  newId: () => 'appr-1',
};

describe('buildTextAppraisal', () => {
  it('keeps grounded claims, counts the dropped ones by reason, and stores a valid record', () => {
    const built = buildTextAppraisal(answer(), context);
    expect(built.record).toMatchObject({
      v: 1,
      appraisal_id: 'appr-1',
      session_id: '20260925T090000-a1b2c3d4',
      taint: 'clean',
      expected_act: 'released_unchanged',
      claims_kept: 2,
      claims_dropped: { not_evidence: 1, no_such_referent: 1 },
      goal_unresolved: false,
      goal: { kind: 'charter', id: 'replies' },
      prediction: 'The owner will send the next grant reply as written.',
    });
    expect(built.record.claims?.map((claim) => claim.cite.id)).toEqual(['msg-1', 'call-1']);
    expect(textAppraisalRecordSchema.safeParse(built.record).success).toBe(true);
  });

  it('keeps a judgment per goal, what the owner seems to want and the lessons; a judgment’s goal mecha does not hold is kept as none and counted', () => {
    const built = buildTextAppraisal(answer(), context);
    expect(built.record.judgments).toEqual([
      {
        goal: { kind: 'charter', id: 'replies' },
        outcome: 'went_well',
        text: 'The reply reached Priya at her new address.',
      },
      { outcome: 'went_badly', text: 'A task mecha does not hold.' },
      { outcome: 'unclear', text: 'No goal named.' },
    ]);
    expect(built.record.judgment_goals_unresolved).toBe(1);
    expect(built.record.owner_wants).toBe('Replies that use the current affiliation.');
    expect(built.record.lessons).toEqual(['Check the affiliation before drafting.']);
    expect(textAppraisalRecordSchema.parse(built.record)).toMatchObject({
      judgments: expect.any(Array),
      lessons: ['Check the affiliation before drafting.'],
    });
  });

  it('leaves the new parts out when the answer has none, and an older record still reads', () => {
    const built = buildTextAppraisal(
      answer({ judgments: [], owner_wants: '', lessons: [] }),
      context,
    );
    for (const key of ['judgments', 'judgment_goals_unresolved', 'owner_wants', 'lessons']) {
      expect(built.record).not.toHaveProperty(key);
    }
    const older = {
      v: 1,
      appraisal_id: 'appr-old',
      session_id: '20260925T090000-a1b2c3d4',
      at: '2026-09-26T03:00:00.000Z',
      taint: 'clean',
      interpretation: 'An appraisal written before judgments and lessons were asked for.',
      claims_kept: 0,
      claims_dropped: {},
    };
    expect(textAppraisalRecordSchema.safeParse(older).success).toBe(true);
  });

  it('records a goal mecha does not hold as none, and flags it', () => {
    const built = buildTextAppraisal(
      answer({ goal: { kind: 'task', id: 'task-made-up' } }),
      context,
    );
    expect(built.goalUnresolved).toBe(true);
    expect(built.record.goal_unresolved).toBe(true);
    expect(built.record).not.toHaveProperty('goal');
  });

  it('treats a goal whose id is not an id as unresolved', () => {
    expect(
      buildTextAppraisal(answer({ goal: { kind: 'charter', id: 'not an id!' } }), context)
        .goalUnresolved,
    ).toBe(true);
  });

  it('counts no unresolved goal when none was named', () => {
    const built = buildTextAppraisal(answer({ goal: null }), context);
    expect(built.goalUnresolved).toBe(false);
    expect(built.record).not.toHaveProperty('goal');
  });

  it('carries the session’s taint, third-party and unknown alike', () => {
    expect(buildTextAppraisal(answer(), { ...context, taint: 'third_party' }).record.taint).toBe(
      'third_party',
    );
    expect(buildTextAppraisal(answer(), { ...context, taint: 'unknown' }).record.taint).toBe(
      'unknown',
    );
  });

  it('drops a claim that cites a string that is not a harness id', () => {
    const built = buildTextAppraisal(
      answer({
        claims: [{ text: 't', cite: { kind: 'owner_message', id: 'msg 1' }, quote: 'Yale' }],
      }),
      context,
    );
    expect(built.record.claims_dropped).toEqual({ no_such_referent: 1 });
  });
});

describe('the follow-up question', () => {
  it('is asked on the episode’s own conversation', () => {
    const prompt = appraisalPrompt(
      { system: 'SYSTEM', user: 'SESSION' },
      '{"skip":false,"episode":"e"}',
    );
    expect(prompt.system).toBe('SYSTEM');
    expect(prompt.earlier).toEqual([{ user: 'SESSION', model: '{"skip":false,"episode":"e"}' }]);
    expect(prompt.user.startsWith('Follow-up question about the same session.')).toBe(true);
  });

  it('bounds every string and list of the answer grammar', () => {
    const walk = (node: unknown, path: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const schema = node as Record<string, unknown>;
      if (schema.type === 'string') expect(schema.maxLength, path).toBeTypeOf('number');
      if (schema.type === 'array') expect(schema.maxItems, path).toBeTypeOf('number');
      for (const [key, value] of Object.entries(schema)) walk(value, `${path}.${key}`);
    };
    walk(appraisalGrammarSchema(), 'root');
  });

  it('parses an answer, and refuses one of another shape', () => {
    expect(parseAppraisalAnswer(JSON.stringify(answer())).state).toBe('read');
    expect(parseAppraisalAnswer('{"interpretation":"x"}').state).toBe('unreadable');
    // An answer without the newer parts (an older script) still reads, with none of them.
    const { judgments, owner_wants, lessons, ...older } = answer();
    expect(parseAppraisalAnswer(JSON.stringify(older))).toMatchObject({
      state: 'read',
      value: { judgments: [], owner_wants: '', lessons: [] },
    });
    expect(
      parseAppraisalAnswer(
        JSON.stringify(
          answer({ judgments: [{ goal: null, outcome: 'fine' as never, text: 't' }] }),
        ),
      ).state,
    ).toBe('unreadable');
    expect(parseAppraisalAnswer('nope').state).toBe('unreadable');
  });
});
