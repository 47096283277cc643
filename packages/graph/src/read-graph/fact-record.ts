import type { FactStatus } from '../fact-rows.js';
import type { FactItem } from './items.js';

/** A fact row as the reads select it. */
export interface FactRecord {
  id: number;
  kind: FactItem['kind'];
  subject: string;
  predicate: string;
  object: string;
  status: FactStatus;
  origin: FactItem['origin'];
  valid_from: string;
  valid_to: string | null;
  closed_at: string | null;
  closed_reason: string | null;
  supersedes: number | null;
  created_at: string;
  decided_at: string | null;
}

export const factSelect = `f.id, f.kind, f.subject, f.predicate, f.object, f.status, f.origin, f.valid_from,
  f.valid_to, f.closed_at, f.closed_reason, f.supersedes, f.created_at, f.decided_at`;
