import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  excludedCounterNames,
  records,
  sessionShapeArbitrary,
} from '../__fixtures__/evidence-arbitraries.js';
import {
  appraiserVerdict,
  closure,
  compaction,
  counter,
  end,
  evidence,
  intervention,
  message,
  outcome,
  ownerOutcome,
  parked,
  partial,
  reflection,
  request,
  settled,
  staged,
  start,
  stepCheck,
  unreadable,
  workflow,
} from '../__fixtures__/evidence-builders.js';
import type { SessionEvidence } from '../ports/session-evidence.js';
import type { GoalError } from '../schemas/goal-error.js';
import { contributionTable } from './contribution-table.js';
import { contributions, signedEntries } from './contributions.js';

const t = contributionTable;

function errorsOf(parts: Parameters<typeof evidence>[0]): GoalError[] {
  return contributions(evidence(parts)).errors;
}

function signs(errors: readonly GoalError[]): number[] {
  return errors.map((error) => error.sign);
}

describe('contributions: drafts (edit channel)', () => {
  it('credits +1.0, self, visible, for a draft the owner sent unchanged', () => {
    const errors = errorsOf({
      outbox: [
        staged('d-1', { goal: { kind: 'charter', id: 'replies' } }),
        outcome('d-1', 'sent_unchanged'),
      ],
    });
    expect(errors).toEqual([
      {
        goal: { kind: 'charter', id: 'replies' },
        channel: 'edit',
        sign: t.draftSentUnchanged.sign,
        agency: 'self',
        visible: true,
        controllable: 'unfilled',
        cite: { kind: 'draft', draft_id: 'd-1' },
      },
    ]);
    expect(t.draftSentUnchanged.sign).toBe(1);
  });

  it('credits nothing for a send by a run’s shell or one from before the sender was recorded', () => {
    for (const sender of ['run_shell', 'unrecorded'] as const) {
      expect(
        errorsOf({ outbox: [staged('d-1'), outcome('d-1', 'sent_unchanged', sender)] }),
      ).toEqual([]);
    }
  });

  it('signs −1.0, owner agency, not visible, for a draft sent with edits', () => {
    const [error] = errorsOf({ outbox: [staged('d-1'), outcome('d-1', 'sent_edited')] });
    expect(error).toMatchObject({ sign: -1, agency: 'owner', channel: 'edit', visible: false });
  });

  it('signs −1.0, owner agency, for a rejected draft, whether the rejecter was the owner or unrecorded', () => {
    for (const sender of ['owner', 'unrecorded'] as const) {
      const [error] = errorsOf({ outbox: [staged('d-1'), outcome('d-1', 'rejected', sender)] });
      expect(error).toMatchObject({ sign: -1, agency: 'owner', channel: 'edit' });
    }
  });

  it('signs nothing for a verdict a run’s shell made', () => {
    expect(errorsOf({ outbox: [staged('d-1'), outcome('d-1', 'rejected', 'run_shell')] })).toEqual(
      [],
    );
    expect(
      errorsOf({ outbox: [staged('d-1'), outcome('d-1', 'sent_edited', 'run_shell')] }),
    ).toEqual([]);
  });

  it('signs nothing for a pending or a cancelled draft', () => {
    expect(errorsOf({ outbox: [staged('d-1')] })).toEqual([]);
    expect(errorsOf({ outbox: [staged('d-1'), outcome('d-1', 'cancelled')] })).toEqual([]);
  });

  it('counts a draft once however many resumed runs staged it, by its first outcome', () => {
    const errors = errorsOf({
      outbox: [
        staged('d-1'),
        staged('d-1', { at: 12 }),
        outcome('d-1', 'rejected', 'owner', 5),
        outcome('d-1', 'sent_unchanged', 'owner', 6),
      ],
    });
    expect(signs(errors)).toEqual([-1]);
  });

  it('never counts a draft another session staged', () => {
    expect(
      errorsOf({ outbox: [staged('d-1', { sessionId: 's-2' }), outcome('d-1', 'rejected')] }),
    ).toEqual([]);
  });

  it('counts an outcome scoped to the session whose staging line was lost, with the session’s goal', () => {
    const errors = errorsOf({
      transcript: [start('r-1', 0, { goal: { kind: 'task', id: 'task-7' } })],
      outbox: partial([outcome('d-1', 'rejected')]),
    });
    expect(errors).toEqual([
      expect.objectContaining({ sign: -1, goal: { kind: 'task', id: 'task-7' } }),
    ]);
  });
});

describe('contributions: linked owner outcomes', () => {
  it('replaces a sent-unchanged draft’s +1.0 with one visible −1.0, self agency', () => {
    const errors = errorsOf({
      outbox: [staged('d-1'), outcome('d-1', 'sent_unchanged')],
      ownerOutcomes: [ownerOutcome('o-1', 'd-1', 'confirmed_error')],
    });
    expect(errors).toEqual([
      {
        goal: undefined,
        channel: 'commitment',
        sign: -1,
        agency: 'self',
        visible: true,
        controllable: 'unfilled',
        cite: { kind: 'outcome', outcome_id: 'o-1' },
      },
    ]);
  });

  it('replaces an edited draft’s −1.0 rather than adding a second penalty, and is not visible', () => {
    const errors = errorsOf({
      outbox: [staged('d-1'), outcome('d-1', 'sent_edited')],
      ownerOutcomes: [
        ownerOutcome('o-1', 'd-1', 'adverse_impact', { commitment: 'req-1' }),
        ownerOutcome('o-2', 'd-1', 'confirmed_error', { at: 31 }),
      ],
    });
    expect(errors).toEqual([
      expect.objectContaining({
        sign: -1,
        visible: false,
        cite: { kind: 'outcome', outcome_id: 'o-1' },
      }),
    ]);
  });

  it('leaves the draft’s own contribution standing when the outcome was fine', () => {
    const errors = errorsOf({
      outbox: [staged('d-1'), outcome('d-1', 'sent_unchanged')],
      ownerOutcomes: [ownerOutcome('o-1', 'd-1', 'fine')],
    });
    expect(signs(errors)).toEqual([1]);
  });

  it('ignores an outcome recorded for another session', () => {
    const errors = errorsOf({
      outbox: [staged('d-1'), outcome('d-1', 'sent_unchanged')],
      ownerOutcomes: [ownerOutcome('o-1', 'd-1', 'confirmed_error', { sessionId: 's-2' })],
    });
    expect(signs(errors)).toEqual([1]);
  });
});

describe('contributions: questions and requests (commitment channel)', () => {
  it('credits +0.5 for a question answered when the resumed session then completed', () => {
    const errors = errorsOf({
      transcript: [
        start('r-1', 0),
        end('r-1', 'parked', 1),
        start('r-2', 3),
        end('r-2', 'completed', 4),
      ],
      questions: [parked('q-1'), settled('q-1', 'answered', 2)],
    });
    expect(errors).toEqual([
      expect.objectContaining({
        sign: 0.5,
        channel: 'commitment',
        agency: 'self',
        cite: { kind: 'question', question_id: 'q-1' },
      }),
    ]);
  });

  it('credits nothing for an answer the session never completed after', () => {
    const errors = errorsOf({
      transcript: [
        start('r-1', 0),
        end('r-1', 'completed', 1),
        start('r-2', 3),
        end('r-2', 'turn_ceiling', 4),
      ],
      questions: [parked('q-1'), settled('q-1', 'answered', 2)],
    });
    expect(errors.filter((error) => error.channel === 'commitment')).toEqual([]);
  });

  it('signs nothing for an unanswered question', () => {
    expect(errorsOf({ questions: [parked('q-1')] })).toEqual([]);
  });

  it('signs −0.5, owner agency, for an abandoned question, once', () => {
    const errors = errorsOf({
      questions: [parked('q-1'), settled('q-1', 'abandoned', 2), settled('q-1', 'answered', 3)],
    });
    expect(errors).toEqual([expect.objectContaining({ sign: -0.5, agency: 'owner' })]);
  });

  it('settles a question by its own answer or abandonment, not by a later act on a draft with the same id', () => {
    const { entries } = signedEntries(
      evidence({
        questions: [parked('q-1'), settled('q-1', 'abandoned', 2)],
        outbox: [staged('q-1'), outcome('q-1', 'rejected', 'owner', 5)],
      }),
    );
    expect(entries.map((entry) => [entry.row, entry.error.cite])).toEqual([
      ['draftRejected', { kind: 'draft', draft_id: 'q-1' }],
      ['questionAbandoned', { kind: 'question', question_id: 'q-1' }],
    ]);
  });

  it('signs −0.5, owner agency, for a triaged request closed without a draft', () => {
    const errors = errorsOf({
      requests: [
        request('req-1', 'received', 0),
        request('req-1', 'triaged', 1),
        request('req-1', 'closed', 2),
      ],
    });
    expect(errors).toEqual([
      {
        goal: { kind: 'request', id: 'req-1' },
        channel: 'commitment',
        sign: -0.5,
        agency: 'owner',
        visible: false,
        controllable: 'unfilled',
        cite: { kind: 'request', request_id: 'req-1' },
      },
    ]);
  });

  it('leaves a request with a linked draft to that draft’s verdict', () => {
    const errors = errorsOf({
      requests: [
        request('req-1', 'triaged', 1),
        request('req-1', 'draft_linked', 2, { draftId: 'd-1' }),
        request('req-1', 'closed', 3),
      ],
      outbox: [staged('d-1'), outcome('d-1', 'rejected')],
    });
    expect(errors).toEqual([expect.objectContaining({ channel: 'edit', sign: -1 })]);
  });

  it('signs nothing for a request closed while parked on the requester, still open, or triaged elsewhere', () => {
    expect(
      errorsOf({
        requests: [
          request('r-1', 'triaged', 1),
          request('r-1', 'needs_info', 2),
          request('r-1', 'closed', 3),
        ],
      }),
    ).toEqual([]);
    expect(errorsOf({ requests: [request('r-1', 'triaged', 1)] })).toEqual([]);
    expect(
      errorsOf({
        requests: [request('r-1', 'triaged', 1, { sessionId: 's-2' }), request('r-1', 'closed', 3)],
      }),
    ).toEqual([]);
  });

  it('signs a request re-triaged after needing information and then closed', () => {
    const errors = errorsOf({
      requests: [
        request('r-1', 'triaged', 1),
        request('r-1', 'needs_info', 2),
        request('r-1', 'triaged', 3),
        request('r-1', 'closed', 4),
      ],
    });
    expect(signs(errors)).toEqual([-0.5]);
  });
});

describe('contributions: counters and stops (counter channel)', () => {
  it.each([
    ['loop_stop', -1, 'self'],
    ['empty_output', -1, 'self'],
    ['final_failed_call', -1, 'self'],
    ['turn_ceiling', -0.5, 'owner'],
    ['token_ceiling', -0.5, 'owner'],
    ['cost_ceiling', -0.5, 'owner'],
  ] as const)('signs the counter %s as %d, %s agency', (name, sign, agency) => {
    const errors = errorsOf({ transcript: [start('r-1'), counter('r-1', name, 2)] });
    expect(errors).toEqual([
      expect.objectContaining({
        channel: 'counter',
        sign,
        agency,
        cite: { kind: 'counter', name },
      }),
    ]);
  });

  it.each([
    ['loop', 'loop_stop', -1],
    ['empty_output', 'empty_output', -1],
    ['failed_call', 'final_failed_call', -1],
    ['turn_ceiling', 'turn_ceiling', -0.5],
    ['token_ceiling', 'token_ceiling', -0.5],
    ['cost_ceiling', 'cost_ceiling', -0.5],
  ] as const)('signs the stop cause %s as the counter %s', (cause, name, sign) => {
    const errors = errorsOf({ transcript: [start('r-1'), end('r-1', cause)] });
    expect(errors).toEqual([expect.objectContaining({ sign, cite: { kind: 'counter', name } })]);
  });

  it('counts each counter kind once per session, across resumed runs and its stop cause', () => {
    const errors = errorsOf({
      transcript: [
        start('r-1', 0),
        counter('r-1', 'turn_ceiling'),
        end('r-1', 'turn_ceiling', 1),
        start('r-2', 2, { resumed: true }),
        end('r-2', 'turn_ceiling', 3),
        counter('r-2', 'loop_stop', 3),
        counter('r-2', 'loop_stop', 1),
      ],
    });
    expect(errors.map((error) => error.cite)).toEqual([
      { kind: 'counter', name: 'turn_ceiling' },
      { kind: 'counter', name: 'loop_stop' },
    ]);
  });

  it('signs each boredom notice −0.5, self agency, at most three per run (one per rung)', () => {
    const notice = { channel: 'counter', sign: -0.5, agency: 'self' };
    const cite = { kind: 'counter', name: 'boredom_notice' };
    expect(errorsOf({ transcript: [start('r-1'), counter('r-1', 'boredom_notice', 1)] })).toEqual([
      expect.objectContaining({ ...notice, cite }),
    ]);
    const twoRuns = errorsOf({
      transcript: [
        start('r-1', 0),
        counter('r-1', 'boredom_notice', 1),
        counter('r-1', 'boredom_notice', 1),
        counter('r-1', 'boredom_notice', 1),
        counter('r-1', 'boredom_notice', 1),
        end('r-1', 'completed', 1),
        start('r-2', 2, { resumed: true }),
        counter('r-2', 'boredom_notice', 2),
        counter('r-2', 'boredom_notice', 0),
      ],
    });
    expect(twoRuns).toHaveLength(5);
    expect(twoRuns.every((error) => error.sign === -0.5 && error.agency === 'self')).toBe(true);
  });

  it('signs nothing for a counter at zero or one no row names', () => {
    expect(
      errorsOf({
        transcript: [start('r-1'), counter('r-1', 'loop_stop', 0), counter('r-1', 'null_steps', 4)],
      }),
    ).toEqual([]);
  });

  it('signs nothing for a change in the owner’s queue size, whatever it is called', () => {
    expect(
      errorsOf({
        transcript: [
          start('r-1'),
          counter('r-1', 'backlog', 12),
          counter('r-1', 'backlog_delta', 3),
        ],
      }),
    ).toEqual([]);
  });

  it.each(['tool_denied', 'blocked_sends', 'context_overflows', 'tool_errors'])(
    'never signs the excluded counter %s',
    (name) => {
      expect(errorsOf({ transcript: [start('r-1'), counter('r-1', name, 9)] })).toEqual([]);
    },
  );

  it.each(['shutdown', 'parked', 'interrupted', 'error', 'completed'] as const)(
    'does not read a %s stop as the owner rejecting the work',
    (cause) => {
      expect(
        errorsOf({ transcript: [start('r-1'), message('r-1', 0), end('r-1', cause)] }),
      ).toEqual([]);
    },
  );

  it('signs −1.0, self agency, for a declared step check that did not pass, once per step and turn', () => {
    const errors = errorsOf({
      transcript: [
        start('r-1', 0, { goal: { kind: 'task', id: 'task-1' } }),
        stepCheck('r-1', 'step-a', 4, false),
        stepCheck('r-1', 'step-a', 4, false),
        stepCheck('r-1', 'step-b', 5, true),
        stepCheck('r-1', 'step-a', 8, false),
      ],
    });
    expect(errors).toEqual([
      expect.objectContaining({
        sign: -1,
        agency: 'self',
        channel: 'counter',
        cite: { kind: 'turn', turn: 4 },
      }),
      expect.objectContaining({
        cite: { kind: 'turn', turn: 8 },
        goal: { kind: 'task', id: 'task-1' },
      }),
    ]);
  });
});

describe('contributions: interventions', () => {
  it('signs a steer and a denial −1.0, self agency, once per turn across resumed runs', () => {
    const errors = errorsOf({
      transcript: [
        start('r-1', 0, { goal: { kind: 'charter', id: 'replies' } }),
        intervention('r-1', 'steer', 3),
        intervention('r-1', 'deny', 4),
        start('r-2', 2, { resumed: true }),
        intervention('r-2', 'steer', 3),
        intervention('r-2', 'steer', 7),
      ],
    });
    expect(errors).toEqual([
      expect.objectContaining({
        channel: 'intervention',
        sign: -1,
        agency: 'self',
        cite: { kind: 'turn', turn: 3 },
      }),
      expect.objectContaining({ cite: { kind: 'turn', turn: 4 } }),
      expect.objectContaining({
        cite: { kind: 'turn', turn: 7 },
        goal: { kind: 'charter', id: 'replies' },
      }),
    ]);
  });

  it('keeps each distinct legacy appraiser verdict of a session, and a repeated one once', () => {
    const { entries } = signedEntries(
      evidence({
        transcript: [
          start('r-1', 0),
          appraiserVerdict('r-1', -0.5, 'self', 0.5),
          appraiserVerdict('r-1', -0.5, 'self', 0.6),
          appraiserVerdict('r-1', 0.5, 'world', 0.7),
        ],
      }),
    );
    const verdicts = entries.filter((entry) => entry.row === 'legacyAppraiserVerdict');
    expect(verdicts.map((entry) => [entry.error.sign, entry.error.agency])).toEqual([
      [-0.5, 'self'],
      [0.5, 'world'],
    ]);
  });

  it("names each run's own goal on its entries, not the session's first", () => {
    const first = { kind: 'task' as const, id: 'task-1' };
    const second = { kind: 'task' as const, id: 'task-2' };
    const { entries } = signedEntries(
      evidence({
        transcript: [
          start('r-1', 0, { goal: first }),
          intervention('r-1', 'steer', 1),
          start('r-2', 2, { goal: second }),
          intervention('r-2', 'steer', 3),
        ],
      }),
    );
    expect(entries.map((entry) => [entry.row, entry.error.goal])).toEqual([
      ['steer', first],
      ['steer', second],
    ]);
  });

  it('signs a denial with the deny row and a steer with the steer row', () => {
    const { entries } = signedEntries(
      evidence({
        transcript: [
          start('r-1', 0),
          intervention('r-1', 'deny', 2),
          intervention('r-1', 'steer', 3),
          intervention('r-1', 'deny', 3),
        ],
      }),
    );
    expect(entries.map((entry) => [entry.row, entry.error.cite])).toEqual([
      ['deny', { kind: 'turn', turn: 2 }],
      ['steer', { kind: 'turn', turn: 3 }],
      ['deny', { kind: 'turn', turn: 3 }],
    ]);
  });

  it('counts an explicit owner stop once per session, owner agency, cited by the first stop’s turn', () => {
    const errors = errorsOf({
      transcript: [
        start('r-1', 0),
        intervention('r-1', 'stop', 5),
        end('r-1', 'stopped', 1),
        start('r-2', 2),
        intervention('r-2', 'stop', 9),
        end('r-2', 'stopped', 3),
      ],
    });
    expect(errors).toEqual([
      expect.objectContaining({
        channel: 'intervention',
        sign: -1,
        agency: 'owner',
        cite: { kind: 'turn', turn: 5 },
      }),
    ]);
  });

  it('cites a stop recorded only as a stop cause by its name', () => {
    const errors = errorsOf({ transcript: [start('r-1'), end('r-1', 'stopped')] });
    expect(errors).toEqual([
      expect.objectContaining({ cite: { kind: 'counter', name: 'stopped' } }),
    ]);
  });

  it('prefers the turn of a stop intervention recorded after a stopped end', () => {
    const errors = errorsOf({
      transcript: [start('r-1'), end('r-1', 'stopped', 1), intervention('r-1', 'stop', 6, 2)],
    });
    expect(errors).toEqual([expect.objectContaining({ cite: { kind: 'turn', turn: 6 } })]);
  });
});

describe('contributions: reflector corrections', () => {
  it('signs −1.0, owner agency, for a clean reflection that names a correction turn', () => {
    const errors = errorsOf({ reflections: [reflection('refl-1', { turn: 6 })] });
    expect(errors).toEqual([
      expect.objectContaining({
        channel: 'intervention',
        sign: -1,
        agency: 'owner',
        cite: { kind: 'reflection', reflection_id: 'refl-1' },
      }),
    ]);
  });

  it('signs nothing for an unclean reflection, one without a correction, or another session’s', () => {
    expect(
      errorsOf({
        reflections: [
          reflection('refl-1', { turn: 6, clean: false }),
          reflection('refl-2'),
          reflection('refl-3', { turn: 2, sessionId: 's-2' }),
        ],
      }),
    ).toEqual([]);
  });

  it('counts a turn once, and not again where a steer already signed it', () => {
    const errors = errorsOf({
      transcript: [start('r-1'), intervention('r-1', 'steer', 4)],
      reflections: [
        reflection('refl-1', { turn: 4 }),
        reflection('refl-2', { turn: 6 }),
        reflection('refl-3', { turn: 6 }),
      ],
    });
    expect(errors.map((error) => error.cite.kind)).toEqual(['turn', 'reflection']);
  });
});

describe('contributions: task closures', () => {
  it('credits +0.5, owner agency, on each session a done closure names', () => {
    const errors = errorsOf({
      closures: [closure('close-1', 'next', 'done', { sessions: ['s-1', 's-2'] })],
    });
    expect(errors).toEqual([
      {
        goal: { kind: 'task', id: 'task-1' },
        channel: 'commitment',
        sign: 0.5,
        agency: 'owner',
        visible: false,
        controllable: 'unfilled',
        cite: { kind: 'closure', closure_id: 'close-1' },
      },
    ]);
    expect(
      errorsOf({ closures: [closure('close-1', 'next', 'done', { sessions: ['s-2'] })] }),
    ).toEqual([]);
  });

  it('counts a closure made by the agent with the owner’s approval, but not one by someone unknown', () => {
    expect(
      signs(
        errorsOf({
          closures: [closure('close-1', 'next', 'done', { who: 'agent_with_approval' })],
        }),
      ),
    ).toEqual([0.5]);
    expect(
      errorsOf({ closures: [closure('close-1', 'next', 'done', { who: 'unknown' })] }),
    ).toEqual([]);
  });

  it('adds a zero-signed entry for a dropped task', () => {
    expect(signs(errorsOf({ closures: [closure('close-1', 'next', 'dropped')] }))).toEqual([0]);
  });

  it('withdraws the +0.5 and signs −1.0 on the closing session when a done task is reopened, however long ago', () => {
    const errors = errorsOf({
      closures: [
        closure('close-1', 'next', 'done', { at: 10 }),
        closure('reopen-1', 'done', 'next', {
          at: 10 + 24 * 400,
          reopens: 'close-1',
          sessions: ['s-9'],
        }),
      ],
    });
    expect(errors).toEqual([
      expect.objectContaining({
        sign: -1,
        agency: 'owner',
        cite: { kind: 'closure', closure_id: 'reopen-1' },
      }),
    ]);
  });

  it('signs nothing, and withdraws the zero entry, when a dropped task is reopened', () => {
    const errors = errorsOf({
      closures: [
        closure('close-1', 'next', 'dropped'),
        closure('reopen-1', 'dropped', 'next', { at: 11, reopens: 'close-1' }),
      ],
    });
    expect(errors).toEqual([]);
  });

  it('counts each close-and-reopen cycle, and a reopen whose closure record was lost by its own fields', () => {
    const errors = errorsOf({
      closures: [
        closure('close-1', 'next', 'done', { at: 10 }),
        closure('reopen-1', 'done', 'next', { at: 11, reopens: 'close-1' }),
        closure('close-2', 'next', 'done', { at: 12 }),
        closure('reopen-2', 'done', 'next', { at: 13, reopens: 'close-missing' }),
        closure('reopen-2', 'done', 'next', { at: 13, reopens: 'close-missing' }),
      ],
    });
    expect(signs(errors).sort()).toEqual([-1, -1, 0.5]);
  });
});

describe('contributions: workflows', () => {
  const started = workflow('wf-1', 'started', 0, { task: 'task-5' });

  it('credits +0.5, owner agency, for a closed workflow, on the session it tracked', () => {
    const errors = errorsOf({ workflows: [started, workflow('wf-1', 'closed', 5)] });
    expect(errors).toEqual([
      expect.objectContaining({
        sign: 0.5,
        agency: 'owner',
        channel: 'commitment',
        goal: { kind: 'task', id: 'task-5' },
        cite: { kind: 'workflow', workflow_id: 'wf-1' },
      }),
    ]);
    expect(
      errorsOf({
        workflows: [
          workflow('wf-1', 'started', 0, { sessionId: 's-2' }),
          workflow('wf-1', 'closed', 5),
        ],
      }),
    ).toEqual([]);
  });

  it('signs −0.5, owner agency, for a cancelled workflow', () => {
    expect(signs(errorsOf({ workflows: [started, workflow('wf-1', 'cancelled', 5)] }))).toEqual([
      -0.5,
    ]);
  });

  it('takes a cancel back and signs nothing when the workflow is reopened', () => {
    expect(
      errorsOf({
        workflows: [started, workflow('wf-1', 'cancelled', 5), workflow('wf-1', 'reopened', 6)],
      }),
    ).toEqual([]);
  });

  it('withdraws the close and signs −1.0 when a closed workflow is reopened; a later close credits again', () => {
    const errors = errorsOf({
      workflows: [
        started,
        workflow('wf-1', 'closed', 5),
        workflow('wf-1', 'reopened', 6),
        workflow('wf-1', 'reopened', 6.5),
        workflow('wf-1', 'closed', 7),
        workflow('wf-1', 'closed', 8),
      ],
    });
    expect(signs(errors).sort()).toEqual([-1, 0.5]);
  });

  it('signs −1.0, self agency, once per workflow and session for a failing artifact check', () => {
    const errors = errorsOf({
      workflows: [
        started,
        workflow('wf-1', 'verified', 3, { check: 'artifact', passed: false }),
        workflow('wf-1', 'verified', 4, { check: 'artifact', passed: false }),
        workflow('wf-1', 'verified', 4, { check: 'artifact', passed: true }),
        workflow('wf-2', 'verified', 4, { check: 'artifact', passed: false, sessionId: 's-2' }),
      ],
    });
    expect(errors).toEqual([
      expect.objectContaining({
        sign: -1,
        agency: 'self',
        channel: 'commitment',
        goal: { kind: 'task', id: 'task-5' },
      }),
    ]);
  });

  it('leaves a failing delivery check to the draft’s own verdict', () => {
    expect(
      errorsOf({
        workflows: [started, workflow('wf-1', 'verified', 3, { check: 'delivery', passed: false })],
      }),
    ).toEqual([]);
  });

  it('names the session’s goal for a workflow bound to no task', () => {
    const errors = errorsOf({
      transcript: [start('r-1', 0, { goal: { kind: 'trigger', id: 'nightly' } })],
      workflows: [workflow('wf-1', 'started', 0), workflow('wf-1', 'closed', 2)],
    });
    expect(errors).toEqual([expect.objectContaining({ goal: { kind: 'trigger', id: 'nightly' } })]);
  });
});

describe('contributions: the retired appraiser', () => {
  it('loads and counts an old appraiser verdict as recorded, on the appraisal channel, once', () => {
    const errors = errorsOf({
      transcript: [
        start('r-1'),
        appraiserVerdict('r-1', -0.5, 'world'),
        start('r-2', 2),
        appraiserVerdict('r-2', -0.5, 'world'),
      ],
    });
    expect(errors).toEqual([
      {
        channel: 'appraisal',
        sign: -0.5,
        agency: 'world',
        visible: false,
        controllable: 'unfilled',
        cite: { kind: 'appraiser' },
      },
    ]);
  });
});

describe('contributions: read states', () => {
  const sources = [
    ['transcript', ['intervention', 'counter', 'commitment', 'appraisal']],
    ['outbox', ['edit', 'commitment']],
    ['questions', ['commitment']],
    ['requests', ['commitment']],
    ['closures', ['commitment']],
    ['workflows', ['commitment']],
    ['reflections', ['intervention']],
    ['ownerOutcomes', ['edit', 'commitment']],
  ] as const;

  it.each(sources)('marks the reading partial when the %s cannot be read', (source, channels) => {
    const result = contributions({ ...evidence(), [source]: unreadable() });
    expect(result.partial).toBe(true);
    expect([...result.incomplete].sort()).toEqual([...channels].sort());
  });

  it('keeps every intact record of a partly read source, and says it is partial', () => {
    const result = contributions(
      evidence({ outbox: partial([staged('d-1'), outcome('d-1', 'rejected')]) }),
    );
    expect(signs(result.errors)).toEqual([-1]);
    expect(result.incomplete).toEqual(['edit', 'commitment']);
    expect(result.partial).toBe(true);
  });

  it('is whole, and not partial, when every source was read', () => {
    expect(contributions(evidence())).toEqual({
      errors: [],
      incomplete: [],
      partial: false,
      compacted: false,
    });
  });

  it('marks a session whose run compacted: partial, with no source incomplete', () => {
    const result = contributions(
      evidence({ transcript: [start('r-1'), compaction('r-1'), intervention('r-1', 'steer', 3)] }),
    );
    expect(result).toMatchObject({ compacted: true, partial: true, incomplete: [] });
    expect(signs(result.errors)).toEqual([-1]);
  });

  it('never reads an unreadable source as a silent zero', () => {
    const source = fc.constantFrom(...sources.map(([name]) => name));
    fc.assert(
      fc.property(sessionShapeArbitrary, source, (shape, name) => {
        const whole = records(shape, true);
        const result = contributions({ ...whole, [name]: unreadable() });
        expect(result.partial).toBe(true);
        expect(result.incomplete.length).toBeGreaterThan(0);
      }),
    );
  });
});

describe('contributions: properties', () => {
  it('is deterministic', () => {
    fc.assert(
      fc.property(sessionShapeArbitrary, (shape) => {
        const once = records(shape, true);
        expect(contributions(once)).toEqual(contributions(records(shape, true)));
      }),
    );
  });

  it('changes nothing when excluded counters are added anywhere', () => {
    const extra = fc.array(
      fc.record({
        name: fc.constantFrom(...excludedCounterNames),
        value: fc.nat(50),
        run: fc.nat(3),
      }),
      { minLength: 1, maxLength: 6 },
    );
    fc.assert(
      fc.property(sessionShapeArbitrary, extra, (shape, counters) => {
        const base = records(shape, true);
        const events = base.transcript.state === 'read' ? base.transcript.records : [];
        const noisy: SessionEvidence = {
          ...base,
          transcript: {
            state: 'read',
            records: [
              ...events,
              ...counters.map((item) => counter(`r-${item.run}`, item.name, item.value)),
            ],
          },
        };
        expect(contributions(noisy)).toEqual(contributions(base));
      }),
    );
  });

  it('counts a session’s drafts and interventions once however many times resumed runs repeat them', () => {
    fc.assert(
      fc.property(sessionShapeArbitrary, (shape) => {
        const base = records(shape, true);
        const events = base.transcript.state === 'read' ? base.transcript.records : [];
        const outbox = base.outbox.state === 'read' ? base.outbox.records : [];
        const replayed = events.filter(
          (event) => event.type === 'intervention' || event.type === 'step_check',
        );
        const repeated: SessionEvidence = {
          ...base,
          transcript: { state: 'read', records: [...events, ...replayed] },
          outbox: {
            state: 'read',
            records: [...outbox, ...outbox.filter((record) => record.type === 'staged')],
          },
        };
        expect(contributions(repeated).errors).toEqual(contributions(base).errors);
      }),
    );
  });

  it('only ever signs a constant of the table, with controllable unfilled', () => {
    const constants = new Set<number>(
      Object.values(contributionTable).flatMap((row) => (row.kind === 'signed' ? [row.sign] : [])),
    );
    fc.assert(
      fc.property(sessionShapeArbitrary, (shape) => {
        for (const error of contributions(records(shape, true)).errors) {
          expect(constants.has(error.sign)).toBe(true);
          expect(error.controllable).toBe('unfilled');
        }
      }),
    );
  });
});

// ---- rules pinned from the mutation run (docs/testing.md) --------------------------------

describe('contributions: an unreadable transcript', () => {
  it('is missing evidence, not a compacted run: partial, with its channels incomplete', () => {
    const result = contributions(evidence({ transcript: unreadable() }));
    expect(result.compacted).toBe(false);
    expect(result.partial).toBe(true);
    expect(result.incomplete).toContain('intervention');
  });
});

describe('contributions: a draft staged more than once keeps its first goal', () => {
  it('names the goal of the first staging, not of a resumed run’s later one', () => {
    const errors = errorsOf({
      outbox: [
        staged('d-1', { goal: { kind: 'task', id: 'task-first' }, at: 0.3 }),
        staged('d-1', { goal: { kind: 'task', id: 'task-later' }, at: 3 }),
        outcome('d-1', 'rejected'),
      ],
    });
    expect(errors).toEqual([expect.objectContaining({ goal: { kind: 'task', id: 'task-first' } })]);
  });
});

describe('contributions: a question counts only for the session that parked it', () => {
  const answeredAndCompleted = [
    start('r-1', 0),
    end('r-1', 'parked', 1),
    start('r-2', 3),
    end('r-2', 'completed', 4),
  ];

  it('credits nothing for a question another session parked, answered or abandoned', () => {
    const foreign = { ...parked('q-1'), session_id: 's-2' };
    expect(
      errorsOf({
        transcript: answeredAndCompleted,
        questions: [foreign, settled('q-1', 'answered', 2)],
      }),
    ).toEqual([]);
    expect(errorsOf({ questions: [foreign, settled('q-1', 'abandoned', 2)] })).toEqual([]);
  });

  it('keeps the goal of the first parking when a resumed run parks the same question again', () => {
    const errors = errorsOf({
      questions: [
        parked('q-1', 0.4, { kind: 'task', id: 'task-first' }),
        parked('q-1', 3, { kind: 'task', id: 'task-later' }),
        settled('q-1', 'abandoned', 5),
      ],
    });
    expect(errors).toEqual([expect.objectContaining({ goal: { kind: 'task', id: 'task-first' } })]);
  });
});

describe('contributions: an answered question completes at or after the answer', () => {
  it('credits a resumed run that started at the very moment of the answer and completed', () => {
    const errors = errorsOf({
      transcript: [
        start('r-1', 0),
        end('r-1', 'parked', 1),
        start('r-2', 2),
        end('r-2', 'completed', 4),
      ],
      questions: [parked('q-1'), settled('q-1', 'answered', 2)],
    });
    expect(signs(errors)).toEqual([0.5]);
  });

  it('credits nothing for a run that started before the answer, even one that completed', () => {
    const errors = errorsOf({
      transcript: [start('r-1', 0), end('r-1', 'completed', 4)],
      questions: [parked('q-1'), settled('q-1', 'answered', 2)],
    });
    expect(errors).toEqual([]);
  });
});

describe('contributions: a request closed without a draft', () => {
  it('reads only the records before the close: a later needs_info does not undo the −0.5', () => {
    const errors = errorsOf({
      requests: [
        request('r-1', 'triaged', 1),
        request('r-1', 'closed', 2),
        request('r-1', 'needs_info', 3),
      ],
    });
    expect(signs(errors)).toEqual([-0.5]);
  });

  it('reads a request received again after needs_info, then closed untriaged, as still parked: nothing', () => {
    expect(
      errorsOf({
        requests: [
          request('r-1', 'triaged', 1),
          request('r-1', 'needs_info', 2),
          request('r-1', 'received', 3),
          request('r-1', 'closed', 4),
        ],
      }),
    ).toEqual([]);
  });

  it('still signs a triaged request that received another message before it closed', () => {
    const errors = errorsOf({
      requests: [
        request('r-1', 'received', 0),
        request('r-1', 'triaged', 1),
        request('r-1', 'received', 2),
        request('r-1', 'closed', 3),
      ],
    });
    expect(signs(errors)).toEqual([-0.5]);
  });

  it('signs nothing for a triaged request that is still open, whatever came after the triage', () => {
    expect(
      errorsOf({ requests: [request('r-1', 'triaged', 1), request('r-1', 'received', 2)] }),
    ).toEqual([]);
  });

  it('signs nothing for a request whose first record is its close: it was never triaged when it closed', () => {
    expect(
      errorsOf({
        requests: [request('r-1', 'closed', 1), request('r-1', 'triaged', 2)],
      }),
    ).toEqual([]);
  });
});

describe('contributions: what marks a task reopen', () => {
  it('reads a legacy reopen with no `reopens` field by its statuses: done → open signs −1.0', () => {
    const errors = errorsOf({
      closures: [
        closure('close-1', 'next', 'done', { at: 10 }),
        closure('reopen-1', 'done', 'next', { at: 11 }),
      ],
    });
    expect(errors).toEqual([
      expect.objectContaining({ sign: 0.5, cite: { kind: 'closure', closure_id: 'close-1' } }),
      expect.objectContaining({ sign: -1, cite: { kind: 'closure', closure_id: 'reopen-1' } }),
    ]);
  });

  it('does not read a done → dropped re-close as a reopen: it signs the drop’s zero, no −1.0', () => {
    const errors = errorsOf({
      closures: [
        closure('close-1', 'next', 'done', { at: 10 }),
        closure('close-2', 'done', 'dropped', { at: 11 }),
      ],
    });
    expect(signs(errors)).toEqual([0.5, 0]);
  });

  it('reads a record that names the closure it reopens as a reopen, whatever status it moves to', () => {
    const errors = errorsOf({
      closures: [
        closure('close-1', 'next', 'done', { at: 10 }),
        closure('reopen-1', 'next', 'dropped', { at: 11, reopens: 'close-1' }),
      ],
    });
    expect(errors).toEqual([
      expect.objectContaining({ sign: -1, cite: { kind: 'closure', closure_id: 'reopen-1' } }),
    ]);
  });

  it('signs nothing for a move between two open statuses', () => {
    expect(errorsOf({ closures: [closure('move-1', 'next', 'waiting')] })).toEqual([]);
  });

  it('reads a reopen that names an open → open move by its own fields: the move is no closure', () => {
    // Were the move kept as a closure, the reopen would read "reopened from waiting" and lose
    // its −1.0 for undoing a done.
    const errors = errorsOf({
      closures: [
        closure('move-1', 'next', 'waiting', { at: 10 }),
        closure('reopen-1', 'done', 'next', { at: 11, reopens: 'move-1' }),
      ],
    });
    expect(errors).toEqual([
      expect.objectContaining({ sign: -1, cite: { kind: 'closure', closure_id: 'reopen-1' } }),
    ]);
  });
});

describe('contributions: a workflow', () => {
  it('keeps the task of its first start when it is started again', () => {
    const errors = errorsOf({
      workflows: [
        workflow('wf-1', 'started', 0, { task: 'task-first' }),
        workflow('wf-1', 'started', 1, { task: 'task-later' }),
        workflow('wf-1', 'closed', 5),
      ],
    });
    expect(errors).toEqual([expect.objectContaining({ goal: { kind: 'task', id: 'task-first' } })]);
  });

  it('keeps a cancel’s −0.5 when a close follows it, and a close’s +0.5 when a cancel follows it', () => {
    const started = workflow('wf-1', 'started', 0);
    expect(
      signs(
        errorsOf({
          workflows: [started, workflow('wf-1', 'cancelled', 5), workflow('wf-1', 'closed', 6)],
        }),
      ),
    ).toEqual([-0.5]);
    expect(
      signs(
        errorsOf({
          workflows: [started, workflow('wf-1', 'closed', 5), workflow('wf-1', 'cancelled', 6)],
        }),
      ),
    ).toEqual([0.5]);
  });
});

describe('contributions: a reflector correction beside a failed step check', () => {
  it('still signs a correction on the turn of a failed step check: only an intervention takes the turn', () => {
    const errors = errorsOf({
      transcript: [start('r-1'), stepCheck('r-1', 'step-a', 4, false)],
      reflections: [reflection('refl-1', { turn: 4 })],
    });
    expect(errors.map((error) => error.cite.kind)).toEqual(['turn', 'reflection']);
    expect(signs(errors)).toEqual([-1, -1]);
  });
});

describe('contributions: records at the same moment keep their store order', () => {
  it('takes the first of two outcomes stamped at the same time, as the store wrote them', () => {
    const rejectedFirst = errorsOf({
      outbox: [
        staged('d-1'),
        outcome('d-1', 'rejected', 'owner', 5),
        outcome('d-1', 'sent_unchanged', 'owner', 5),
      ],
    });
    expect(signs(rejectedFirst)).toEqual([-1]);
    const sentFirst = errorsOf({
      outbox: [
        staged('d-1'),
        outcome('d-1', 'sent_unchanged', 'owner', 5),
        outcome('d-1', 'rejected', 'owner', 5),
      ],
    });
    expect(signs(sentFirst)).toEqual([1]);
  });
});
