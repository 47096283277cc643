import type { ReviewReason } from '../apply-corrections.js';
import type { JsonValue } from '../content-hash.js';
import type { CorrectionItem } from './items.js';
import { trustOf } from './trust.js';

/** A correction row as the reads select it. */
export interface CorrectionRecord {
  id: number;
  source: string;
  source_id: string | null;
  status: CorrectionItem['status'];
  wrong_spec: string;
  right_spec: string | null;
  about: string | null;
  review_reason: ReviewReason | null;
  candidates: string | null;
  wrong_fact_id: number | null;
  replacement_fact_id: number | null;
  replacement_blocked: number;
  occurred_at: string | null;
  created_at: string;
  resolved_at: string | null;
  corrections_against: number;
  episode_id: number | null;
}

export const correctionSelect = `c.id, c.source, c.source_id, c.status, c.wrong_spec, c.right_spec, c.about,
  c.review_reason, c.candidates, c.wrong_fact_id, c.replacement_fact_id, c.replacement_blocked,
  c.occurred_at, c.created_at, c.resolved_at, src.corrections_against AS corrections_against,
  (SELECT e.id FROM episodes e WHERE e.source = c.source AND e.source_id = c.source_id
     AND e.redacted_at IS NULL) AS episode_id`;

export function correctionItem(row: CorrectionRecord): CorrectionItem {
  return {
    type: 'correction',
    id: row.id,
    status: row.status,
    wrong: JSON.parse(row.wrong_spec) as JsonValue,
    right: row.right_spec === null ? null : (JSON.parse(row.right_spec) as JsonValue),
    about: row.about,
    review_reason: row.review_reason,
    candidates: row.candidates === null ? [] : (JSON.parse(row.candidates) as number[]),
    wrong_fact_id: row.wrong_fact_id,
    replacement_fact_id: row.replacement_fact_id,
    replacement_blocked: row.replacement_blocked === 1,
    trust: trustOf(row.corrections_against),
    occurred_at: row.occurred_at,
    created_at: row.created_at,
    resolved_at: row.resolved_at,
    provenance: {
      source: row.source,
      source_id: row.source_id,
      episode_ids: row.episode_id === null ? [] : [row.episode_id],
    },
  };
}
