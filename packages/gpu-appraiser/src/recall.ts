import { type Either, isLeft, left, refusal, right } from '@mecha/errors';
import type { AppraiserCore } from './appraiser-core.js';
import {
  type LeaseResult,
  type RecallRefusal,
  type RecallRequest,
  type RecallResult,
  type SourceRow,
  sharedLeaseRevision,
} from './appraiser-types.js';
import { flagSet } from './controls.js';
import { type RecallCandidate, selectRecall } from './recall-selection.js';
import {
  type ContextGroup,
  type ContextRevision,
  contextRevisions,
  currentContextRevision,
  type RenderedContext,
  renderContext,
} from './render-context.js';
import { type Embedder, recallSimilarity, type SimilarityMethod } from './similarity.js';
import { recallSql } from './sql.js';

// Recall: the available sources of a scope ranked against a query by `selectRecall`, rendered
// as a bounded context; and shared leases, which record that context and render it again.

type Recalled = Either<
  RecallRefusal,
  {
    ranked: { sourceId: number; score: number }[];
    similarity: SimilarityMethod;
    fallback?: string;
    groups: ContextGroup[];
    context: RenderedContext;
  }
>;

const unknownRevision = (revision: number) =>
  `context revision ${revision} is unknown; this build renders ${contextRevisions.join(' and ')}`;

/** The sources of a scope, each with its current appraisal, if any, as recall candidates. */
function candidatesIn(core: AppraiserCore, scope: string): RecallCandidate[] {
  const sources = core.db.prepare(recallSql.sourcesInScope).all(scope) as SourceRow[];
  const result = core.db.prepare(recallSql.currentAppraisal);
  return sources.map((source): RecallCandidate => {
    const row = result.get(source.id) as Record<string, number | string | null> | undefined;
    const number = (field: string) => row?.[field] as number | null;
    return {
      source: {
        id: source.id,
        version: source.version,
        actor: source.owner,
        subject: source.subject,
        text: source.text,
        taskId: source.task_id,
      },
      ...(row
        ? {
            appraisal: {
              assessmentId: row.id as number,
              queueId: row.queue_id as number,
              relationshipId: row.relationship_id as number,
              evidence: row.evidence as string,
              consequence: row.consequence as number,
              confidence: number('confidence'),
              benefit: number('benefit'),
              harm: number('harm'),
              arousal: number('arousal'),
              regardGain: number('regard_gain'),
              regardLoss: number('regard_loss'),
              trustGain: number('trust_gain'),
              trustLoss: number('trust_loss'),
              taskId: row.rel_task as string | null,
            },
          }
        : {}),
    };
  });
}

async function recallGroups(
  core: AppraiserCore,
  embedder: Embedder | undefined,
  request: RecallRequest,
  revision: number,
): Promise<Recalled> {
  if (!(contextRevisions as readonly number[]).includes(revision)) {
    return left(refusal('rejected', unknownRevision(revision)));
  }
  const work = core.settings.limits();
  const candidates = candidatesIn(core, request.scope);
  const measured = await recallSimilarity(
    embedder,
    request.query,
    candidates.map((candidate) => candidate.source.text),
  );
  const ranked = selectRecall(
    candidates,
    {
      query: request.query,
      ...(request.task === undefined ? {} : { task: request.task }),
      ...(request.participant === undefined ? {} : { participant: request.participant }),
      ...(request.appraisal === undefined ? {} : { appraisal: request.appraisal }),
    },
    {
      recallDefaults: flagSet(core.settings.flags()).recall,
      floor: work.recallFloor,
      defaultPriority: work.recallPriority,
    },
    measured.similarity,
  );
  const context = renderContext(
    ranked.map((entry) => entry.group),
    request.request ?? request.query,
    revision as ContextRevision,
  );
  // The groups the context holds, in order: what a lease records.
  const held = new Set(context.sources);
  return right({
    ranked: ranked.map(({ sourceId, score }) => ({ sourceId, score })),
    similarity: measured.method,
    ...(measured.fallback === undefined ? {} : { fallback: measured.fallback }),
    groups: ranked.map((entry) => entry.group).filter((group) => held.has(group.source.id)),
    context,
  });
}

/**
 * Recalls from a scope, by the embedder's similarity when there is one (else word overlap);
 * writes nothing.
 */
export async function recall(
  core: AppraiserCore,
  embedder: Embedder | undefined,
  request: RecallRequest,
): Promise<RecallResult> {
  const recalled = await recallGroups(
    core,
    embedder,
    request,
    request.revision ?? currentContextRevision,
  );
  if (isLeft(recalled)) return recalled;
  const { similarity, fallback, ranked, context } = recalled.right;
  return right({
    similarity,
    ...(fallback === undefined ? {} : { fallback }),
    ranked,
    context,
  });
}

/** Recalls and records the context as a shared lease (revision 4 only). */
export async function shareContext(
  core: AppraiserCore,
  embedder: Embedder | undefined,
  request: RecallRequest,
): Promise<LeaseResult> {
  const revision = request.revision ?? sharedLeaseRevision;
  if (revision !== sharedLeaseRevision) {
    return left(
      refusal('rejected', `new shared leases use revision ${sharedLeaseRevision}, not ${revision}`),
    );
  }
  const recalled = await recallGroups(core, embedder, request, revision);
  if (isLeft(recalled)) return recalled;
  const { groups, context } = recalled.right;
  const leaseId = core.db
    .prepare(recallSql.insertLease)
    .run(
      revision,
      revision,
      request.owner,
      request.scope,
      request.request ?? request.query,
      JSON.stringify(groups),
      context.system,
      context.text,
      core.now(),
    ).lastInsertRowid as number;
  return right({ leaseId, revision, policy: revision, context, reproduced: true });
}

/** A recorded lease exactly as it was rendered; an unknown revision or lease is refused. */
export function readLease(core: AppraiserCore, leaseId: number): LeaseResult {
  const row = core.db.prepare(recallSql.lease).get(leaseId) as
    | {
        revision: number;
        policy: number;
        request: string;
        groups: string;
        system: string;
        text: string;
      }
    | undefined;
  if (!row) return left(refusal('not_found', `no shared lease #${leaseId}`));
  if (!(contextRevisions as readonly number[]).includes(row.revision)) {
    return left(
      refusal(
        'unreadable',
        `shared lease #${leaseId} has revision ${row.revision}, unknown to this build (it renders ${contextRevisions.join(' and ')})`,
      ),
    );
  }
  const revision = row.revision as ContextRevision;
  const groups = JSON.parse(row.groups) as ContextGroup[];
  const again = renderContext(groups, row.request, revision);
  return right({
    leaseId,
    revision,
    policy: row.policy,
    // Exactly the recorded bytes, never a new rendering.
    context: { ...again, system: row.system, text: row.text },
    reproduced: again.text === row.text && again.system === row.system,
  });
}
