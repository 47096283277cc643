import type { Agency, Channel } from '../schemas/goal-error.js';
import type { StopCause } from '../schemas/transcript.js';

/** The store a contribution row is read from, named as on {@link SessionEvidence}. */
export type ContributionSource =
  | 'transcript'
  | 'outbox'
  | 'questions'
  | 'requests'
  | 'closures'
  | 'workflows'
  | 'reflections'
  | 'ownerOutcomes';

interface RowBase {
  /** The recorded outcome, in words. */
  readonly row: string;
  /** The store the row is read from. */
  readonly source: ContributionSource;
  /** Other stores the row needs to decide (an unreadable one makes the row's channel incomplete). */
  readonly alsoReads: readonly ContributionSource[];
  /** How often it signs and what else it does: once per session, withdraws a credit, … */
  readonly rule: string;
  /** Where the seed is silent: what was chosen here, and why. */
  readonly choice?: string;
}

/** A recorded outcome that signs a constant on one channel with one agency. */
export interface SignedContributionRow extends RowBase {
  readonly kind: 'signed';
  readonly sign: number;
  readonly channel: Channel;
  readonly agency: Agency;
  /** Exposure: `true`/`false`, or `computed` where it depends on how a draft went out. */
  readonly visible: boolean | 'computed';
  /** Whether the live per-run readout (the run's own transcript only) can produce it. */
  readonly live: boolean;
  /** Counter names that fire the row (a counter with value above zero). */
  readonly counters: readonly string[];
  /** Stop causes on `run_end` that fire the row. */
  readonly stopCauses: readonly StopCause[];
}

/** A legacy record whose sign and agency are read from the record itself. */
export interface RecordedContributionRow extends RowBase {
  readonly kind: 'recorded';
  readonly sign: 'recorded';
  readonly channel: Channel;
  readonly agency: 'recorded';
  readonly visible: 'recorded';
  readonly live: boolean;
}

/** A recorded outcome that deliberately signs nothing, with the reason. */
export interface SilentContributionRow extends RowBase {
  readonly kind: 'silent';
  /** Counter names that are read and deliberately ignored. */
  readonly counters: readonly string[];
  /** Stop causes that are read and deliberately ignored. */
  readonly stopCauses: readonly StopCause[];
}

/** One row of {@link contributionTable}. */
export type ContributionRow =
  | SignedContributionRow
  | RecordedContributionRow
  | SilentContributionRow;

const none: readonly never[] = [];

/**
 * Every recorded outcome the appraisal reads, with its signed contribution: the one place the
 * signs, channels and agencies live. `contributions` and `appraiseRun` read only from here, and
 * `docs/appraisal.md` is generated from it.
 */
export const contributionTable = {
  draftSentUnchanged: {
    kind: 'signed',
    row: 'A message draft the owner sent unchanged',
    sign: 1,
    channel: 'edit',
    agency: 'self',
    visible: true,
    live: false,
    source: 'outbox',
    alsoReads: ['ownerOutcomes'],
    counters: none,
    stopCauses: none,
    rule: 'Only when the outcome records the owner as sender; once per draft (its first outcome).',
    choice:
      'Agency self: the model’s own text reached its recipient as written, so the credit is the model’s.',
  },
  draftSentEdited: {
    kind: 'signed',
    row: 'A message draft the owner edited before sending',
    sign: -1,
    channel: 'edit',
    agency: 'owner',
    visible: false,
    live: false,
    source: 'outbox',
    alsoReads: ['ownerOutcomes'],
    counters: none,
    stopCauses: none,
    rule: 'A verdict, not proof the model was wrong. Not visible: the owner’s rewrite sent their words.',
    choice:
      'Counts when the sender is the owner or unrecorded (a verdict from before the sender was recorded); a run’s shell is not the owner and signs nothing.',
  },
  draftRejected: {
    kind: 'signed',
    row: 'A message draft the owner rejected',
    sign: -1,
    channel: 'edit',
    agency: 'owner',
    visible: false,
    live: false,
    source: 'outbox',
    alsoReads: ['ownerOutcomes'],
    counters: none,
    stopCauses: none,
    rule: 'A verdict, not proof the model was wrong; a reason adds nothing beyond this −1.0.',
    choice:
      'Counts when the rejecter is the owner or unrecorded; a rejection by a run’s shell signs nothing.',
  },
  ownerOutcomeNegative: {
    kind: 'signed',
    row: 'A linked negative owner outcome after delivery (confirmed error or adverse impact)',
    sign: -1,
    channel: 'commitment',
    agency: 'self',
    visible: 'computed',
    live: false,
    source: 'ownerOutcomes',
    alsoReads: ['outbox'],
    counters: none,
    stopCauses: none,
    rule: 'Replaces the draft’s own contribution with this one event, once per draft. Visible when the draft went out unchanged.',
    choice:
      'Agency self: both labels it feeds (embarrassment, guilt) name harm from mecha’s own message.',
  },
  questionAnsweredCompleted: {
    kind: 'signed',
    row: 'A parked question answered, and the resumed session completed',
    sign: 0.5,
    channel: 'commitment',
    agency: 'self',
    visible: false,
    live: false,
    source: 'questions',
    alsoReads: ['transcript'],
    counters: none,
    stopCauses: none,
    rule: 'Completed: a run of the session that began at or after the answer ended `completed`.',
    choice: 'Agency self, as for a draft sent unchanged: the work the question unblocked finished.',
  },
  questionAbandoned: {
    kind: 'signed',
    row: 'A question abandoned',
    sign: -0.5,
    channel: 'commitment',
    agency: 'owner',
    visible: false,
    live: false,
    source: 'questions',
    alsoReads: [],
    counters: none,
    stopCauses: none,
    rule: 'Its first answer-or-abandon record decides.',
  },
  requestClosedWithoutDraft: {
    kind: 'signed',
    row: 'A triaged request closed without a linked draft',
    sign: -0.5,
    channel: 'commitment',
    agency: 'owner',
    visible: false,
    live: false,
    source: 'requests',
    alsoReads: [],
    counters: none,
    stopCauses: none,
    rule: 'On the session that triaged it. A request with a linked draft goes through that draft instead.',
    choice:
      'Agency owner: closing the request is the owner’s act on a commitment, like abandoning a question. A request closed while parked on the requester (`needs_info`) owes nothing and signs nothing; so does one closed before it was ever triaged (its first record is its close), since the seed signs only a triaged request.',
  },
  loopStop: {
    kind: 'signed',
    row: 'A loop stop',
    sign: -1,
    channel: 'counter',
    agency: 'self',
    visible: false,
    live: true,
    source: 'transcript',
    alsoReads: [],
    counters: ['loop_stop'],
    stopCauses: ['loop'],
    rule: 'Once per session, cited as the counter `loop_stop`.',
  },
  emptyOutput: {
    kind: 'signed',
    row: 'An empty output',
    sign: -1,
    channel: 'counter',
    agency: 'self',
    visible: false,
    live: true,
    source: 'transcript',
    alsoReads: [],
    counters: ['empty_output'],
    stopCauses: ['empty_output'],
    rule: 'Once per session, cited as the counter `empty_output`.',
  },
  finalFailedCall: {
    kind: 'signed',
    row: 'A final failed call',
    sign: -1,
    channel: 'counter',
    agency: 'self',
    visible: false,
    live: true,
    source: 'transcript',
    alsoReads: [],
    counters: ['final_failed_call'],
    stopCauses: ['failed_call'],
    rule: 'Once per session, cited as the counter `final_failed_call`.',
  },
  stepCheckFailed: {
    kind: 'signed',
    row: 'A declared step check that did not pass',
    sign: -1,
    channel: 'counter',
    agency: 'self',
    visible: false,
    live: true,
    source: 'transcript',
    alsoReads: [],
    counters: none,
    stopCauses: none,
    rule: 'The model wrote both the claim and the check. Once per step and turn, cited by turn.',
    choice:
      'Channel counter: the check result is on the run’s own record. Distinct steps failing are distinct errors, so repetition (frustration) can occur once a probe fills them.',
  },
  ceiling: {
    kind: 'signed',
    row: 'A turn, token or cost ceiling',
    sign: -0.5,
    channel: 'counter',
    agency: 'owner',
    visible: false,
    live: true,
    source: 'transcript',
    alsoReads: [],
    counters: ['turn_ceiling', 'token_ceiling', 'cost_ceiling'],
    stopCauses: ['turn_ceiling', 'token_ceiling', 'cost_ceiling'],
    rule: 'The ceiling is the owner’s own limit. Once per ceiling kind and session.',
  },
  boredomNotice: {
    kind: 'signed',
    row: 'A boredom notice',
    sign: -0.5,
    channel: 'counter',
    agency: 'self',
    visible: false,
    live: true,
    source: 'transcript',
    alsoReads: [],
    counters: ['boredom_notice'],
    stopCauses: none,
    rule: 'Once per notice: each boredom_notice a run recorded signs, at most three per run (one per rung).',
    choice:
      'Agency self: the seed attributes only ceilings to the owner’s limit; boredom names an approach that stopped teaching the run anything, and the approach is the model’s.',
  },
  steer: {
    kind: 'signed',
    row: 'The owner steered the run',
    sign: -1,
    channel: 'intervention',
    agency: 'self',
    visible: false,
    live: true,
    source: 'transcript',
    alsoReads: [],
    counters: none,
    stopCauses: none,
    rule: 'Once per turn, however many resumed runs recorded it.',
    choice:
      'Sign −1.0 and agency self: the steer is evidence the run was going wrong; a probe fills it into regret (mattered) or disappointment (redundant), and repeated probed steers are frustration, which the seed defines on self-caused errors.',
  },
  deny: {
    kind: 'signed',
    row: 'The owner denied a call',
    sign: -1,
    channel: 'intervention',
    agency: 'self',
    visible: false,
    live: true,
    source: 'transcript',
    alsoReads: [],
    counters: none,
    stopCauses: none,
    rule: 'Once per turn. The `tool_denied` counter stays excluded: this is the person’s act, not the approver’s.',
    choice: 'Sign −1.0 and agency self, as for a steer: a denial is probed the same way.',
  },
  ownerStop: {
    kind: 'signed',
    row: 'An explicit owner stop (`stopped`, or a stop intervention)',
    sign: -1,
    channel: 'intervention',
    agency: 'owner',
    visible: false,
    live: true,
    source: 'transcript',
    alsoReads: [],
    counters: none,
    stopCauses: ['stopped'],
    rule: 'Counted once per session: a stop then a re-prompt is a redirect, one never resumed is an abandonment signal. Cited by the first stop’s turn.',
    choice:
      'Sign −1.0 and agency owner: the stop is the owner’s verdict on the run, like a rejection.',
  },
  reflectorCorrection: {
    kind: 'signed',
    row: 'A follow-up turn the reflector judged a correction',
    sign: -1,
    channel: 'intervention',
    agency: 'owner',
    visible: false,
    live: false,
    source: 'reflections',
    alsoReads: [],
    counters: none,
    stopCauses: none,
    rule: 'Only from reflections clean as mined, with a correction turn; once per turn, and nothing more on a turn an intervention already signed. Later curation of the lesson changes nothing.',
  },
  taskClosedDone: {
    kind: 'signed',
    row: 'The owner closing a board task as done',
    sign: 0.5,
    channel: 'commitment',
    agency: 'owner',
    visible: false,
    live: false,
    source: 'closures',
    alsoReads: [],
    counters: none,
    stopCauses: none,
    rule: 'On every session the closure names; withdrawn by a later reopen.',
    choice:
      'Only a closure recorded as the owner’s (or the agent’s with the owner’s approval) earns the credit; a version 1 closure by someone unknown signs nothing, as a send from before the sender was recorded does.',
  },
  taskClosedDropped: {
    kind: 'signed',
    row: 'The owner dropping a board task',
    sign: 0,
    channel: 'commitment',
    agency: 'owner',
    visible: false,
    live: false,
    source: 'closures',
    alsoReads: [],
    counters: none,
    stopCauses: none,
    rule: 'A zero-signed entry on every session the closure names: recorded, never relevant to the label or the valence.',
  },
  taskReopenedAfterDone: {
    kind: 'signed',
    row: 'The owner reopening a task after done',
    sign: -1,
    channel: 'commitment',
    agency: 'owner',
    visible: false,
    live: false,
    source: 'closures',
    alsoReads: [],
    counters: none,
    stopCauses: none,
    rule: 'On the sessions the reopened closure named, however long ago; the closure’s +0.5 is withdrawn.',
  },
  workflowClosed: {
    kind: 'signed',
    row: 'The owner closing a workflow',
    sign: 0.5,
    channel: 'commitment',
    agency: 'owner',
    visible: false,
    live: false,
    source: 'workflows',
    alsoReads: [],
    counters: none,
    stopCauses: none,
    rule: 'On the session the workflow tracked; withdrawn by a later reopen.',
  },
  workflowCancelled: {
    kind: 'signed',
    row: 'The owner cancelling a workflow',
    sign: -0.5,
    channel: 'commitment',
    agency: 'owner',
    visible: false,
    live: false,
    source: 'workflows',
    alsoReads: [],
    counters: none,
    stopCauses: none,
    rule: 'Reopening the cancelled workflow takes it back and signs nothing.',
  },
  workflowReopenedAfterClose: {
    kind: 'signed',
    row: 'The owner reopening a closed workflow',
    sign: -1,
    channel: 'commitment',
    agency: 'owner',
    visible: false,
    live: false,
    source: 'workflows',
    alsoReads: [],
    counters: none,
    stopCauses: none,
    rule: 'On the session it tracked; the close’s +0.5 is withdrawn.',
  },
  workflowArtifactCheckFailed: {
    kind: 'signed',
    row: 'A workflow verification finding an artifact check failing',
    sign: -1,
    channel: 'commitment',
    agency: 'self',
    visible: false,
    live: false,
    source: 'workflows',
    alsoReads: [],
    counters: none,
    stopCauses: none,
    rule: 'Once per workflow and session, on the session the verification names.',
  },
  legacyAppraiserVerdict: {
    kind: 'recorded',
    row: 'A verdict of the retired counts-only appraiser (`appraiser_verdict` in an old transcript)',
    sign: 'recorded',
    channel: 'appraisal',
    agency: 'recorded',
    visible: 'recorded',
    live: true,
    source: 'transcript',
    alsoReads: [],
    rule: 'Nothing writes it now. An old record still loads and counts as recorded, once per identical verdict.',
    choice:
      'It reaches the core as a transcript event carrying the signed error itself (channel `appraisal`, cite `appraiser`), so its sign and agency are the record’s own.',
  },
  excludedCounters: {
    kind: 'silent',
    row: 'The counters tool_denied, blocked_sends, context_overflows and a bare tool_errors',
    source: 'transcript',
    alsoReads: [],
    counters: ['tool_denied', 'blocked_sends', 'context_overflows', 'tool_errors'],
    stopCauses: none,
    rule: 'The approver and the interlock doing their jobs, a recovery that worked, and a failure whose cause cannot be attributed without guessing.',
  },
  unattributedStops: {
    kind: 'silent',
    row: 'A run stopped by shutdown, parked for an answer, interrupted (legacy), ended by an error, or completed',
    source: 'transcript',
    alsoReads: [],
    counters: none,
    stopCauses: ['shutdown', 'parked', 'interrupted', 'error', 'completed'],
    rule: 'None of these is the owner rejecting the work.',
    choice:
      'An `error` stop signs nothing for the reason a bare tool_errors does: its cause could be the model’s, another party’s or the world’s.',
  },
  queueSizeChange: {
    kind: 'silent',
    row: 'A change in the owner’s queue size',
    source: 'transcript',
    alsoReads: [],
    counters: none,
    stopCauses: none,
    rule: 'A global before/after reading that would credit a run for items the owner cleared by hand; credit comes only from an item the session produced. No record is read for it.',
  },
  pendingDraft: {
    kind: 'silent',
    row: 'A draft still pending, or cancelled before any verdict',
    source: 'outbox',
    alsoReads: [],
    counters: none,
    stopCauses: none,
    rule: 'No verdict yet.',
    choice: 'A cancelled draft is withdrawn rather than judged, so it signs nothing either.',
  },
  sendNotByOwner: {
    kind: 'silent',
    row: 'A draft sent by a run’s shell, or sent before who sent it was recorded',
    source: 'outbox',
    alsoReads: [],
    counters: none,
    stopCauses: none,
    rule: 'Only the owner’s own send is credit.',
  },
  unansweredQuestion: {
    kind: 'silent',
    row: 'A question not yet answered, or answered without the session completing',
    source: 'questions',
    alsoReads: [],
    counters: none,
    stopCauses: none,
    rule: 'No verdict yet.',
  },
  taskReopenedAfterDropped: {
    kind: 'silent',
    row: 'The owner reopening a dropped task',
    source: 'closures',
    alsoReads: [],
    counters: none,
    stopCauses: none,
    rule: 'Signs nothing; the dropped closure’s zero entry is withdrawn with it.',
  },
  workflowReopenedAfterCancel: {
    kind: 'silent',
    row: 'The owner reopening a cancelled workflow',
    source: 'workflows',
    alsoReads: [],
    counters: none,
    stopCauses: none,
    rule: 'Takes the cancel’s −0.5 back and signs nothing.',
  },
  deliveryCheckFailed: {
    kind: 'silent',
    row: 'A workflow verification finding a delivery check failing',
    source: 'workflows',
    alsoReads: [],
    counters: none,
    stopCauses: none,
    rule: 'Left to the draft’s own verdict.',
  },
  fineOwnerOutcome: {
    kind: 'silent',
    row: 'A linked owner outcome reporting the delivery was fine',
    source: 'ownerOutcomes',
    alsoReads: [],
    counters: none,
    stopCauses: none,
    rule: 'The draft’s own contribution stands.',
  },
  uncleanReflection: {
    kind: 'silent',
    row: 'A reflection that was not clean as mined, or that names no correction turn',
    source: 'reflections',
    alsoReads: [],
    counters: none,
    stopCauses: none,
    rule: 'Only clean reflections reach a run.',
  },
} satisfies Record<string, ContributionRow>;

/** The name of one row of {@link contributionTable}. */
export type ContributionRowId = keyof typeof contributionTable;
