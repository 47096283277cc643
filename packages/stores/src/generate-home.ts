import { closeSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { expectedActSchema, type GoalRef, type StopCause } from '@mecha/appraisal-core';
import { type Charter, stringifyCharter } from '@mecha/charter';
import { MechaError } from '@mecha/errors';
import { homeLayout, sessionsEntry } from './home-layout.js';
import type { RecordValidator } from './record-validator.js';
import { type SeededRandom, seededRandom } from './seeded-random.js';
import {
  boardReader,
  candidateVerdictsReader,
  closuresReader,
  comparisonsReader,
  counterfactualsReader,
  distilledReader,
  outboxReader,
  ownerOutcomesReader,
  predictionsReader,
  questionsReader,
  reflectionsReader,
  reflectionVerdictsReader,
  requestsReader,
  rulesReader,
  ruleVerdictsReader,
  scoresReader,
  shellsReader,
  textAppraisalsReader,
  transcriptReader,
  workflowsReader,
} from './store-schemas.js';

/** What to generate: where, from which seed, how many sessions, over which stretch of time. */
export interface GenerateHomeOptions {
  /** The home folder; it is emptied first. */
  readonly path: string;
  readonly seed: string | number;
  readonly sessions: number;
  /** When the first session starts; 2026-06-01 UTC by default. */
  readonly start?: Date;
  /** How many days the sessions spread over; 120 by default. */
  readonly days?: number;
  /** Share of transcripts left with a torn last line, as a crash leaves them; 0.005 by default. */
  readonly tornRate?: number;
}

/** What was generated: the sessions, files and bytes written, and lines per store file. */
export interface GeneratedHome {
  readonly path: string;
  readonly sessions: number;
  readonly files: number;
  readonly bytes: number;
  /** Lines written per file (sessions summed under `sessions/`), torn ones included. */
  readonly lines: Readonly<Record<string, number>>;
  /** Transcripts whose last line was left torn on purpose. */
  readonly tornLines: number;
}

const day = 86_400_000;
const hour = 3_600_000;
const minute = 60_000;

type StoreKey = Exclude<keyof typeof homeLayout, 'config' | 'charter' | 'manifest' | 'sessions'>;

const validators: Record<StoreKey, RecordValidator<unknown>> = {
  outbox: outboxReader,
  questions: questionsReader,
  requests: requestsReader,
  closures: closuresReader,
  workflows: workflowsReader,
  board: boardReader,
  reflections: reflectionsReader,
  rules: rulesReader,
  ruleVerdicts: ruleVerdictsReader,
  reflectionVerdicts: reflectionVerdictsReader,
  candidateVerdicts: candidateVerdictsReader,
  distilled: distilledReader,
  ownerOutcomes: ownerOutcomesReader,
  textAppraisals: textAppraisalsReader,
  scores: scoresReader,
  counterfactuals: counterfactualsReader,
  comparisons: comparisonsReader,
  predictions: predictionsReader,
  shells: shellsReader,
};

/** Buffers one file's lines and writes them in 1 MiB pieces: generation never holds a store. */
class LineFile {
  private readonly fd: number;
  private pending: string[] = [];
  private size = 0;
  lines = 0;
  bytes = 0;

  constructor(path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'w');
  }

  push(line: string): void {
    this.pending.push(line, '\n');
    this.size += line.length + 1;
    this.lines += 1;
    if (this.size > 1_048_576) this.flush();
  }

  flush(): void {
    if (this.pending.length === 0) return;
    const data = Buffer.from(this.pending.join(''));
    writeSync(this.fd, data);
    this.bytes += data.length;
    this.pending = [];
    this.size = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

interface Scheduled {
  readonly at: number;
  readonly seq: number;
  readonly store: StoreKey;
  readonly record: Record<string, unknown>;
  readonly then?: () => void;
}

/** A binary min-heap of store lines by time (then by order scheduled): logs come out in time order. */
class Schedule {
  private readonly items: Scheduled[] = [];
  private seq = 0;

  get size(): number {
    return this.items.length;
  }

  add(at: number, store: StoreKey, record: Record<string, unknown>, then?: () => void): void {
    const item: Scheduled = { at, seq: this.seq++, store, record, ...(then ? { then } : {}) };
    const items = this.items;
    items.push(item);
    let index = items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.less(items[index] as Scheduled, items[parent] as Scheduled)) break;
      [items[index], items[parent]] = [items[parent] as Scheduled, items[index] as Scheduled];
      index = parent;
    }
  }

  peek(): Scheduled | undefined {
    return this.items[0];
  }

  pop(): Scheduled | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    items[0] = last;
    let index = 0;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let smallest = index;
      if (left < items.length && this.less(items[left] as Scheduled, items[smallest] as Scheduled))
        smallest = left;
      if (
        right < items.length &&
        this.less(items[right] as Scheduled, items[smallest] as Scheduled)
      )
        smallest = right;
      if (smallest === index) break;
      [items[index], items[smallest]] = [items[smallest] as Scheduled, items[index] as Scheduled];
      index = smallest;
    }
    return top;
  }

  private less(a: Scheduled, b: Scheduled): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }
}

interface Task {
  readonly id: string;
  readonly title: string;
  status: 'inbox' | 'next' | 'waiting' | 'done' | 'dropped';
  readonly projectId?: string;
  readonly due?: string;
  readonly holder: 'agent' | 'owner' | 'other';
  /** Scheduled to close: no later session picks it. */
  closing: boolean;
}

/**
 * The prose of a generated home reads like an owner's requests: word `i` of a text is drawn from
 * slot `i % 5` of this small grammar (an ask, whose thing, the thing, a link, a when), so the
 * text is one plain sentence after another, and each word still costs one draw of the seed.
 */
const proseSlots: readonly (readonly string[])[] = [
  [
    'Please send',
    'Could you check',
    'Draft a reply about',
    'Review',
    'Update',
    'Confirm',
    'Follow up on',
    'Summarise',
  ],
  ['the Lakeside', 'the Northwind', 'our', "the team's", "the client's", 'the quarterly'],
  [
    'invoice',
    'budget figures',
    'shipment schedule',
    'meeting agenda',
    'account notes',
    'totals report',
    'open items',
  ],
  ['before', 'by', 'for', 'after', 'ahead of'],
  [
    'Thursday.',
    'tomorrow.',
    'the review meeting.',
    'the end of the quarter.',
    'the client call.',
    'Friday morning.',
  ],
];

const charter: Charter = [
  {
    id: 'replies',
    text: 'Reply to people who are waiting on me',
    sensor: 'outbox_age',
    setpoint: 48 * hour,
  },
  {
    id: 'questions',
    text: 'Answer what mecha asks me the same day',
    sensor: 'question_latency',
    setpoint: 24 * hour,
  },
  {
    id: 'requests',
    text: 'Close front-door requests within three days',
    sensor: 'request_closure',
    setpoint: 72 * hour,
  },
  { id: 'evenings', text: 'Keep evenings free of work' },
];

const configToml = `# mecha configuration (generated)
[agent]
situation_brief = false
past_appraisals = false
success_examples = false
contrast_evidence = false
sensors_in_brief = true
appraisals_in_brief = true
planning_guidance = false
step_escalation = false
timezone = "Europe/Berlin"

[[mcp]]
name = "graph"
command = "mecha-graph-mcp"
prefix_tools = false

[mcp.capabilities]
untrusted_input = true

[model]
path = "models/appraiser.gguf"
`;

const surfaces = [
  ['web', 35],
  ['tui', 25],
  ['task', 15],
  ['slack', 10],
  ['trigger', 8],
  ['voice', 4],
  ['cli', 3],
] as const;

const stopCauses: readonly (readonly [StopCause, number])[] = [
  ['completed', 82],
  ['stopped', 3],
  ['turn_ceiling', 2],
  ['token_ceiling', 1],
  ['cost_ceiling', 0.5],
  ['loop', 1],
  ['empty_output', 1],
  ['failed_call', 1],
  ['shutdown', 1],
  ['interrupted', 0.5],
  ['error', 0.5],
];

const ceilingCounter: Partial<Record<StopCause, string>> = {
  turn_ceiling: 'turn_ceiling',
  token_ceiling: 'token_ceiling',
  cost_ceiling: 'cost_ceiling',
  loop: 'loop_stop',
};

const toolNames = ['fs_read', 'fs_write', 'shell', 'web_fetch', 'mail_read', 'calendar', 'kg_task'];

/**
 * Generates a synthetic mecha home, deterministically: the same options give byte-identical
 * files. Sessions with resumed runs, steers, denials, stops, ceilings, compactions and step
 * checks; drafts sent, edited, rejected and cancelled by the owner, a run's shell, or before
 * senders were recorded (version 1); questions, requests, workflows, closures and reopens,
 * learning and appraisal records; test and experiment sessions; third-party content; a few torn
 * lines; a charter, a config and a board. Lines go to disk as they are made, so memory stays
 * flat however many sessions are asked for. See docs/store-format.md for the proportions.
 */
export function generateHome(options: GenerateHomeOptions): GeneratedHome {
  const home = resolve(options.path);
  const random: SeededRandom = seededRandom(options.seed);
  const start = (options.start ?? new Date('2026-06-01T00:00:00Z')).getTime();
  const span = (options.days ?? 120) * day;
  const tornRate = options.tornRate ?? 0.005;
  const count = Math.max(0, Math.floor(options.sessions));

  rmSync(home, { recursive: true, force: true });
  mkdirSync(join(home, homeLayout.sessions), { recursive: true });

  const files = new Map<StoreKey, LineFile>();
  const schedule = new Schedule();
  let sessionLines = 0;
  let sessionBytes = 0;
  let tornLines = 0;

  const iso = (at: number) => new Date(at).toISOString();
  const text = (low: number, high: number) => {
    const n = random.int(low, high);
    const out: string[] = [];
    for (let index = 0; index < n; index += 1) {
      out.push(random.pick(proseSlots[index % proseSlots.length] as readonly string[]));
    }
    // End on a thing or a when, never on a dangling ask, owner or link.
    while (
      out.length > 3 &&
      (out.length - 1) % proseSlots.length !== 2 &&
      out.length % proseSlots.length !== 0
    ) {
      out.pop();
    }
    const prose = out.join(' ');
    return prose.endsWith('.') ? prose : `${prose}.`;
  };
  const id = (prefix: string) => `${prefix}-${random.hex(10)}`;

  const emit = (store: StoreKey, record: Record<string, unknown>) => {
    if (validators[store].validate(record) === undefined) {
      throw new MechaError(
        `generateHome made an invalid ${store} record: ${validators[store].explain(record)}`,
      );
    }
    let file = files.get(store);
    if (file === undefined) {
      file = new LineFile(join(home, homeLayout[store]));
      files.set(store, file);
    }
    file.push(JSON.stringify(record));
  };
  const flushUntil = (at: number) => {
    for (let next = schedule.peek(); next !== undefined && next.at <= at; next = schedule.peek()) {
      schedule.pop();
      emit(next.store, next.record);
      next.then?.();
    }
  };

  // The board: projects up front, tasks as sessions need them.
  const projects = Array.from({ length: Math.max(2, Math.ceil(count / 400)) }, () => id('proj'));
  // Sessions return to recent tasks: a window of the latest ones keeps picking cheap.
  const recentTasks: Task[] = [];
  const openTasks = () =>
    recentTasks.filter(
      (task) => !task.closing && task.status !== 'done' && task.status !== 'dropped',
    );
  const boardRow = (task: Task) => ({
    v: 1,
    kind: 'task',
    id: task.id,
    title: task.title,
    status: task.status,
    ...(task.projectId === undefined ? {} : { project_id: task.projectId }),
    ...(task.due === undefined ? {} : { due: task.due }),
    holder: task.holder,
  });
  projects.forEach((project, index) => {
    schedule.add(start - day, 'board', {
      v: 1,
      kind: 'project',
      id: project,
      title: `Project ${index + 1}`,
    });
  });
  const newTask = (at: number): Task => {
    const task: Task = {
      id: id('task'),
      title: text(3, 7),
      status: random.weighted([
        ['inbox', 2],
        ['next', 5],
        ['waiting', 2],
      ] as const),
      ...(random.chance(0.8) ? { projectId: random.pick(projects) } : {}),
      ...(random.chance(0.6) ? { due: iso(at + random.int(1, 30) * day).slice(0, 10) } : {}),
      holder: random.weighted([
        ['agent', 4],
        ['owner', 4],
        ['other', 2],
      ] as const),
      closing: false,
    };
    recentTasks.push(task);
    if (recentTasks.length > 64) recentTasks.shift();
    schedule.add(at, 'board', boardRow(task));
    return task;
  };

  const reflections: string[] = [];
  const rules: string[] = [];
  const spacing = count === 0 ? 0 : span / count;

  for (let index = 0; index < count; index += 1) {
    const startedAt = Math.floor(start + index * spacing + random.next() * spacing * 0.5);
    flushUntil(startedAt);
    const early = index < count * 0.15;
    const sessionId = `${iso(startedAt).replace(/[-:]/g, '').slice(0, 15)}-${random.hex(8)}`;
    const kind = random.weighted([
      ['ordinary', 90],
      ['test', 6],
      ['experiment', 4],
    ] as const);
    const surface = random.weighted(surfaces);
    const tainted = random.chance(0.2);
    const tools = toolNames.filter(() => random.chance(0.6));

    let goal: GoalRef | undefined;
    let task: Task | undefined;
    if (random.chance(0.6)) {
      const goalKind = random.weighted([
        ['task', 50],
        ['charter', 25],
        ['project', 10],
        ['trigger', 10],
        ['request', 5],
      ] as const);
      if (goalKind === 'task') {
        const open = random.chance(0.6) ? openTasks() : [];
        task = open.length > 0 ? random.pick(open) : newTask(startedAt - minute);
        goal = { kind: 'task', id: task.id };
      } else if (goalKind === 'charter') {
        goal = { kind: 'charter', id: random.pick(charter).id };
      } else if (goalKind === 'project') {
        goal = { kind: 'project', id: random.pick(projects) };
      } else {
        goal = { kind: goalKind, id: id(goalKind === 'trigger' ? 'trig' : 'req') };
      }
    }

    // The transcript, run by run.
    const lines: string[] = [];
    let clock = startedAt;
    const tick = (low: number, high: number) => {
      clock += random.int(low, high) * 1000;
      return iso(clock);
    };
    const event = (record: Record<string, unknown>) => {
      if (transcriptReader.validate(record) === undefined) {
        throw new MechaError(
          `generateHome made an invalid event: ${transcriptReader.explain(record)}`,
        );
      }
      lines.push(JSON.stringify(record));
    };
    const parks = random.chance(0.1);
    const questionOutcome = random.weighted([
      ['answered', 70],
      ['abandoned', 15],
      ['pending', 15],
    ] as const);
    let draftCount = random.chance(0.25) ? random.int(1, 2) : 0;
    const requestId = random.chance(0.08) ? id('req') : undefined;
    if (requestId !== undefined) {
      const receivedAt = startedAt - random.int(1, 30) * minute;
      schedule.add(receivedAt, 'requests', {
        v: 1,
        type: 'received',
        at: iso(receivedAt),
        request_id: requestId,
      });
    }
    const workflowId = random.chance(0.05) ? id('wf') : undefined;
    const stepChecks = random.chance(0.15);
    const runs = parks && questionOutcome === 'answered' ? 2 : 1;
    const draftIds: string[] = [];
    let lastTurns = 0;
    let turnIndex = 0;
    let sawThirdParty = false;

    for (let runNumber = 0; runNumber < runs; runNumber += 1) {
      const runId = id('run');
      const resumed = runNumber > 0;
      if (resumed) clock += random.int(30, 20 * 60) * minute;
      event({
        v: 1,
        at: iso(clock),
        run_id: runId,
        type: 'run_start',
        session_id: sessionId,
        surface,
        session_kind: kind,
        workspace: `/home/owner/work/${random.pick(['ledger', 'mail', 'site', 'notes'])}`,
        ...(goal === undefined ? {} : { goal }),
        config_id: `cfg-${random.hex(6)}`,
        person_present: surface !== 'task' && surface !== 'trigger',
        tools,
        ...(resumed ? { resumed: true } : {}),
      });
      const turns = random.int(2, 12);
      let promptTokens = random.int(800, 3000);
      const steerAt = random.chance(0.12) ? random.int(1, turns) : -1;
      const denyAt = random.chance(0.05) ? random.int(1, turns) : -1;
      const stopAt = random.chance(0.03) ? random.int(1, turns) : -1;
      const compactAt = random.chance(0.05) ? random.int(1, turns) : -1;
      const endIndex = turnIndex + turns;
      for (; turnIndex < endIndex; turnIndex += 1) {
        const turn = turnIndex;
        promptTokens += random.int(200, 1800);
        if (turn === 0 || (resumed && turn === endIndex - turns)) {
          event({
            v: 1,
            at: tick(1, 5),
            run_id: runId,
            type: 'message',
            turn,
            message_id: id('msg'),
            role: 'owner',
            taint: 'clean',
            text: text(6, 30),
          });
        }
        const calls = random.int(0, 2);
        for (let call = 0; call < calls && tools.length > 0; call += 1) {
          const callId = id('call');
          const tool = random.pick(tools);
          event({
            v: 1,
            at: tick(1, 20),
            run_id: runId,
            type: 'tool_call',
            turn,
            call_id: callId,
            tool,
            target:
              tool === 'web_fetch'
                ? `https://example.org/${random.hex(6)}`
                : `/home/owner/work/${random.hex(4)}.txt`,
            args_digest: `sha256:${random.hex(16)}`,
          });
          const thirdParty =
            tainted && (tool === 'web_fetch' || tool === 'mail_read' || random.chance(0.3));
          if (thirdParty) sawThirdParty = true;
          event({
            v: 1,
            at: tick(1, 30),
            run_id: runId,
            type: 'tool_result',
            turn,
            call_id: callId,
            status: random.weighted([
              ['ok', 90],
              ['error', 8],
              ['denied', 2],
            ] as const),
            result_digest: `sha256:${random.hex(16)}`,
            taint: thirdParty ? 'third_party' : 'clean',
          });
        }
        if (tainted && turn === 1) {
          sawThirdParty = true;
          event({
            v: 1,
            at: tick(1, 5),
            run_id: runId,
            type: 'message',
            turn,
            message_id: id('msg'),
            role: 'third_party',
            taint: 'third_party',
            text: text(10, 40),
          });
        }
        event({
          v: 1,
          at: tick(2, 40),
          run_id: runId,
          type: 'message',
          turn,
          message_id: id('msg'),
          role: 'assistant',
          taint: sawThirdParty ? 'third_party' : 'clean',
          text: text(8, 45),
          prompt_tokens: promptTokens,
        });
        if (turn - (endIndex - turns) + 1 === steerAt) {
          event({
            v: 1,
            at: tick(1, 10),
            run_id: runId,
            type: 'intervention',
            turn,
            kind: 'steer',
          });
        }
        if (turn - (endIndex - turns) + 1 === denyAt) {
          event({ v: 1, at: tick(1, 10), run_id: runId, type: 'intervention', turn, kind: 'deny' });
        }
        if (turn - (endIndex - turns) + 1 === compactAt) {
          event({ v: 1, at: tick(1, 10), run_id: runId, type: 'compaction', turn });
        }
        if (stepChecks && random.chance(0.3)) {
          event({
            v: 1,
            at: tick(1, 10),
            run_id: runId,
            type: 'step_check',
            turn,
            step_id: `step-${turn}`,
            passed: random.chance(0.85),
          });
        }
        if (draftCount > 0 && random.chance(0.35)) {
          draftCount -= 1;
          const draftId = id('draft');
          draftIds.push(draftId);
          schedule.add(clock, 'outbox', {
            v: 1,
            type: 'staged',
            at: iso(clock),
            draft_id: draftId,
            session_id: sessionId,
            run_id: runId,
            tool: random.pick(['mail_send', 'slack_post']),
            taint: sawThirdParty ? 'third_party' : 'clean',
            ...(goal === undefined ? {} : { goal }),
            text: text(15, 60),
          });
          if (random.chance(0.2)) {
            schedule.add(clock, 'predictions', {
              v: 1,
              prediction_id: id('pred'),
              at: iso(clock),
              draft_id: draftId,
              session_id: sessionId,
              response: random.pick(['release', 'hold', 'revise']),
              concern: random.pick(['tone', 'wrong_recipient', 'missing_attachment', 'none']),
              taint: sawThirdParty ? 'third_party' : 'clean',
            });
          }
        }
        if (turn - (endIndex - turns) + 1 === stopAt) break;
      }
      lastTurns = turns;
      if (stopAt !== -1) {
        event({
          v: 1,
          at: tick(1, 5),
          run_id: runId,
          type: 'intervention',
          turn: turnIndex,
          kind: 'stop',
        });
      }
      if (random.chance(0.1)) {
        event({
          v: 1,
          at: tick(1, 2),
          run_id: runId,
          type: 'counter',
          name: 'tool_errors',
          value: random.int(1, 3),
        });
      }
      // A `stopped` end without a stop intervention is how older transcripts recorded one.
      const stopCause: StopCause =
        stopAt !== -1
          ? 'stopped'
          : parks && runNumber === 0
            ? 'parked'
            : random.weighted(stopCauses);
      const counter = ceilingCounter[stopCause];
      if (counter !== undefined) {
        event({ v: 1, at: tick(1, 2), run_id: runId, type: 'counter', name: counter, value: 1 });
      }
      if (parks && runNumber === 0) {
        const questionId = id('q');
        const parkedAt = clock;
        schedule.add(parkedAt, 'questions', {
          v: 1,
          type: 'parked',
          at: iso(parkedAt),
          question_id: questionId,
          session_id: sessionId,
          purpose: random.chance(0.2) ? 'goal' : 'ordinary',
          ...(goal === undefined ? {} : { goal }),
        });
        if (questionOutcome !== 'pending') {
          const answeredAt = parkedAt + random.int(20, 20 * 60) * minute;
          schedule.add(answeredAt, 'questions', {
            v: 1,
            type: questionOutcome,
            at: iso(answeredAt),
            question_id: questionId,
          });
        }
      }
      event({
        v: 1,
        at: tick(1, 5),
        run_id: runId,
        type: 'run_end',
        stop_cause: stopCause,
        turns: lastTurns,
      });
    }
    const endedAt = clock;

    // What became of the session's drafts, request, workflow and task.
    for (const draftId of draftIds) {
      const outcome = random.weighted([
        ['sent_unchanged', 45],
        ['sent_edited', 15],
        ['rejected', 15],
        ['cancelled', 5],
        ['pending', 20],
      ] as const);
      if (outcome === 'pending') continue;
      const at = endedAt + random.int(10, 60 * 60) * minute;
      const sender = random.weighted([
        ['owner', 85],
        ['run_shell', 15],
      ] as const);
      schedule.add(at, 'outbox', {
        v: early ? 1 : 2,
        type: 'outcome',
        at: iso(at),
        draft_id: draftId,
        outcome,
        ...(outcome === 'rejected' && random.chance(0.5) ? { reason: text(4, 14) } : {}),
        ...(early ? {} : { sender }),
      });
      if ((outcome === 'sent_unchanged' || outcome === 'sent_edited') && random.chance(0.1)) {
        const reportedAt = at + random.int(1, 72) * hour;
        schedule.add(reportedAt, 'ownerOutcomes', {
          v: 1,
          outcome_id: id('outcome'),
          at: iso(reportedAt),
          draft_id: draftId,
          session_id: sessionId,
          kind: random.weighted([
            ['fine', 70],
            ['confirmed_error', 20],
            ['adverse_impact', 10],
          ] as const),
          ...(requestId === undefined ? {} : { commitment_id: requestId }),
        });
      }
    }
    if (requestId !== undefined) {
      schedule.add(startedAt, 'requests', {
        v: 1,
        type: 'triaged',
        at: iso(startedAt),
        request_id: requestId,
        session_id: sessionId,
      });
      const linked = draftIds[0];
      if (linked !== undefined) {
        schedule.add(endedAt, 'requests', {
          v: 1,
          type: 'draft_linked',
          at: iso(endedAt),
          request_id: requestId,
          draft_id: linked,
        });
      }
      const fate = random.weighted([
        ['closed', 60],
        ['needs_info', 15],
        ['open', 25],
      ] as const);
      if (fate !== 'open') {
        const at = endedAt + random.int(1, 96) * hour;
        schedule.add(at, 'requests', { v: 1, type: fate, at: iso(at), request_id: requestId });
      }
    }
    if (workflowId !== undefined) {
      schedule.add(startedAt + minute, 'workflows', {
        v: 1,
        type: 'started',
        at: iso(startedAt + minute),
        workflow_id: workflowId,
        session_id: sessionId,
        ...(task === undefined || !random.chance(0.5) ? {} : { task_id: task.id }),
      });
      schedule.add(endedAt, 'workflows', {
        v: 1,
        type: 'verified',
        at: iso(endedAt),
        workflow_id: workflowId,
        check: random.chance(0.7) ? 'artifact' : 'delivery',
        passed: random.chance(0.8),
        session_id: sessionId,
      });
      const fate = random.weighted([
        ['closed', 60],
        ['cancelled', 15],
        ['open', 25],
      ] as const);
      if (fate !== 'open') {
        const at = endedAt + random.int(1, 48) * hour;
        schedule.add(at, 'workflows', { v: 1, type: fate, at: iso(at), workflow_id: workflowId });
        if (fate === 'closed' && random.chance(0.1)) {
          const later = at + random.int(1, 10) * day;
          schedule.add(later, 'workflows', {
            v: 1,
            type: 'reopened',
            at: iso(later),
            workflow_id: workflowId,
          });
        }
      }
    }
    if (task !== undefined && !task.closing && kind === 'ordinary' && random.chance(0.4)) {
      const closing = task;
      closing.closing = true;
      const at = endedAt + random.int(1, 72) * hour;
      const to = random.chance(0.8) ? 'done' : 'dropped';
      const closureId = id('close');
      const closure = {
        v: early ? 1 : 2,
        closure_id: closureId,
        at: iso(at),
        task_id: closing.id,
        from: closing.status,
        to,
        surface: random.pick(['cli', 'web', 'slack', 'tui']),
        session_ids: [sessionId],
        ...(early
          ? {}
          : { who: random.chance(0.85) ? 'owner' : 'agent_with_approval', person_present: true }),
      };
      schedule.add(at, 'closures', closure);
      schedule.add(at, 'board', { ...boardRow(closing), status: to }, () => {
        closing.status = to;
      });
      if (to === 'done' && random.chance(0.08)) {
        const reopenedAt = at + random.int(1, 20) * day;
        schedule.add(reopenedAt, 'closures', {
          v: 2,
          closure_id: id('close'),
          at: iso(reopenedAt),
          task_id: closing.id,
          from: 'done',
          to: 'next',
          surface: random.pick(['cli', 'web']),
          session_ids: [sessionId],
          who: 'owner',
          person_present: true,
          reopens: closureId,
          ...(random.chance(0.5) ? { reason: text(4, 12) } : {}),
        });
        schedule.add(reopenedAt, 'board', { ...boardRow(closing), status: 'next' }, () => {
          closing.status = 'next';
          closing.closing = false;
        });
      }
    }

    // The nightly passes: reflections, text appraisals and their scores, the distill ledger.
    const nightly = endedAt + random.int(6, 30) * hour;
    if (random.chance(0.1)) {
      const reflectionId = id('refl');
      reflections.push(reflectionId);
      schedule.add(nightly, 'reflections', {
        v: 1,
        reflection_id: reflectionId,
        session_id: sessionId,
        at: iso(nightly),
        clean: !sawThirdParty && random.chance(0.9),
        ...(random.chance(0.4)
          ? { correction_turn: random.int(0, Math.max(0, turnIndex - 1)) }
          : {}),
      });
    }
    if (random.chance(0.3)) {
      const appraisalId = id('appr');
      const expected = random.chance(0.7) ? random.pick(expectedActSchema.options) : undefined;
      const taint = sawThirdParty ? 'third_party' : 'clean';
      schedule.add(nightly, 'textAppraisals', {
        v: 1,
        appraisal_id: appraisalId,
        session_id: sessionId,
        at: iso(nightly),
        taint,
        ...(expected === undefined ? {} : { expected_act: expected }),
        interpretation: text(20, 80),
        claims_kept: random.int(0, 4),
        claims_dropped: random.chance(0.3) ? { no_such_referent: random.int(1, 2) } : {},
        goal_unresolved: goal !== undefined && random.chance(0.05),
      });
      if (expected !== undefined && random.chance(0.5)) {
        const actual = random.pick([
          'released_unchanged',
          'edited',
          'rejected',
          'closed',
          'reopened',
          'no_act',
        ] as const);
        schedule.add(nightly + 3 * day, 'scores', {
          v: 1,
          appraisal_id: appraisalId,
          session_id: sessionId,
          at: iso(nightly + 3 * day),
          expected,
          actual,
          hit: expected === actual,
          taint,
        });
      }
      if (random.chance(0.05)) {
        const comparisonId = id('cmp');
        schedule.add(nightly + day, 'comparisons', {
          v: 1,
          comparison_id: comparisonId,
          at: iso(nightly + day),
          session_id: sessionId,
          moment: random.pick(['steer', 'refusal', 'draft_rewritten', 'draft_rejected']),
          model: random.pick(['local-7b', 'local-14b']),
          verdict: random.pick(['separated', 'tied', 'inconclusive'] as const),
          decided_by: 'validator',
        });
        schedule.add(nightly + 2 * day, 'counterfactuals', {
          v: 1,
          reflection_id: id('cfr'),
          at: iso(nightly + 2 * day),
          session_id: sessionId,
          comparison_id: comparisonId,
          taint,
        });
      }
    }
    if (random.chance(0.6)) {
      schedule.add(nightly, 'distilled', {
        v: 1,
        at: iso(nightly),
        session_id: sessionId,
        outcome: random.weighted([
          ['pushed', 70],
          ['skipped', 20],
          ['too_short', 10],
        ] as const),
      });
    }
    if (index % 200 === 199 && reflections.length > 0) {
      const ruleId = id('rule');
      rules.push(ruleId);
      schedule.add(nightly, 'rules', {
        v: 1,
        rule_id: ruleId,
        at: iso(nightly),
        text: text(6, 20),
        reflection_ids: reflections.slice(-3),
      });
    }
    if (index % 300 === 299 && rules.length > 0) {
      schedule.add(nightly + day, 'ruleVerdicts', {
        v: 1,
        at: iso(nightly + day),
        target: 'rule',
        target_id: random.pick(rules),
        verdict: random.pick(['retired', 'restored'] as const),
      });
    }
    if (reflections.length > 0 && random.chance(0.005)) {
      schedule.add(nightly + day, 'reflectionVerdicts', {
        v: 1,
        at: iso(nightly + day),
        target: 'reflection',
        target_id: random.pick(reflections),
        verdict: random.pick(['dropped', 'edited'] as const),
      });
    }
    if (index % 500 === 499) {
      schedule.add(nightly + day, 'candidateVerdicts', {
        v: 1,
        at: iso(nightly + day),
        target: 'candidate',
        target_id: id('cand'),
        verdict: random.pick(['accepted', 'rejected', 'reverted'] as const),
      });
    }

    // The transcript goes to disk now; a few are left with a torn last line.
    let body = `${lines.join('\n')}\n`;
    if (random.chance(tornRate)) {
      const last = lines[lines.length - 1] as string;
      body = `${lines.slice(0, -1).join('\n')}\n${last.slice(0, Math.max(1, Math.floor(last.length / 2)))}`;
      tornLines += 1;
    }
    writeFileSync(join(home, homeLayout.sessions, `${sessionId}.jsonl`), body);
    sessionLines += lines.length;
    sessionBytes += Buffer.byteLength(body);
  }

  flushUntil(Number.POSITIVE_INFINITY);
  let bytes = sessionBytes;
  const lineCounts: Record<string, number> = { [sessionsEntry]: sessionLines };
  for (const [store, file] of [...files.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    file.close();
    bytes += file.bytes;
    lineCounts[homeLayout[store]] = file.lines;
  }

  const charterText = stringifyCharter(charter);
  writeFileSync(join(home, homeLayout.charter), charterText);
  writeFileSync(join(home, homeLayout.config), configToml);
  const created = [
    ...[...files.keys()].map((store) => homeLayout[store]),
    sessionsEntry,
    homeLayout.charter,
  ].sort();
  const manifest = `${JSON.stringify({ v: 1, created })}\n`;
  writeFileSync(join(home, homeLayout.manifest), manifest);
  bytes +=
    Buffer.byteLength(charterText) + Buffer.byteLength(configToml) + Buffer.byteLength(manifest);

  return {
    path: home,
    sessions: count,
    files: count + files.size + 3,
    bytes,
    lines: lineCounts,
    tornLines,
  };
}
