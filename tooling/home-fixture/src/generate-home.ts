import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { homeLayout, seededRandom } from '@mecha/stores';
import { sessionsEntry } from '@mecha/stores/testing';
import { appraiseSession } from './appraisals.js';
import { Board } from './board.js';
import { settleDrafts } from './drafts.js';
import { day, drawFrom, hour } from './draw.js';
import { writeHomeFiles } from './home-files.js';
import { HomeWriter } from './home-writer.js';
import { Learning } from './learning.js';
import { settleRequest } from './requests.js';
import { drawFates, planSession } from './session-plan.js';
import { Transcript } from './transcript.js';
import { settleWorkflow } from './workflows.js';

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
  const draw = drawFrom(seededRandom(options.seed));
  const start = (options.start ?? new Date('2026-06-01T00:00:00Z')).getTime();
  const span = (options.days ?? 120) * day;
  const tornRate = options.tornRate ?? 0.005;
  const count = Math.max(0, Math.floor(options.sessions));

  rmSync(home, { recursive: true, force: true });
  mkdirSync(join(home, homeLayout.sessions), { recursive: true });

  const writer = new HomeWriter(home);
  const board = new Board(draw, writer, count, start);
  const learning = new Learning(draw, writer);
  const spacing = count === 0 ? 0 : span / count;
  let sessionLines = 0;
  let sessionBytes = 0;
  let tornLines = 0;

  for (let index = 0; index < count; index += 1) {
    const startedAt = Math.floor(start + index * spacing + draw.random.next() * spacing * 0.5);
    writer.flushUntil(startedAt);
    const plan = planSession(draw, board, { index, count, startedAt });
    const fates = drawFates(draw, writer, plan);
    const transcript = new Transcript(draw, writer, plan, fates);
    const endedAt = transcript.runAll();
    const { sessionId } = plan;
    const thirdParty = transcript.sawThirdParty;

    // What became of the session's drafts, request, workflow and task.
    const { early, task } = plan;
    const { requestId, workflowId } = fates;
    const { draftIds } = transcript;
    settleDrafts(draw, writer, { draftIds, sessionId, endedAt, early, requestId });
    if (requestId !== undefined) {
      const linkedDraft = draftIds[0];
      settleRequest(draw, writer, { requestId, sessionId, startedAt, endedAt, linkedDraft });
    }
    if (workflowId !== undefined) {
      settleWorkflow(draw, writer, { workflowId, sessionId, startedAt, endedAt, task });
    }
    if (
      task !== undefined &&
      !task.closing &&
      plan.kind === 'ordinary' &&
      draw.random.chance(0.4)
    ) {
      board.close(task, sessionId, endedAt, early);
    }

    // The nightly passes: reflections, text appraisals and their scores, the distill ledger.
    const nightly = endedAt + draw.random.int(6, 30) * hour;
    learning.reflect(nightly, sessionId, thirdParty, transcript.turnIndex);
    if (draw.random.chance(0.3)) {
      appraiseSession(draw, writer, { nightly, sessionId, thirdParty, goal: plan.goal });
    }
    learning.distilAndCurate(nightly, sessionId, index);

    // The transcript goes to disk now; a few are left with a torn last line.
    const written = transcript.write(home, tornRate);
    if (written.torn) tornLines += 1;
    sessionLines += transcript.lines.length;
    sessionBytes += written.bytes;
  }

  const stores = writer.close();
  const bytes =
    sessionBytes + stores.bytes + writeHomeFiles(home, [...stores.created, sessionsEntry]);
  return {
    path: home,
    sessions: count,
    files: count + stores.created.length + 3,
    bytes,
    lines: { [sessionsEntry]: sessionLines, ...stores.lines },
    tornLines,
  };
}
