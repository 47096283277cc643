import type { ReviewReason } from '../apply-corrections.js';
import type { JsonValue } from '../content-hash.js';
import type { Taint } from '../episode-taint.js';
import type { FactStatus } from '../fact-rows.js';

/** A source with the trust it has earned: 1 / (1 + corrections against it). */
export interface SourceTrust {
  readonly source: string;
  readonly trust: number;
}

/** Where a fact came from: the evidence rows that support it (its reference count). */
export interface FactProvenance {
  /** Support rows: the fact's reference count. */
  readonly support_count: number;
  readonly sources: readonly SourceTrust[];
  /** The newest supporting episodes (up to a cap; support_count has the full count). */
  readonly episodes: readonly {
    readonly episode_id: number;
    readonly source: string;
    readonly source_id: string;
    readonly taint: Taint;
  }[];
  readonly episode_ids: readonly number[];
  /** Corrections whose replacement this fact is. */
  readonly correction_ids: readonly number[];
  /** The taint of every supporting episode, counted. */
  readonly taint: { readonly clean: number; readonly untrusted: number; readonly unknown: number };
}

/** A fact as every read returns it: the triple, its status in time, trust and provenance. */
export interface FactItem {
  readonly type: 'fact';
  readonly id: number;
  readonly kind: 'entity' | 'relation' | 'statement';
  readonly subject: string;
  readonly predicate: string;
  readonly object: string;
  readonly text: string;
  readonly status: FactStatus;
  /** The highest trust among the sources that support it; 0 with no support. */
  readonly trust: number;
  readonly origin: 'extractor' | 'correction';
  readonly valid_from: string;
  readonly valid_to: string | null;
  readonly closed_at: string | null;
  readonly closed_reason: string | null;
  readonly supersedes: number | null;
  readonly created_at: string;
  readonly decided_at: string | null;
  readonly provenance: FactProvenance;
}

/** A fact with everything kg_get adds. */
export interface FactDetail extends FactItem {
  readonly denied: boolean;
  readonly superseded_by: readonly number[];
  readonly corrections: readonly CorrectionItem[];
}

/** An episode as listed: a body preview, its status, trust and provenance. */
export interface EpisodeItem {
  readonly type: 'episode';
  readonly id: number;
  readonly kind: string;
  readonly source: string;
  readonly source_id: string;
  readonly source_ref: string | null;
  readonly occurred_at: string;
  readonly body: string;
  readonly body_truncated: boolean;
  readonly status: 'current' | 'redacted';
  readonly trust: number;
  readonly taint: Taint;
  readonly salience: number;
  readonly version: number;
  readonly content_hash: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly redacted_at: string | null;
  /** Facts this episode supports. */
  readonly fact_count: number;
  readonly provenance: {
    readonly source: string;
    readonly source_id: string;
    readonly episode_ids: readonly number[];
  };
}

/** An episode with its whole body, its metadata and the facts it supports. */
export interface EpisodeDetail extends EpisodeItem {
  readonly meta: JsonValue;
  readonly facts: readonly {
    readonly id: number;
    readonly text: string;
    readonly status: FactStatus;
    readonly via: 'extractor' | 'correction';
  }[];
}

/** A correction as review and kg_get show it. */
export interface CorrectionItem {
  readonly type: 'correction';
  readonly id: number;
  readonly status: 'applied' | 'denied' | 'review' | 'dismissed';
  readonly wrong: JsonValue;
  readonly right: JsonValue;
  readonly about: string | null;
  readonly review_reason: ReviewReason | null;
  readonly candidates: readonly number[];
  readonly wrong_fact_id: number | null;
  readonly replacement_fact_id: number | null;
  readonly replacement_blocked: boolean;
  readonly trust: number;
  readonly occurred_at: string | null;
  readonly created_at: string;
  readonly resolved_at: string | null;
  readonly provenance: {
    readonly source: string;
    readonly source_id: string | null;
    readonly episode_ids: readonly number[];
  };
}

/** A staged fact in the review queue, with how soon it deserves a look. */
export interface ReviewFactItem extends FactItem {
  readonly salience: number;
}
