// The attribute and event names the export writes. The `gen_ai.*` names are the OpenTelemetry
// GenAI semantic conventions (semantic-conventions 1.45, incubating); `mecha.*` are mecha's own,
// for what the conventions have no name for. An owner filters on these in a backend, so they
// are part of the public API: `docs/otel.md` lists them and a test checks the list there.

/** The GenAI semantic-convention names the export uses. */
export const genAiNames = {
  operationName: 'gen_ai.operation.name',
  conversationId: 'gen_ai.conversation.id',
  /** The event that carries one evaluation of the span's operation. */
  evaluationEvent: 'gen_ai.evaluation.result',
  evaluationName: 'gen_ai.evaluation.name',
  evaluationScoreValue: 'gen_ai.evaluation.score.value',
  evaluationScoreLabel: 'gen_ai.evaluation.score.label',
} as const;

/** mecha's own attribute names on the appraisal spans and their events. */
export const mechaNames = {
  /** `session` or `run`: which appraisal the span carries. */
  scope: 'mecha.appraisal.scope',
  sessionId: 'mecha.session.id',
  sessionKind: 'mecha.session.kind',
  runId: 'mecha.run.id',
  surface: 'mecha.run.surface',
  goal: 'mecha.run.goal',
  stopCause: 'mecha.run.stop_cause',
  /** `appraised`, or `unreadable` when the transcript could not be read (no valence then). */
  state: 'mecha.appraisal.state',
  label: 'mecha.appraisal.label',
  /** The positive side of the valence, summed apart; never netted with the negative. */
  positive: 'mecha.appraisal.valence.positive',
  /** The negative side as a magnitude (0 or more), summed apart; never netted. */
  negative: 'mecha.appraisal.valence.negative',
  /** Whether the evidence behind the valence was partial (a source not read whole, a compaction). */
  partial: 'mecha.appraisal.partial',
  /** How many signed entries the appraisal holds. */
  errorCount: 'mecha.appraisal.error_count',
  /** The cite pointers of the signed entries (`turn 4`, `counter boredom_notice`), in order. */
  cites: 'mecha.appraisal.cites',
  /** One signed entry, as a span event. */
  signedEvent: 'mecha.appraisal.signed',
  sign: 'mecha.signed.sign',
  channel: 'mecha.signed.channel',
  agency: 'mecha.signed.agency',
  cite: 'mecha.signed.cite',
  visible: 'mecha.signed.visible',
} as const;

/**
 * Names two backends read on their own, written beside the ones above so their views work
 * unconfigured: `session.id` groups a session's traces into one session in both Langfuse and
 * Arize Phoenix; `openinference.span.kind` is Phoenix's span kind (`CHAIN` for the session,
 * `AGENT` for a run); `langfuse.trace.*` set the Langfuse trace's name, tags and metadata
 * (each metadata value a string, as Langfuse's filters compare them).
 */
export const backendNames = {
  sessionId: 'session.id',
  openInferenceKind: 'openinference.span.kind',
  langfuseTraceName: 'langfuse.trace.name',
  langfuseTraceTags: 'langfuse.trace.tags',
  langfuseLabel: 'langfuse.trace.metadata.mecha_label',
  langfusePositive: 'langfuse.trace.metadata.mecha_valence_positive',
  langfuseNegative: 'langfuse.trace.metadata.mecha_valence_negative',
  langfusePartial: 'langfuse.trace.metadata.mecha_partial',
} as const;

/** The `gen_ai.evaluation.name` of each of the three evaluations on a span. */
export const evaluationNames = {
  label: 'mecha.label',
  positive: 'mecha.valence.positive',
  negative: 'mecha.valence.negative',
} as const;
