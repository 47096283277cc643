import type { AppraiserCore } from './appraiser-core.js';
import { AppraiserInputError } from './appraiser-error.js';
import {
  correctionContextLimit,
  type QueueRow,
  type SourceRow,
  type StoredAssessment,
  type StoredRelationship,
} from './appraiser-types.js';
import { type Interpretation, unknownValue } from './interpretation.js';
import { utf8Bytes } from './json-text.js';
import type { CorrectionCandidate } from './prompts.js';
import { addQueueVersion, queueState } from './queue.js';
import { assessmentSql } from './sql.js';

// The published evidence: assessments, their relationships and supersessions.

const known = (value: number): number | null => (value === unknownValue ? null : value);

/** Byte offsets of the first occurrence of `part` in `text`. */
function span(text: string, part: string): { start: number; end: number } | undefined {
  const at = text.indexOf(part);
  if (at === -1 || part === '') return undefined;
  const start = utf8Bytes(text.slice(0, at));
  return { start, end: start + utf8Bytes(part) };
}

/** The current assessments a new answer about the same source's subject may correct. */
export function correctionCandidates(
  core: AppraiserCore,
  source: SourceRow,
): CorrectionCandidate[] {
  if (source.subject === null) return [];
  return core.db
    .prepare(assessmentSql.correctionCandidates)
    .all(
      source.subject,
      source.owner,
      source.scope,
      source.id,
      correctionContextLimit,
    ) as CorrectionCandidate[];
}

function insertAssessment(
  core: AppraiserCore,
  queue: QueueRow,
  source: SourceRow,
  quotes: readonly string[],
  answer: Interpretation,
  model: string,
): number {
  return core.db
    .prepare(assessmentSql.insert)
    .run(
      queue.id,
      source.id,
      source.subject as string,
      source.owner,
      source.scope,
      queue.processor,
      model,
      answer.support,
      known(answer.benefit),
      known(answer.harm),
      known(answer.arousal),
      answer.consequence,
      known(answer.confidence),
      answer.evidence,
      answer.task,
      answer.commitment,
      answer.correction,
      JSON.stringify(quotes),
      core.now(),
    ).lastInsertRowid as number;
}

/** Publishes one accepted result: completed queue version, assessment, relationship, supersessions. */
export function publish(
  core: AppraiserCore,
  queue: QueueRow,
  source: SourceRow,
  quotes: readonly string[],
  answer: Interpretation,
  model: string,
  candidates: readonly CorrectionCandidate[],
): number {
  const { db } = core;
  return db
    .transaction(() => {
      if (queueState(core, queue.id) === 'complete') {
        throw new AppraiserInputError(`queue #${queue.id} is already complete`);
      }
      addQueueVersion(core, queue.id, 'complete');
      const assessment = insertAssessment(core, queue, source, quotes, answer, model);
      const spans = (['evidence', 'task', 'commitment'] as const).flatMap((field) => {
        const found = span(source.text, answer[field]);
        return found ? [{ field, ...found }] : [];
      });
      db.prepare(assessmentSql.insertRelationship).run(
        assessment,
        queue.id,
        source.subject as string,
        source.owner,
        source.scope,
        answer.task === '' ? null : source.task_id,
        known(answer.regard_gain),
        known(answer.regard_loss),
        known(answer.trust_gain),
        known(answer.trust_loss),
        JSON.stringify(spans),
      );
      if (answer.correction === 1) {
        for (const candidate of candidates) {
          db.prepare(assessmentSql.supersede).run(candidate.id);
          db.prepare(assessmentSql.supersedeRelationship).run(candidate.id);
          db.prepare(assessmentSql.insertSupersession).run(candidate.id, assessment, core.now());
        }
      }
      return assessment;
    })
    .immediate();
}

function relationshipOf(core: AppraiserCore, assessmentId: number): StoredRelationship | null {
  const row = core.db.prepare(assessmentSql.relationship).get(assessmentId) as
    | Record<string, unknown>
    | undefined;
  if (!row) return null;
  return {
    id: row.id as number,
    taskId: row.task_id as string | null,
    regardGain: row.regard_gain as number | null,
    regardLoss: row.regard_loss as number | null,
    trustGain: row.trust_gain as number | null,
    trustLoss: row.trust_loss as number | null,
    exposure: 1,
    spans: JSON.parse(row.spans as string) as StoredRelationship['spans'],
    status: row.status as StoredRelationship['status'],
  };
}

/** Every stored assessment (or one subject's), with its relationship. */
export function readAssessments(
  core: AppraiserCore,
  filter: { readonly subject?: string } = {},
): StoredAssessment[] {
  const rows = (
    filter.subject === undefined
      ? core.db.prepare(assessmentSql.all).all()
      : core.db.prepare(assessmentSql.bySubject).all(filter.subject)
  ) as Record<string, unknown>[];
  return rows.map((row) => {
    const schema = row.schema as 1 | 2;
    const base = {
      id: row.id as number,
      schema,
      queueId: row.queue_id as number | null,
      sourceId: row.source_id as number,
      subject: row.subject as string,
      owner: row.owner as string,
      scope: row.scope as string,
      processor: row.processor as string,
      model: row.model as string,
      support: row.support as 0 | 1,
      benefit: row.benefit as number | null,
      harm: row.harm as number | null,
      arousal: row.arousal as number | null,
      consequence: row.consequence as number,
      confidence: row.confidence as number | null,
      evidence: row.evidence as string,
      quotes: JSON.parse(row.quotes as string) as string[],
      status: row.status as StoredAssessment['status'],
      relationship: relationshipOf(core, row.id as number),
    };
    // Schema 1 has no task, commitment or correction fields: they stay absent, not empty.
    return schema === 1
      ? base
      : {
          ...base,
          task: row.task as string,
          commitment: row.commitment as string,
          correction: row.correction as 0 | 1,
        };
  });
}

/** Current and superseded assessment counts. */
export function assessmentCounts(core: AppraiserCore): { current: number; superseded: number } {
  const count = (sql: string) => (core.db.prepare(sql).get() as { n: number }).n;
  return {
    current: count(assessmentSql.countCurrent),
    superseded: count(assessmentSql.countSuperseded),
  };
}
