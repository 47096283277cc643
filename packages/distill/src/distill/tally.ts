import { stripControl } from '@mecha/appraisal-core';
import type { DistillReply } from '../distill-reply.js';
import type { GroundedFacts } from '../extract-facts.js';
import type { CorrectionCounts } from '../graph-client.js';
import type { SentCorrection } from '../ground-corrections.js';
import type { TextAppraisal } from '../text-appraisal.js';
import type { DistillReport, PrintedSurprise } from './distill-report.js';
import type { SessionOutcome, SessionResult } from './session-outcome.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The counters of one run, in the report's own shapes and order. */
export class Tally {
  readonly counts: Record<SessionOutcome, number> = {
    pushed: 0,
    skipped: 0,
    too_short: 0,
    push_failed: 0,
    model_failed: 0,
    given_up: 0,
    unreadable: 0,
    running: 0,
    parked: 0,
    already_distilled: 0,
    not_marked: 0,
    ledger_unavailable: 0,
    would_distill: 0,
    would_mark_too_short: 0,
  };
  readonly graph: Mutable<DistillReport['graph']> = { inserted: 0, updated: 0, unchanged: 0 };
  readonly corrections: Mutable<DistillReport['corrections']> = {
    reported: 0,
    sent: 0,
    ungrounded: 0,
    withheld: 0,
    applied: 0,
    denied: 0,
    toReview: 0,
    duplicate: 0,
  };
  readonly surprises: Mutable<Omit<DistillReport['surprises'], 'items'>> & {
    readonly items: PrintedSurprise[];
  } = { reported: 0, sent: 0, withheld: 0, items: [] };
  readonly appraisals: Mutable<Omit<DistillReport['appraisals'], 'claimsDropped'>> & {
    readonly claimsDropped: Record<string, number>;
  } = {
    written: 0,
    onRecord: 0,
    failed: 0,
    claimsKept: 0,
    claimsDropped: {},
    goalsUnresolved: 0,
    storeUnreadable: false,
  };

  readonly facts: Mutable<Omit<DistillReport['facts'], 'dropped'>> & {
    readonly dropped: Record<string, number>;
  } = { episodes: 0, entities: 0, relations: 0, dropped: {}, failed: 0 };

  /** The facts extracted from an episode that was pushed. */
  factsSent(facts: GroundedFacts): void {
    this.facts.episodes += 1;
    this.facts.entities += facts.entities.length;
    this.facts.relations += facts.relations.length;
    for (const [reason, count] of Object.entries(facts.dropped)) {
      this.facts.dropped[reason] = (this.facts.dropped[reason] ?? 0) + count;
    }
  }

  /** What the graph said it did with corrections. */
  landed(counts: CorrectionCounts): void {
    this.corrections.applied += counts.applied;
    this.corrections.denied += counts.denied;
    this.corrections.toReview += counts.to_review;
    this.corrections.duplicate += counts.duplicate;
  }

  /** A reply's corrections and surprises, as the model reported them. */
  reported(reply: DistillReply): void {
    this.corrections.reported += reply.corrections.length;
    this.surprises.reported += reply.surprises.length;
  }

  /**
   * Counts a reply's corrections and surprises once its session's outcome is known: what reaches
   * the graph depends on the taint and on whether the push landed. A session left for a later
   * run is counted by that run instead, but its surprises are printed now all the same.
   */
  settle(
    reply: DistillReply,
    sessionId: string,
    clean: boolean,
    result: SessionResult,
    sent: readonly SentCorrection[] = [],
  ): SessionResult {
    const landed = result.outcome === 'pushed' || result.outcome === 'not_marked';
    const finished = landed || result.outcome === 'skipped';
    if (finished) {
      if (clean) {
        this.corrections.sent += reply.corrections.length;
        this.corrections.ungrounded += sent.filter((item) => item.grounded === false).length;
      } else this.corrections.withheld += reply.corrections.length;
      if (clean && landed) this.surprises.sent += reply.surprises.length;
      else this.surprises.withheld += reply.surprises.length;
    }
    for (const surprise of reply.surprises) {
      this.surprises.items.push({
        sessionId,
        about: stripControl(surprise.about),
        graphSaid: stripControl(surprise.graph_said),
        found: stripControl(surprise.found),
        sentToGraph: clean && landed,
      });
    }
    return result;
  }

  /** A text appraisal written to the store. */
  appraisalWritten(appraisal: TextAppraisal): void {
    this.appraisals.written += 1;
    this.appraisals.claimsKept += appraisal.claims.kept.length;
    for (const [reason, count] of Object.entries(appraisal.claims.dropped)) {
      this.appraisals.claimsDropped[reason] = (this.appraisals.claimsDropped[reason] ?? 0) + count;
    }
    if (appraisal.goalUnresolved) this.appraisals.goalsUnresolved += 1;
    // A per-goal judgment naming a goal mecha does not hold is recorded as none and counted too.
    this.appraisals.goalsUnresolved += appraisal.record.judgment_goals_unresolved ?? 0;
  }
}
