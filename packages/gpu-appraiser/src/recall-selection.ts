import type { ContextGroup } from './render-context.js';

/** A retained source recall may select (already in scope, current and available), with its current result. */
export interface RecallCandidate {
  readonly source: ContextGroup['source'] & { readonly taskId: string | null };
  /** The current schema-2 result: assessment, completed queue and relationship; absent when none. */
  readonly appraisal?: {
    readonly assessmentId: number;
    readonly queueId: number;
    readonly relationshipId: number;
    readonly evidence: string;
    readonly consequence: number;
    readonly confidence: number | null;
    readonly benefit: number | null;
    readonly harm: number | null;
    readonly arousal: number | null;
    readonly regardGain: number | null;
    readonly regardLoss: number | null;
    readonly trustGain: number | null;
    readonly trustLoss: number | null;
    /** The relationship's task: task trust is shown only in this task's context. */
    readonly taskId: string | null;
  };
}

/** What the caller asked of recall. */
export interface RecallSelectionRequest {
  readonly query: string;
  /** Only sources admitted with this task id; task trust is shown for it alone. */
  readonly task?: string;
  /** Only sources about this participant (their subject) or reported by them (their owner). */
  readonly participant?: string;
  /** Explicit appraisal controls: used as given, whatever the recall default. */
  readonly appraisal?: { readonly priority: number };
}

/** The applied configuration recall works under. */
export interface RecallSelectionSettings {
  /** The recall flag: default appraisal selection and priority. */
  readonly recallDefaults: boolean;
  /** The similarity floor, millionths. */
  readonly floor: number;
  /** The most default priority, millionths, scaled by the result's intensity. */
  readonly defaultPriority: number;
}

/** One selected source: its score and the group the context renders for it. */
export interface RecallSelection {
  readonly sourceId: number;
  readonly similarity: number;
  readonly score: number;
  readonly group: ContextGroup;
}

/**
 * The result's intensity for a caller: the largest known benefit, harm, arousal, regard gain or
 * regard loss, and task trust gain or loss when the caller's task is the relationship's task;
 * undefined when none is known (then the result adds no priority and no evidence group).
 */
export function knownIntensity(
  appraisal: RecallCandidate['appraisal'],
  task?: string,
): number | undefined {
  if (!appraisal) return undefined;
  const trust =
    task !== undefined && appraisal.taskId === task
      ? [appraisal.trustGain, appraisal.trustLoss]
      : [];
  const known = [
    appraisal.benefit,
    appraisal.harm,
    appraisal.arousal,
    appraisal.regardGain,
    appraisal.regardLoss,
    ...trust,
  ].filter((value): value is number => value !== null);
  return known.length === 0 ? undefined : Math.max(...known);
}

/**
 * Recall's selection rules, in the seed's order. The explicit task and participant constraints
 * filter first; then similarity (0 drops a source) and the similarity floor; only then optional
 * appraisal. A result's evidence group (queue, assessment, relationship) joins its source only
 * when its intensity is known and either the caller gave explicit appraisal controls or recall
 * defaults are on; its priority is then the caller's, or the default scaled by the intensity.
 * Ranked by score, newest source first on ties.
 */
export function selectRecall(
  candidates: readonly RecallCandidate[],
  request: RecallSelectionRequest,
  settings: RecallSelectionSettings,
  similarity: (query: string, text: string) => number,
): RecallSelection[] {
  const selected: RecallSelection[] = [];
  for (const { source, appraisal } of candidates) {
    if (request.task !== undefined && source.taskId !== request.task) continue;
    if (
      request.participant !== undefined &&
      source.subject !== request.participant &&
      source.actor !== request.participant
    )
      continue;
    const similar = similarity(request.query, source.text);
    if (similar === 0 || similar < settings.floor) continue;
    const intensity = knownIntensity(appraisal, request.task);
    const withAppraisal =
      appraisal !== undefined &&
      intensity !== undefined &&
      (request.appraisal !== undefined || settings.recallDefaults);
    const priority = !withAppraisal
      ? 0
      : request.appraisal !== undefined
        ? request.appraisal.priority
        : Math.round((settings.defaultPriority * intensity) / 1_000_000);
    const group: ContextGroup = {
      source: {
        id: source.id,
        version: source.version,
        actor: source.actor,
        subject: source.subject,
        text: source.text,
      },
      ...(withAppraisal
        ? {
            appraisal: {
              assessmentId: appraisal.assessmentId,
              queueId: appraisal.queueId,
              relationshipId: appraisal.relationshipId,
              evidence: appraisal.evidence,
              consequence: appraisal.consequence,
              confidence: appraisal.confidence,
              positive: { benefit: appraisal.benefit, regard_gain: appraisal.regardGain },
              negative: { harm: appraisal.harm, regard_loss: appraisal.regardLoss },
              ...(request.task !== undefined && appraisal.taskId === request.task
                ? {
                    taskTrust: {
                      taskId: request.task,
                      gain: appraisal.trustGain,
                      loss: appraisal.trustLoss,
                    },
                  }
                : {}),
            },
          }
        : {}),
    };
    selected.push({ sourceId: source.id, similarity: similar, score: similar + priority, group });
  }
  return selected.sort((a, b) => b.score - a.score || b.sourceId - a.sourceId);
}
