import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  BoardRecord,
  ClosureRecord,
  ConditionsSnapshot,
  GoalRef,
  OutboxRecord,
  QuestionRecord,
  SourceRead,
  StopCause,
} from '@mecha/appraisal-core';
import { recordedActs } from '@mecha/appraisal-core';
import {
  type Attempt,
  type AttemptsInput,
  type BudgetInput,
  couldNotRead,
  type GoalInput,
  type OwnerAct,
  ownerTime,
  type QuietHours,
  type Reading,
  type RunsInput,
  readValue,
  type SeatsInput,
  type ServedLine,
  type SituationInput,
  type SlotsInput,
  summarizeBoard,
  type VoiceInput,
} from '@mecha/homeostat';
import { parse } from 'smol-toml';
import type { MechaHome } from '../home-context.js';

/** How far back earlier attempts at the same task are looked for. */
export const attemptWindowDays = 90;

// A run with no end that began longer ago than this is not counted as in flight.
const inFlightMs = 24 * 60 * 60 * 1000;

/**
 * What only the harness knows about a run's situation: its background seats, the local model
 * server's slots, whether a voice call is on, and the run's ceilings. Each one left out reads
 * as unknown in the brief ("could not be read"), never as none.
 */
export interface HarnessSituation {
  readonly seats?: Reading<SeatsInput>;
  readonly slots?: Reading<SlotsInput>;
  readonly voice?: Reading<VoiceInput>;
  readonly budget?: Reading<BudgetInput>;
}

const unsaid = (what: string) => couldNotRead(`the harness did not say ${what}`);

/** The owner's local calendar date at `now` in `timeZone` (`2026-09-25`), or undefined. */
function localDate(now: number, timeZone: string): string | undefined {
  try {
    const parts = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).formatToParts(now);
    const part = (type: string) => parts.find((each) => each.type === type)?.value;
    return `${part('year')}-${part('month')}-${part('day')}`;
  } catch {
    return undefined;
  }
}

/** The file the owner's quiet hours are set in, relative to the home. */
export const attentionFile = 'workflows/attention.toml';

/**
 * The owner's quiet hours from `workflows/attention.toml` (`[quiet_hours] start = "22:00"`,
 * `end = "07:00"`). No file, or a file with no `[quiet_hours]`, means none are recorded — not a
 * default; a file that cannot be read or parsed is a failed reading.
 */
export function readQuietHours(homePath: string): Reading<QuietHours | undefined> {
  let text: string;
  try {
    text = readFileSync(join(homePath, attentionFile), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return readValue(undefined);
    return couldNotRead(`${attentionFile} could not be read (${(error as Error).message})`);
  }
  let table: Record<string, unknown>;
  try {
    table = parse(text) as Record<string, unknown>;
  } catch {
    return couldNotRead(`${attentionFile} is not valid TOML`);
  }
  const quiet = table.quiet_hours;
  if (quiet === undefined) return readValue(undefined);
  if (typeof quiet !== 'object' || quiet === null) {
    return couldNotRead(`${attentionFile}: quiet_hours is not a table`);
  }
  const { start, end } = quiet as Record<string, unknown>;
  if (typeof start !== 'string' || typeof end !== 'string') {
    return couldNotRead(`${attentionFile}: quiet_hours needs start and end as "HH:MM"`);
  }
  return readValue({ start, end });
}

function goalInput(
  goal: GoalRef | undefined,
  board: SourceRead<BoardRecord>,
  charter: ReturnType<MechaHome['readCharter']>,
): Reading<GoalInput> {
  if (goal === undefined) return readValue({ anchor: 'no_anchor' });
  if (goal.id === undefined) return couldNotRead(`the run's ${goal.kind} goal names no id`);
  const servesCharter = (): Reading<readonly ServedLine[]> => {
    if (charter.state === 'unreadable') return couldNotRead(charter.reason);
    const rank = charter.charter.findIndex((line) => line.id === goal.id);
    return rank === -1
      ? couldNotRead(`charter line ${goal.id} is not in the charter`)
      : readValue([{ id: goal.id as string, rank: rank + 1 }]);
  };
  if (goal.kind === 'task') {
    // No store links a task to a charter line yet, so a task serves none on record.
    const serves = readValue([] as ServedLine[]);
    if (board.state === 'unreadable') {
      return readValue({
        anchor: 'task',
        taskId: goal.id,
        project: couldNotRead(board.reason),
        serves,
      });
    }
    const task = board.records.find((row) => row.kind === 'task' && row.id === goal.id);
    if (task === undefined || task.kind !== 'task') {
      return readValue({
        anchor: 'task',
        taskId: goal.id,
        project: couldNotRead(`task ${goal.id} is not on the board`),
        serves,
      });
    }
    if (task.project_id === undefined) {
      return readValue({ anchor: 'task', taskId: goal.id, project: readValue('none'), serves });
    }
    const openTasks = board.records.filter(
      (row) =>
        row.kind === 'task' &&
        row.project_id === task.project_id &&
        (row.status === 'inbox' || row.status === 'next' || row.status === 'waiting'),
    ).length;
    return readValue({
      anchor: 'task',
      taskId: goal.id,
      project: readValue({ id: task.project_id, openTasks, complete: board.state === 'read' }),
      serves,
    });
  }
  if (goal.kind === 'charter')
    return readValue({ anchor: 'charter', id: goal.id, serves: servesCharter() });
  return readValue({
    anchor: goal.kind,
    id: goal.id,
    serves:
      goal.kind === 'trigger'
        ? couldNotRead('which lines a trigger serves is kept by the harness, not the home')
        : readValue([]),
  });
}

interface SessionSeen {
  readonly sessionId: string;
  readonly startedAt: string;
  readonly worked: boolean;
  readonly ended: StopCause | 'no_end_recorded';
}

function whole<T>(source: SourceRead<T>, name: string): Reading<readonly T[]> {
  if (source.state === 'unreadable') return couldNotRead(source.reason);
  if (source.state === 'partial') return couldNotRead(`the ${name} was read only in part`);
  return readValue(source.records);
}

// What the owner did with one session's work, as appraisal-core derives the owner's acts:
// drafts it staged, tasks it did the work of, questions it parked.
function ownerActs(
  sessionId: string,
  outbox: Reading<readonly OutboxRecord[]>,
  closures: Reading<readonly ClosureRecord[]>,
  questions: Reading<readonly QuestionRecord[]>,
): Reading<readonly OwnerAct[]> {
  if (outbox.state !== 'read') return outbox;
  if (closures.state !== 'read') return closures;
  if (questions.state !== 'read') return questions;
  const recorded = recordedActs({
    outbox: outbox.value,
    closures: closures.value,
    questions: questions.value,
  }).filter((act) => act.session_ids.includes(sessionId));
  const drafts: OwnerAct[] = [];
  const tasks: OwnerAct[] = [];
  const answers: OwnerAct[] = [];
  for (const act of recorded) {
    switch (act.act) {
      case 'draft_rejected':
      case 'draft_sent_unchanged':
      case 'draft_sent_edited':
      case 'draft_cancelled':
        // Only the owner's own decisions: a verdict with no record of who gave it is left out.
        // A rejection's reason is never carried: the brief does not quote it yet.
        if (act.sure) drafts.push({ act: act.act, draftId: act.id });
        break;
      case 'task_reopened':
        tasks.push({
          act: 'task_reopened',
          closureId: act.id,
          by: act.record.who,
          ...(act.record.reason === undefined ? {} : { reason: act.record.reason }),
        });
        break;
      case 'task_closed':
      case 'task_dropped':
        tasks.push({
          act: 'task_closed',
          closureId: act.id,
          to: act.act === 'task_closed' ? 'done' : 'dropped',
        });
        break;
      case 'question_answered':
      case 'question_abandoned':
        answers.push({
          act: act.act === 'question_answered' ? 'question_answered' : 'question_let_go',
          questionId: act.id,
        });
        break;
      default:
        break;
    }
  }
  return readValue([...drafts, ...tasks, ...answers]);
}

/** The runs in flight, the earlier attempts at the goal's task, from one pass over the sessions. */
async function readSessions(
  home: MechaHome,
  goal: GoalRef | undefined,
  now: number,
  ownSessionId: string | undefined,
): Promise<{ attempts: Reading<AttemptsInput>; runs: Reading<RunsInput> }> {
  const taskId = goal?.kind === 'task' ? goal.id : undefined;
  const seen: SessionSeen[] = [];
  const unreadable: string[] = [];
  const delegated = new Set<string>();
  const triggers = new Set<string>();
  const listing = await home.sessions.scan({
    population: { now: new Date(now), days: attemptWindowDays, includeTests: true },
    events: ['run_start', 'run_end'],
    visit: (member, transcript) => {
      if (member.sessionId === ownSessionId) return;
      if (transcript.state === 'unreadable') {
        unreadable.push(member.sessionId);
        return;
      }
      const open = new Map<string, { surface: string; goal: GoalRef | undefined; at: number }>();
      let worked = false;
      let ended: StopCause | 'no_end_recorded' = 'no_end_recorded';
      for (const event of transcript.records) {
        if (event.type === 'run_start') {
          open.set(event.run_id, {
            surface: event.surface,
            goal: event.goal,
            at: Date.parse(event.at),
          });
          if (taskId !== undefined && event.goal?.kind === 'task' && event.goal.id === taskId) {
            worked = true;
          }
        } else if (event.type === 'run_end') {
          open.delete(event.run_id);
          ended = event.stop_cause;
        }
      }
      // Delegated tasks and trigger runs still in flight; interactive chats are not counted. A
      // run with no end that began more than a day ago is taken for one a crash left open.
      for (const [runId, run] of open) {
        if (!(now - run.at <= inFlightMs)) continue;
        if (run.surface === 'task') delegated.add(run.goal?.id ?? runId);
        if (run.surface === 'trigger') triggers.add(run.goal?.id ?? runId);
      }
      seen.push({ sessionId: member.sessionId, startedAt: member.startedAt, worked, ended });
    },
  });
  const runs: Reading<RunsInput> =
    listing.state === 'unreadable'
      ? couldNotRead(listing.reason)
      : readValue({ delegatedTasks: [...delegated].sort(), triggers: [...triggers].sort() });
  if (taskId === undefined) return { attempts: readValue({ kind: 'not_a_task' }), runs };
  if (listing.state === 'unreadable') return { attempts: couldNotRead(listing.reason), runs };
  const worked = seen
    .filter((session) => session.worked)
    .sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0));
  const [outbox, closures, questions] = await Promise.all([
    home.outbox.read(),
    home.closures.read(),
    home.questions.read(),
  ]);
  const outboxRows = whole(outbox, 'outbox');
  const closureRows = whole(closures, 'closure record');
  const questionRows = whole(questions, 'question store');
  const sessions: Attempt[] = worked.slice(0, 3).map((session) => {
    const started = Date.parse(session.startedAt);
    return {
      sessionId: session.sessionId,
      startedAgo: Number.isFinite(started)
        ? readValue(Math.max(0, now - started))
        : couldNotRead('its start time is not on record'),
      ownerActs: ownerActs(session.sessionId, outboxRows, closureRows, questionRows),
      ended: readValue(session.ended),
    };
  });
  const short =
    unreadable.length > 0
      ? `${unreadable.length === 1 ? 'a session file' : 'some session files'} could not be read`
      : listing.state === 'partial'
        ? 'the session listing was read only in part'
        : undefined;
  return {
    attempts: readValue({
      kind: 'task',
      // Every session found is counted; the brief shows the newest three.
      sessions: [...sessions, ...worked.slice(3).map((session) => placeholder(session))],
      ...(short === undefined ? {} : { short }),
    }),
    runs,
  };
}

// Sessions past the newest three are counted by the brief but never shown, so their details
// are not read.
function placeholder(session: SessionSeen): Attempt {
  return {
    sessionId: session.sessionId,
    startedAgo: couldNotRead('not read: only the newest three are shown'),
    ownerActs: couldNotRead('not read: only the newest three are shown'),
    ended: readValue(session.ended),
  };
}

/**
 * Assembles everything a situation brief is rendered from, out of the home itself: the goal's
 * chain from the board and the charter, up to three earlier attempts at the same task in the
 * last 90 days, the board, the owner's time and quiet hours (`[agent] timezone`,
 * `workflows/attention.toml`), and the other runs in flight. What only the harness knows comes
 * in `situation`; anything missing reads as unknown.
 */
export async function situationFromHome(
  home: MechaHome,
  options: {
    readonly goal?: GoalRef;
    readonly now: number;
    readonly conditions: ConditionsSnapshot | undefined;
    readonly timeZone: Reading<string>;
    readonly situation?: HarnessSituation;
    /** The session this run belongs to, left out of "other runs" and of earlier attempts. */
    readonly sessionId?: string;
  },
): Promise<SituationInput> {
  const board = await home.board.read();
  const charter = home.readCharter();
  const { attempts, runs } = await readSessions(home, options.goal, options.now, options.sessionId);
  const zone = options.timeZone;
  const today = zone.state === 'read' ? localDate(options.now, zone.value) : undefined;
  const ownTaskId = options.goal?.kind === 'task' ? options.goal.id : undefined;
  const summary =
    zone.state !== 'read'
      ? couldNotRead(
          `today's date depends on the time zone, which could not be read: ${zone.reason}`,
        )
      : today === undefined
        ? couldNotRead(`the time zone ${JSON.stringify(zone.value)} is not known`)
        : summarizeBoard(board, { today, ...(ownTaskId === undefined ? {} : { ownTaskId }) });
  const situation = options.situation ?? {};
  return {
    goal: goalInput(options.goal, board, charter),
    attempts,
    board: summary,
    conditions: options.conditions,
    time:
      zone.state === 'read' ? ownerTime(options.now, zone.value, readQuietHours(home.path)) : zone,
    seats: situation.seats ?? unsaid('how many background seats it has'),
    runs,
    slots: situation.slots ?? unsaid('whether its model server is a local one'),
    voice: situation.voice ?? unsaid('whether a voice call is in progress'),
    budget: situation.budget ?? unsaid("the run's ceilings"),
  };
}
