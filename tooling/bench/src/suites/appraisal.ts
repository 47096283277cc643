import {
  type Agency,
  appraiseRun,
  type Channel,
  type Cite,
  type ClosureRecord,
  contributions,
  deriveLabel,
  type GoalError,
  type GoalRef,
  type LabelFacts,
  type OutboxRecord,
  type QuestionRecord,
  type SessionEvidence,
  type StopCause,
  type TranscriptEvent,
  valence,
  type WorkflowRecord,
} from '@mecha/appraisal-core';
import { type Measurement, measure, type ResultTable } from '../measure.js';
import type { Suite } from './index.js';

const errorCount = 1_000_000;
const runSize = 10;
const sessionCount = 10_000;

/** A small seeded generator (mulberry32), so every run measures the same data. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)] as T;
}

const goals: readonly (GoalRef | undefined)[] = [
  undefined,
  { kind: 'charter', id: 'replies' },
  { kind: 'charter', id: 'invoices' },
  { kind: 'task', id: 'task-1' },
];
const channels: readonly Channel[] = ['intervention', 'edit', 'counter', 'commitment'];
const agencies: readonly Agency[] = ['self', 'self', 'owner', 'owner', 'owner', 'other', 'world'];
const signs = [-1, -1, -0.5, -0.5, 0, 0.5, 0.5, 1, 1];

function generateErrors(count: number): GoalError[] {
  const next = random(20260925);
  const errors: GoalError[] = [];
  for (let index = 0; index < count; index += 1) {
    const channel = pick(next, channels);
    const cite: Cite =
      channel === 'edit'
        ? { kind: 'draft', draft_id: `d-${index % 997}` }
        : channel === 'counter'
          ? { kind: 'counter', name: 'turn_ceiling' }
          : { kind: 'turn', turn: index % 64 };
    errors.push({
      goal: pick(next, goals),
      channel,
      sign: pick(next, signs),
      agency: pick(next, agencies),
      visible: next() < 0.2,
      controllable: next() < 0.9 ? 'unfilled' : next() < 0.5,
      cite,
    });
  }
  return errors;
}

const at = (hours: number): string =>
  new Date(Date.parse('2026-09-25T09:00:00Z') + hours * 3_600_000).toISOString();

const stops: readonly StopCause[] = [
  'completed',
  'completed',
  'completed',
  'parked',
  'stopped',
  'turn_ceiling',
  'loop',
  'shutdown',
];

/** One synthetic session with every store in play: a few runs, drafts, questions, closures. */
function generateSession(next: () => number, index: number): SessionEvidence {
  const sessionId = `s-${index}`;
  const transcript: TranscriptEvent[] = [];
  const runs = 1 + Math.floor(next() * 3);
  for (let run = 0; run < runs; run += 1) {
    const runId = `${sessionId}-r${run}`;
    const t = run * 10;
    transcript.push({
      v: 1,
      type: 'run_start',
      at: at(t),
      run_id: runId,
      session_id: sessionId,
      surface: 'tui',
      session_kind: 'ordinary',
      goal: { kind: 'charter', id: 'replies' },
    });
    for (let turn = 0; turn < 12; turn += 1) {
      transcript.push({
        v: 1,
        type: 'message',
        at: at(t + 0.1),
        run_id: runId,
        turn: run * 12 + turn,
        message_id: `m-${turn}`,
        role: turn % 2 === 0 ? 'owner' : 'assistant',
        taint: 'clean',
      });
    }
    if (next() < 0.3) {
      transcript.push({
        v: 1,
        type: 'intervention',
        at: at(t + 1),
        run_id: runId,
        turn: run * 12 + 3,
        kind: 'steer',
      });
    }
    transcript.push({
      v: 1,
      type: 'counter',
      at: at(t + 2),
      run_id: runId,
      name: 'tool_denied',
      value: 1,
    });
    transcript.push({
      v: 1,
      type: 'run_end',
      at: at(t + 3),
      run_id: runId,
      stop_cause: pick(next, stops),
    });
  }
  const outbox: OutboxRecord[] = [];
  const drafts = Math.floor(next() * 3);
  for (let draft = 0; draft < drafts; draft += 1) {
    const draftId = `${sessionId}-d${draft}`;
    outbox.push({
      v: 1,
      type: 'staged',
      at: at(1),
      draft_id: draftId,
      session_id: sessionId,
      tool: 'mail_send',
      taint: 'clean',
      goal: { kind: 'charter', id: 'replies' },
    });
    outbox.push({
      v: 2,
      type: 'outcome',
      at: at(40),
      draft_id: draftId,
      outcome: pick(next, ['sent_unchanged', 'sent_edited', 'rejected'] as const),
      sender: 'owner',
    });
  }
  const questions: QuestionRecord[] =
    next() < 0.3
      ? [
          {
            v: 1,
            type: 'parked',
            at: at(2),
            question_id: `${sessionId}-q`,
            session_id: sessionId,
            purpose: 'ordinary',
          },
          { v: 1, type: 'answered', at: at(5), question_id: `${sessionId}-q` },
        ]
      : [];
  const closures: ClosureRecord[] =
    next() < 0.4
      ? [
          {
            v: 2,
            closure_id: `${sessionId}-c`,
            at: at(50),
            task_id: 'task-1',
            from: 'next',
            to: 'done',
            surface: 'cli',
            session_ids: [sessionId],
            who: 'owner',
            person_present: true,
          },
        ]
      : [];
  const workflows: WorkflowRecord[] =
    next() < 0.2
      ? [
          {
            v: 1,
            type: 'started',
            at: at(0),
            workflow_id: `${sessionId}-w`,
            session_id: sessionId,
          },
          { v: 1, type: 'closed', at: at(60), workflow_id: `${sessionId}-w` },
        ]
      : [];
  const read = <T>(records: readonly T[]) => ({ state: 'read' as const, records });
  return {
    sessionId,
    transcript: read(transcript),
    outbox: read(outbox),
    questions: read(questions),
    requests: read([]),
    closures: read(closures),
    workflows: read(workflows),
    reflections: read([]),
    ownerOutcomes: read([]),
  };
}

function recordCount(session: SessionEvidence): number {
  let count = 0;
  for (const source of [
    session.transcript,
    session.outbox,
    session.questions,
    session.requests,
    session.closures,
    session.workflows,
    session.reflections,
    session.ownerOutcomes,
  ]) {
    if (source.state !== 'unreadable') count += source.records.length;
  }
  return count;
}

function milliseconds(value: number): string {
  return value.toFixed(1);
}

function perItem(measurement: Measurement, items: number): string {
  const nanoseconds = (measurement.median * 1e6) / items;
  return nanoseconds >= 1000
    ? `${(nanoseconds / 1000).toFixed(2)} µs`
    : `${nanoseconds.toFixed(0)} ns`;
}

function row(work: string, items: number, subject: Measurement, baseline: Measurement): string[] {
  return [
    work,
    items.toLocaleString('en-US'),
    milliseconds(subject.median),
    perItem(subject, items),
    milliseconds(baseline.median),
    `${(subject.median / baseline.median).toFixed(1)}×`,
  ];
}

/** Label, valence and contributions measured against plain loops over the same data. */
export const appraisalSuite: Suite = {
  id: 'appraisal',
  title: 'Appraisal core: label, valence and contributions',
  run: async () => {
    const facts: LabelFacts = { compacted: false, charterLineIds: new Set(['replies']) };
    const errors = generateErrors(errorCount);
    const runs: GoalError[][] = [];
    for (let index = 0; index < errors.length; index += runSize) {
      runs.push(errors.slice(index, index + runSize));
    }
    let sink = 0;

    const whole = await measure('label + valence, one reading of 1M errors', () => {
      const reading = valence(errors);
      sink += reading.positive + reading.negative + deriveLabel(errors, facts).length;
    });
    const wholeBaseline = await measure('sum of signs over 1M errors', () => {
      let sum = 0;
      for (const error of errors) sum += error.sign;
      sink += sum;
    });
    const perRun = await measure('label + valence, 100k readings of 10 errors', () => {
      for (const run of runs) {
        const reading = valence(run);
        sink += reading.negative + deriveLabel(run, facts).length;
      }
    });
    const perRunBaseline = await measure('sum of signs, 100k runs of 10 errors', () => {
      for (const run of runs) {
        let sum = 0;
        for (const error of run) sum += error.sign;
        sink += sum;
      }
    });

    const next = random(7);
    const sessions = Array.from({ length: sessionCount }, (_, index) =>
      generateSession(next, index),
    );
    const records = sessions.reduce((total, session) => total + recordCount(session), 0);
    const contributed = await measure('contributions over 10k sessions', () => {
      for (const session of sessions) sink += contributions(session).errors.length;
    });
    const contributedBaseline = await measure('count every record of 10k sessions', () => {
      for (const session of sessions) sink += recordCount(session);
    });
    const transcripts = sessions.map((session) =>
      session.transcript.state === 'unreadable' ? [] : session.transcript.records,
    );
    const live = await measure('appraiseRun over 10k transcripts', () => {
      for (const events of transcripts) sink += appraiseRun(events).valence.negative;
    });
    const liveBaseline = await measure('walk every event of 10k transcripts', () => {
      for (const events of transcripts) for (const event of events) sink += event.type.length;
    });
    if (Number.isNaN(sink))
      throw new Error('unreachable: keeps the work from being optimised away');

    const table: ResultTable = {
      title: 'Label, valence and contributions',
      columns: [
        'Work',
        'Items',
        'Median (ms)',
        'Per item',
        'Baseline median (ms)',
        'Ratio to baseline',
      ],
      rows: [
        row(
          'deriveLabel + valence over 1M generated errors (one reading)',
          errorCount,
          whole,
          wholeBaseline,
        ),
        row(
          'deriveLabel + valence, 100k readings of 10 errors',
          errorCount,
          perRun,
          perRunBaseline,
        ),
        row(
          `contributions over 10k synthetic sessions (${records.toLocaleString('en-US')} records)`,
          sessionCount,
          contributed,
          contributedBaseline,
        ),
        row(
          'appraiseRun (live readout) over 10k session transcripts',
          sessionCount,
          live,
          liveBaseline,
        ),
      ],
      notes: [
        'Baselines, measured in the same run over the same data: a plain loop summing `sign` over the errors (label + valence rows); a loop counting every record of every session (contributions); a loop touching every transcript event (appraiseRun). Per item is per error for the first two rows and per session for the last two.',
        'Data is generated deterministically (seeded mulberry32): errors mix every channel, sign, agency and some probe-filled `controllable`; sessions hold 1–3 runs of 12 messages with steers, excluded counters and stop causes, 0–2 drafts with owner verdicts, and sometimes a question, a task closure and a workflow.',
      ],
    };
    return [table];
  },
};
