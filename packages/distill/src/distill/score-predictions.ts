import {
  type ExpectationScoreRecord,
  type ExpectedAct,
  indexSessionStores,
  readSessionStores,
  scoreExpectation,
} from '@mecha/appraisal-core';
import { homePorts, type MechaHome } from '@mecha/stores';

/** What checking the predictions came to in one run. */
export interface ScoringReport {
  /** Answers recorded now in `appraisals/scores.jsonl`, each once. */
  readonly scored: number;
  readonly hits: number;
  /** Wrong predictions: recorded as surprises (a score whose `hit` is false). */
  readonly surprises: number;
  /** The wait is still open: asked again by a later run. */
  readonly waiting: number;
  /** A source the answer needs could not be read: asked again by a later run. */
  readonly unknown: number;
  /** Appraisals whose answer was already on record. */
  readonly alreadyScored: number;
  /** Why nothing could be scored (a store unreadable, the write refused), when so. */
  readonly problem?: string;
}

/**
 * Checks each text appraisal's expected act against what the owner actually did with the
 * session's output (appraisal-core's `scoreExpectation`, with the board read, so task outputs
 * are windowed by their due dates), and records each answer once in `appraisals/scores.jsonl`.
 * A wrong prediction is recorded as a surprise: its score says `hit: false`. Waiting and unknown
 * answers are not recorded, so a later run asks again; an answer on record is never redone.
 */
export async function scorePredictions(home: MechaHome, now: Date): Promise<ScoringReport> {
  const none = { scored: 0, hits: 0, surprises: 0, waiting: 0, unknown: 0, alreadyScored: 0 };
  const [appraisals, scores] = await Promise.all([
    home.appraisals.textAppraisals.read(),
    home.appraisals.scores.read(),
  ]);
  if (appraisals.state === 'unreadable') {
    return { ...none, problem: `the text appraisals cannot be read: ${appraisals.reason}` };
  }
  // Without the scores on record nobody can tell what was answered: nothing is scored twice.
  if (scores.state === 'unreadable') {
    return { ...none, problem: `the scores cannot be read: ${scores.reason}` };
  }
  const done = new Set(scores.records.map((record) => record.appraisal_id));
  const waiting = appraisals.records.filter(
    (record): record is typeof record & { readonly expected_act: ExpectedAct } =>
      record.expected_act !== undefined,
  );
  const todo = waiting.filter((appraisal) => !done.has(appraisal.appraisal_id));
  if (todo.length === 0) return { ...none, alreadyScored: waiting.length };
  const ports = homePorts(home);
  const [stores, charter, board] = await Promise.all([
    readSessionStores(ports),
    ports.charter.lines(),
    ports.board.read(),
  ]);
  const config = home.readConfig();
  const timeZone = config._tag === 'Right' ? config.right.agent.timezone : 'UTC';
  const index = indexSessionStores(stores);
  const records: ExpectationScoreRecord[] = [];
  let open = 0;
  let unknown = 0;
  for (const appraisal of todo) {
    const transcript = await home.sessions.transcript(appraisal.session_id);
    const evidence = { ...index.evidenceFor(appraisal.session_id, transcript), board };
    const score = scoreExpectation(appraisal, evidence, { now, timeZone, charter });
    if (score.status === 'scored') {
      records.push({
        v: 1,
        appraisal_id: appraisal.appraisal_id,
        session_id: appraisal.session_id,
        at: now.toISOString(),
        expected: score.expected,
        actual: score.actual,
        hit: score.hit,
        taint: appraisal.taint,
      });
    } else if (score.status === 'pending') open += 1;
    else unknown += 1;
  }
  const counts = { waiting: open, unknown, alreadyScored: waiting.length - todo.length };
  if (records.length === 0) return { ...none, ...counts };
  const written = await home.appraisals.scores.append(records);
  if (written._tag === 'Left') {
    return {
      ...none,
      ...counts,
      problem: `the scores could not be written: ${written.left.message}`,
    };
  }
  const hits = records.filter((record) => record.hit).length;
  return { ...counts, scored: records.length, hits, surprises: records.length - hits };
}
