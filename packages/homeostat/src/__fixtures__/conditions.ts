import type { Charter } from '@mecha/charter';
import type { PendingRow, PendingStores } from '../pending-commitments.js';

// Shared inputs for the snapshot tests; tests only.

export const hour = 60 * 60 * 1000;
export const day = 24 * hour;
export const now = Date.parse('2026-09-25T12:00:00Z');

/** A moment `age` milliseconds before `now`. */
export const ago = (age: number) => new Date(now - age).toISOString();

export const charter: Charter = [
  { id: 'replies', text: "Don't let a colleague down.", sensor: 'outbox_age', setpoint: 2 * day },
  { id: 'unblock', text: 'Answer the agent before it goes stale.', sensor: 'question_latency' },
  { id: 'health', text: 'Stop working by 7pm.' },
];

export function stores(rows: {
  outbox?: PendingRow[];
  questions?: PendingRow[];
  requests?: PendingRow[];
}): PendingStores {
  return {
    outbox: { state: 'read', records: rows.outbox ?? [] },
    questions: { state: 'read', records: rows.questions ?? [] },
    requests: { state: 'read', records: rows.requests ?? [] },
  };
}
