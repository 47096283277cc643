import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  corpusArbitrary,
  corpusNow,
  type GeneratedCorpus,
} from '../__fixtures__/corpus-arbitrary.js';
import {
  type MemoryStores,
  memoryPorts,
  partial,
  unreadable,
} from '../__fixtures__/memory-ports.js';
import {
  at,
  closure,
  outcome,
  parked,
  questionEnd,
  session,
  staged,
  textAppraisal,
  workflow,
} from '../__fixtures__/records.js';
import { type CorpusAppraisal, corpusAppraisalSchema } from '../schemas/corpus-appraisal.js';
import type { TranscriptEvent } from '../schemas/transcript.js';
import { appraiseCorpus, type CorpusOptions } from './appraise-corpus.js';

const now = new Date(at(24));
const appraise = (stores: MemoryStores, options: Partial<CorpusOptions> = {}) =>
  appraiseCorpus(memoryPorts(stores), { now, days: 30, ...options });

// The JSON fields the reference's table names, in its order.
const tableFields = [
  'labels',
  'valence',
  'named_a_goal',
  'attributed_by_sensor',
  'cite_a_charter_line',
  'goal_put_to_owner',
  'goal_confirmed',
  'sessions_read',
  'sessions_unreadable',
  'outbox_read',
  'questions_read',
  'frontdoor_read',
  'learning_read',
  'charter_read',
  'closures_read',
  'workflows_read',
  'owner_acts',
  'reasoned_rejections',
  'unattributed_rejections',
  'curation',
  'graph_fact_rejections',
  'tests_hidden',
  'experiments_hidden',
  'probe',
  'comparisons',
  'appraiser',
  'predictions',
  'expectations',
  'successes',
  'text_appraisals',
];

function get(result: CorpusAppraisal, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((value, key) => (value as Record<string, unknown>)?.[key], result);
}

describe('appraiseCorpus: the shape and the cost', () => {
  it('returns exactly the table’s fields under the strict schema, reading each source once', async () => {
    await fc.assert(
      fc.asyncProperty(corpusArbitrary, async (corpus) => {
        const ports = memoryPorts(corpus);
        const result = await appraiseCorpus(ports, { now: corpusNow, days: 30 });
        expect(Object.keys(result)).toEqual(tableFields);
        expect(corpusAppraisalSchema.safeParse(result).success).toBe(true);
        expect(result.graph_fact_rejections).toBeNull();
        expect(result.appraiser).toBeNull();
        expect(result.probe).toBeNull();
        // Every store once, each transcript at most once, and never the board.
        for (const [source, count] of ports.reads) expect([source, count]).toEqual([source, 1]);
        expect(ports.reads.get('board')).toBeUndefined();
      }),
    );
  });
});

// Each source, what reading it makes null, and the flag it turns false.
const sources: readonly {
  readonly name: string;
  readonly spoil: (corpus: GeneratedCorpus) => MemoryStores;
  readonly nulls: readonly string[];
  readonly flag?: keyof CorpusAppraisal;
}[] = [
  {
    name: 'sessions',
    spoil: (corpus) => ({ ...corpus, sessions: { state: 'unreadable', reason: 'gone' } }),
    nulls: [
      'labels',
      'valence.positive',
      'valence.negative',
      'named_a_goal',
      'attributed_by_sensor',
      'cite_a_charter_line',
      'goal_put_to_owner',
      'goal_confirmed',
      'sessions_read',
      'sessions_unreadable',
      'owner_acts.task_closed',
      'owner_acts.workflow_closed',
      'reasoned_rejections',
      'unattributed_rejections',
      'tests_hidden',
      'experiments_hidden',
      'expectations',
      'successes.standing',
      'successes.by_kind.task_closed_done',
    ],
  },
  {
    name: 'outbox',
    spoil: (corpus) => ({ ...corpus, outbox: unreadable() }),
    nulls: [
      'reasoned_rejections',
      'unattributed_rejections',
      'successes.by_kind.draft_sent_unchanged',
      'successes.exemplars',
    ],
    flag: 'outbox_read',
  },
  {
    name: 'owner outcomes',
    spoil: (corpus) => ({ ...corpus, ownerOutcomes: unreadable() }),
    nulls: [],
    flag: 'outbox_read',
  },
  {
    name: 'questions',
    spoil: (corpus) => ({ ...corpus, questions: unreadable() }),
    nulls: [
      'goal_put_to_owner',
      'goal_confirmed',
      'successes.by_kind.question_answered_then_finished',
    ],
    flag: 'questions_read',
  },
  {
    name: 'requests',
    spoil: (corpus) => ({ ...corpus, requests: unreadable() }),
    nulls: [],
    flag: 'frontdoor_read',
  },
  {
    name: 'reflections',
    spoil: (corpus) => ({ ...corpus, reflections: unreadable() }),
    nulls: [],
    flag: 'learning_read',
  },
  {
    name: 'closures',
    spoil: (corpus) => ({ ...corpus, closures: unreadable() }),
    nulls: [
      'owner_acts.task_closed',
      'owner_acts.task_dropped',
      'owner_acts.task_reopened',
      'successes.by_kind.task_closed_done',
    ],
    flag: 'closures_read',
  },
  {
    name: 'workflows',
    spoil: (corpus) => ({ ...corpus, workflows: unreadable() }),
    nulls: [
      'owner_acts.workflow_closed',
      'owner_acts.workflow_cancelled',
      'owner_acts.workflow_reopened',
      'owner_acts.workflow_verify_failed',
      'successes.by_kind.workflow_closed_after_check',
    ],
    flag: 'workflows_read',
  },
  {
    name: 'charter',
    spoil: (corpus) => ({ ...corpus, charter: unreadable() }),
    nulls: ['attributed_by_sensor', 'cite_a_charter_line'],
    flag: 'charter_read',
  },
  {
    name: 'rule curation',
    spoil: (corpus) => ({ ...corpus, curation: { ...corpus.curation, rule: unreadable() } }),
    nulls: ['curation.rules'],
  },
  {
    name: 'reflection curation',
    spoil: (corpus) => ({ ...corpus, curation: { ...corpus.curation, reflection: unreadable() } }),
    nulls: ['curation.reflections'],
  },
  {
    name: 'candidate curation',
    spoil: (corpus) => ({ ...corpus, curation: { ...corpus.curation, candidate: unreadable() } }),
    nulls: ['curation.candidates'],
  },
  {
    name: 'text appraisals',
    spoil: (corpus) => ({ ...corpus, textAppraisals: unreadable() }),
    nulls: ['text_appraisals', 'expectations'],
  },
  {
    name: 'counterfactuals',
    spoil: (corpus) => ({ ...corpus, counterfactuals: unreadable() }),
    nulls: ['text_appraisals.counterfactuals', 'text_appraisals.counterfactuals_not_clean'],
  },
  {
    name: 'comparisons',
    spoil: (corpus) => ({ ...corpus, comparisons: unreadable() }),
    nulls: ['comparisons'],
  },
  {
    name: 'predictions',
    spoil: (corpus) => ({ ...corpus, predictions: unreadable() }),
    nulls: ['predictions'],
  },
  {
    name: 'a transcript',
    spoil: (corpus) => ({
      ...corpus,
      sessions: corpus.sessions.map((entry, index) =>
        index === 0
          ? {
              listing: { ...entry.listing, kind: 'ordinary' as const, startedAt: at(0) },
              transcript: unreadable<TranscriptEvent>(),
            }
          : entry,
      ),
    }),
    nulls: [],
  },
];

describe('appraiseCorpus: absent is not zero', () => {
  it('makes the readout partial and the source’s fields null, never 0, for every source', async () => {
    await fc.assert(
      fc.asyncProperty(corpusArbitrary, fc.constantFrom(...sources), async (corpus, source) => {
        const result = await appraiseCorpus(memoryPorts(source.spoil(corpus)), {
          now: corpusNow,
          days: 30,
        });
        expect(result.valence.partial).toBe(true);
        for (const path of source.nulls) expect([path, get(result, path)]).toEqual([path, null]);
        if (source.flag !== undefined) expect(result[source.flag]).toBe(false);
      }),
    );
  });

  it('reads a store with a torn line as not read whole, keeping its intact records', async () => {
    const result = await appraise({
      sessions: [session('s-1')],
      outbox: partial([
        staged('d-1', 's-1'),
        outcome('d-1', 'rejected', { reason: 'wrong totals' }),
      ]),
    });
    expect(result).toMatchObject({
      outbox_read: false,
      reasoned_rejections: 1,
      valence: { partial: true, negative: 1 },
    });
  });

  it('counts a session whose transcript cannot be read as unreadable, not as a smaller population', async () => {
    const result = await appraise({
      sessions: [session('s-1'), { listing: session('s-2').listing, transcript: unreadable() }],
      outbox: [staged('d-2', 's-2'), outcome('d-2', 'rejected')],
    });
    expect(result).toMatchObject({
      sessions_read: 1,
      sessions_unreadable: 1,
      valence: { negative: 0, partial: true },
    });
    expect(result.labels?.neutral).toBe(1);
  });
});

function shuffled<T>(list: readonly T[]): fc.Arbitrary<T[]> {
  return fc.shuffledSubarray([...list], { minLength: list.length, maxLength: list.length });
}

describe('appraiseCorpus: record order does not matter', () => {
  it('gives the same readout for any order of every store and of the session list', async () => {
    const permuted = corpusArbitrary.chain((corpus) =>
      fc
        .record({
          sessions: shuffled(corpus.sessions),
          outbox: shuffled(corpus.outbox),
          closures: shuffled(corpus.closures as readonly never[]),
          workflows: shuffled(corpus.workflows as readonly never[]),
          questions: shuffled(corpus.questions as readonly never[]),
          requests: shuffled(corpus.requests as readonly never[]),
          reflections: shuffled(corpus.reflections as readonly never[]),
          ownerOutcomes: shuffled(corpus.ownerOutcomes as readonly never[]),
          textAppraisals: shuffled(corpus.textAppraisals as readonly never[]),
          comparisons: shuffled(corpus.comparisons as readonly never[]),
          predictions: shuffled(corpus.predictions as readonly never[]),
        })
        .map((orders) => [corpus, { ...corpus, ...orders }] as const),
    );
    await fc.assert(
      fc.asyncProperty(permuted, async ([corpus, reordered]) => {
        const options = { now: corpusNow, days: 30 };
        const first = await appraiseCorpus(memoryPorts(corpus), options);
        const second = await appraiseCorpus(memoryPorts(reordered), options);
        expect(second).toEqual(first);
      }),
    );
  });
});

describe('appraiseCorpus: labels and valence', () => {
  it('counts labels and sums positive and negative apart over the sessions read', async () => {
    const result = await appraise({
      sessions: [session('s-1'), session('s-2', [{ stop: 'turn_ceiling' }]), session('s-3')],
      outbox: [
        staged('d-1', 's-1'),
        outcome('d-1', 'sent_unchanged'),
        staged('d-2', 's-2'),
        outcome('d-2', 'rejected', { reason: 'wrong totals' }),
      ],
      closures: [closure('c-1', 'task-1', 'done', ['s-1'])],
      charter: [{ id: 'replies', text: 'Answer people', sensor: 'outbox_age' }],
    });
    expect(result.labels).toMatchObject({ pride: 1, distress: 1, neutral: 1 });
    expect(result.valence).toEqual({ positive: 1.5, negative: 1.5, partial: false });
  });

  it('marks the valence partial when a session compacted', async () => {
    const compacted: TranscriptEvent = {
      v: 1,
      type: 'compaction',
      at: at(0),
      run_id: 's-1-r1',
      turn: 3,
    };
    const result = await appraise({ sessions: [session('s-1', [{ extra: [compacted] }])] });
    expect(result.valence.partial).toBe(true);
  });

  it('counts a resumed session’s drafts and interventions once', async () => {
    const steer = (runId: string): TranscriptEvent => ({
      v: 1,
      type: 'intervention',
      at: at(0),
      run_id: runId,
      turn: 2,
      kind: 'steer',
    });
    const result = await appraise({
      sessions: [
        session('s-1', [
          { start: 0, end: 1, stop: 'parked', extra: [steer('s-1-r1')] },
          { start: 2, end: 3, resumed: true, extra: [steer('s-1-r2')] },
        ]),
      ],
      outbox: [staged('d-1', 's-1', { at: 0.5 }), outcome('d-1', 'rejected')],
    });
    expect(result.valence.negative).toBe(2);
    expect(result.sessions_read).toBe(1);
  });
});

describe('appraiseCorpus: goals and the charter', () => {
  it('counts goals named, sensor attribution and cited charter lines separately', async () => {
    const result = await appraise({
      sessions: [
        session('s-1', [{ goal: { kind: 'task', id: 'task-1' } }]),
        session('s-2', [{ goal: { kind: 'charter', id: 'deep-work' }, stop: 'loop' }]),
        session('s-3'),
      ],
      outbox: [
        staged('d-1', 's-1'),
        outcome('d-1', 'sent_unchanged'),
        staged('d-3', 's-3'),
        outcome('d-3', 'rejected'),
      ],
      charter: [
        { id: 'deep-work', text: 'Protect deep work' },
        { id: 'replies', text: 'Answer people', sensor: 'outbox_age' },
      ],
    });
    expect(result).toMatchObject({
      named_a_goal: 2,
      attributed_by_sensor: 2,
      cite_a_charter_line: 1,
      charter_read: true,
    });
  });

  it('counts goal questions put to the owner and those answered', async () => {
    const result = await appraise({
      sessions: [session('s-1'), session('s-2')],
      questions: [
        parked('q-1', 's-1', { purpose: 'goal' }),
        questionEnd('q-1', 'answered'),
        parked('q-2', 's-2', { purpose: 'goal' }),
        parked('q-3', 's-2'),
        questionEnd('q-3', 'answered'),
      ],
    });
    expect(result).toMatchObject({ goal_put_to_owner: 2, goal_confirmed: 1 });
  });
});

describe('appraiseCorpus: the population', () => {
  const sessions = [
    session('s-web', [{ surface: 'web' }]),
    session('s-cli', [{ surface: 'cli' }]),
    session('s-test', [{ surface: 'web', kind: 'test' }]),
    session('s-exp', [{ surface: 'web', kind: 'experiment' }]),
    session('s-old', [{ start: -24 * 40 }]),
    session('s-head', [{}], { kind: null, surface: null }),
  ];

  it('hides development data and counts it, and leaves sessions outside the window out', async () => {
    expect(await appraise({ sessions })).toMatchObject({
      sessions_read: 2,
      sessions_unreadable: 1,
      tests_hidden: 1,
      experiments_hidden: 1,
    });
    expect(await appraise({ sessions }, { days: 60 })).toMatchObject({ sessions_read: 3 });
    expect(await appraise({ sessions }, { includeTests: true })).toMatchObject({
      sessions_read: 3,
      tests_hidden: 0,
      experiments_hidden: 1,
    });
  });

  it('narrows to a surface, and --kind test selects development sessions and implies including them', async () => {
    expect(await appraise({ sessions }, { kind: 'web' })).toMatchObject({
      sessions_read: 1,
      tests_hidden: 1,
      experiments_hidden: 1,
      sessions_unreadable: 1,
    });
    expect(await appraise({ sessions }, { kind: 'test' })).toMatchObject({
      sessions_read: 1,
      tests_hidden: 0,
      experiments_hidden: 0,
    });
    expect(await appraise({ sessions }, { kind: 'experiment' })).toMatchObject({
      sessions_read: 1,
      experiments_hidden: 0,
    });
  });
});

describe('appraiseCorpus: owner acts and rejections', () => {
  it('counts each act once however many sessions it signs on, and only acts that sign', async () => {
    const result = await appraise({
      sessions: [session('s-1'), session('s-2')],
      closures: [
        closure('c-1', 'task-1', 'done', ['s-1', 's-2'], { at: 1 }),
        closure('c-2', 'task-2', 'done', ['s-1'], { at: 2 }),
        closure('r-2', 'task-2', 'next', ['s-1'], { at: 3, from: 'done', reopens: 'c-2' }),
        closure('c-3', 'task-3', 'dropped', ['s-2'], { at: 4 }),
        closure('r-3', 'task-3', 'next', ['s-2'], { at: 5, from: 'dropped', reopens: 'c-3' }),
        closure('c-4', 'task-4', 'dropped', ['s-2'], { at: 6 }),
        closure('c-5', 'task-5', 'done', ['s-2'], { at: 7, who: 'unknown' }),
      ],
      workflows: [
        workflow('w-1', { type: 'started', sessionId: 's-1' }, 1),
        workflow('w-1', { type: 'verified', sessionId: 's-1', passed: false }, 2),
        workflow('w-1', { type: 'closed' }, 3),
        workflow('w-1', { type: 'reopened' }, 4),
        workflow('w-2', { type: 'started', sessionId: 's-2' }, 1),
        workflow('w-2', { type: 'cancelled' }, 2),
        workflow('w-2', { type: 'reopened' }, 3),
        workflow('w-3', { type: 'started', sessionId: 's-2' }, 1),
        workflow(
          'w-3',
          { type: 'verified', sessionId: 's-2', passed: false, check: 'delivery' },
          2,
        ),
      ],
    });
    expect(result.owner_acts).toEqual({
      task_closed: 1,
      task_dropped: 1,
      task_reopened: 1,
      workflow_closed: 0,
      workflow_cancelled: 0,
      workflow_reopened: 1,
      workflow_verify_failed: 1,
    });
  });

  it('tells rejections with the owner’s reason from those whose reason is not recorded as theirs', async () => {
    const v1 = {
      ...outcome('d-3', 'rejected', { reason: 'stale' }),
      sender: 'unrecorded' as const,
    };
    const result = await appraise({
      sessions: [session('s-1')],
      outbox: [
        staged('d-1', 's-1'),
        outcome('d-1', 'rejected', { reason: 'wrong totals' }),
        staged('d-2', 's-1'),
        outcome('d-2', 'rejected', { reason: 'not mine', sender: 'run_shell' }),
        staged('d-3', 's-1'),
        v1,
        staged('d-4', 's-1'),
        outcome('d-4', 'rejected'),
      ],
    });
    expect(result).toMatchObject({ reasoned_rejections: 1, unattributed_rejections: 2 });
  });
});

describe('appraiseCorpus: sections beside the sessions', () => {
  it('passes the paid pass’s results through when it ran', async () => {
    const probe = {
      driven: 12,
      mattered: 4,
      redundant: 7,
      inconclusive: 1,
      skipped: 3,
      unprobeable: 2,
      over_ceiling: 0,
    };
    expect((await appraise({}, { probe })).probe).toEqual(probe);
  });

  it('scores expectations of the population and leaves task outputs to a reader with the board', async () => {
    const result = await appraise({
      sessions: [
        session('s-1', [{ start: -100, end: -99 }]),
        session('s-2', [{ goal: { kind: 'task', id: 'task-1' } }]),
        session('s-3'),
      ],
      outbox: [staged('d-1', 's-1', { at: -99.5 }), outcome('d-1', 'sent_unchanged', { at: -90 })],
      textAppraisals: [
        textAppraisal('a-1', 's-1', { expected: 'released_unchanged' }),
        textAppraisal('a-2', 's-2', { expected: 'closed' }),
        textAppraisal('a-3', 's-3', { expected: 'no_act' }),
        textAppraisal('a-4', 's-3'),
        textAppraisal('a-5', 's-outside', { expected: 'no_act' }),
      ],
    });
    expect(result.expectations).toEqual({
      read: true,
      with_expectation: 3,
      scored: 1,
      hits: 1,
      surprises: 0,
      clean_surprises: 0,
      pending: 1,
      unknown: 0,
      board_not_read: 1,
      hit_rate: 1,
    });
    expect(result.text_appraisals).toMatchObject({ records: 5, sessions: 4, with_expected_act: 4 });
  });

  it('credits a question whose work finished after the answer, reading each transcript once', async () => {
    const ports = memoryPorts({
      sessions: [
        // Answered at hour 2; a run begun at hour 3 completes at hour 4.
        session('s-1', [
          { start: 0, end: 1 },
          { runId: 's-1-r2', start: 3, end: 4 },
        ]),
        // Answered, but no run began after the answer.
        session('s-2', [{ start: 0, end: 1 }]),
        // Outside the population: read only for its question, and hidden.
        session('s-test', [
          { kind: 'test' },
          { runId: 's-test-r2', kind: 'test', start: 3, end: 5 },
        ]),
      ],
      questions: [
        parked('q-1', 's-1'),
        questionEnd('q-1', 'answered'),
        parked('q-2', 's-2'),
        questionEnd('q-2', 'answered'),
        parked('q-3', 's-test'),
        questionEnd('q-3', 'answered'),
      ],
    });
    const result = await appraiseCorpus(ports, { now, days: 30 });
    expect(result.successes.by_kind.question_answered_then_finished).toBe(1);
    expect(result.successes.standing).toBe(1);
    expect(result.successes.hidden).toBe(1);
    for (const [source, count] of ports.reads) expect([source, count]).toEqual([source, 1]);
  });

  it('reads successes store-wide with their exemplars by origin', async () => {
    const result = await appraise({
      sessions: [
        session('s-1'),
        session('s-old', [{ start: -24 * 90 }]),
        session('s-test', [{ kind: 'test' }]),
      ],
      outbox: [
        staged('d-1', 's-1', { tool: 'mail_send' }),
        outcome('d-1', 'sent_unchanged'),
        staged('d-2', 's-old', { tool: 'slack_post', taint: 'third_party' }),
        outcome('d-2', 'sent_unchanged'),
        staged('d-3', 's-test'),
        outcome('d-3', 'sent_unchanged'),
      ],
    });
    expect(result.successes).toEqual({
      standing: 2,
      by_kind: {
        draft_sent_unchanged: 2,
        task_closed_done: 0,
        workflow_closed_after_check: 0,
        question_answered_then_finished: 0,
      },
      withdrawn: 0,
      unknown: 0,
      hidden: 1,
      partial: false,
      unreadable: [],
      exemplars: {
        total: 2,
        by_tool: { mail_send: 1, slack_post: 1 },
        by_taint: { clean: 1, third_party: 1, unknown: 0 },
        served: false,
      },
    });
  });
});
