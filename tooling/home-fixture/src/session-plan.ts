import type { GoalRef } from '@mecha/appraisal-core';
import type { Board, Task } from './board.js';
import { type Draw, iso, minute } from './draw.js';
import { charter } from './home-files.js';
import type { HomeWriter } from './home-writer.js';
import type { QuestionOutcome } from './questions.js';
import { receiveRequest } from './requests.js';

const surfaces = [
  ['web', 35],
  ['tui', 25],
  ['task', 15],
  ['slack', 10],
  ['trigger', 8],
  ['voice', 4],
  ['cli', 3],
] as const;

const toolNames = ['fs_read', 'fs_write', 'shell', 'web_fetch', 'mail_read', 'calendar', 'kg_task'];

/** Who a session is: its id, kind, surface, tools and goal, drawn before its first event. */
export interface SessionPlan {
  readonly index: number;
  readonly sessionId: string;
  readonly startedAt: number;
  /** Among the first 15% of sessions: written with the stores' older record versions. */
  readonly early: boolean;
  readonly kind: 'ordinary' | 'test' | 'experiment';
  readonly surface: (typeof surfaces)[number][0];
  /** Whether third-party content reaches it. */
  readonly tainted: boolean;
  readonly tools: readonly string[];
  readonly goal: GoalRef | undefined;
  /** The board task it works on, when its goal is one. */
  readonly task: Task | undefined;
}

/** What will happen in a session, drawn before its first event. */
export interface SessionFates {
  /** Whether its first run parks on a question. */
  readonly parks: boolean;
  readonly questionOutcome: QuestionOutcome;
  /** How many drafts its runs may stage. */
  readonly drafts: number;
  /** The front-door request it answers (received before it started). */
  readonly requestId: string | undefined;
  readonly workflowId: string | undefined;
  readonly stepChecks: boolean;
  /** Two when the question its first run parked on was answered, else one. */
  readonly runs: number;
}

/** Draws session number `index`, started at `startedAt`, of a home of `count` sessions. */
export function planSession(
  draw: Draw,
  board: Board,
  session: { readonly index: number; readonly count: number; readonly startedAt: number },
): SessionPlan {
  const { random, id } = draw;
  const { index, startedAt } = session;
  const early = index < session.count * 0.15;
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
      const open = random.chance(0.6) ? board.openTasks() : [];
      task = open.length > 0 ? random.pick(open) : board.newTask(startedAt - minute);
      goal = { kind: 'task', id: task.id };
    } else if (goalKind === 'charter') {
      goal = { kind: 'charter', id: random.pick(charter).id };
    } else if (goalKind === 'project') {
      goal = { kind: 'project', id: random.pick(board.projects) };
    } else {
      goal = { kind: goalKind, id: id(goalKind === 'trigger' ? 'trig' : 'req') };
    }
  }
  return { index, sessionId, startedAt, early, kind, surface, tainted, tools, goal, task };
}

/** Draws what will happen in the session (a request it answers is received now). */
export function drawFates(draw: Draw, writer: HomeWriter, plan: SessionPlan): SessionFates {
  const { random, id } = draw;
  const parks = random.chance(0.1);
  const questionOutcome = random.weighted([
    ['answered', 70],
    ['abandoned', 15],
    ['pending', 15],
  ] as const);
  const drafts = random.chance(0.25) ? random.int(1, 2) : 0;
  const requestId = receiveRequest(draw, writer, plan.startedAt);
  const workflowId = random.chance(0.05) ? id('wf') : undefined;
  const stepChecks = random.chance(0.15);
  const runs = parks && questionOutcome === 'answered' ? 2 : 1;
  return { parks, questionOutcome, drafts, requestId, workflowId, stepChecks, runs };
}
