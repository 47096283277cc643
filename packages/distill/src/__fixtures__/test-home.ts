import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TranscriptEvent } from '@mecha/appraisal-core';
import { openHome } from '@mecha/stores';
import { type GraphConfigOptions, tempFolder, writeGraphConfig } from './graph-home.js';

/** The moment tests run at: well after every session they write. */
export const testNow = new Date('2026-10-01T00:00:00Z');

/** A home in a temporary folder with a graph server configured, and the graph's file. */
export interface TestHome {
  readonly path: string;
  readonly db: string;
  readonly remove: () => void;
  /** Writes a session's transcript as whole lines. */
  writeSession(sessionId: string, events: readonly TranscriptEvent[]): void;
  /** Writes a session's transcript with its last line torn in half, as a crash leaves it. */
  writeTornSession(sessionId: string, events: readonly TranscriptEvent[]): void;
  /** The ledger's lines, parsed. */
  ledger(): { session_id: string; outcome: string }[];
  /** The text appraisals on record, parsed. */
  appraisals(): Record<string, unknown>[];
  /** The expectation scores on record, parsed. */
  scores(): Record<string, unknown>[];
  /** Rewrites `config.toml`'s graph entry. */
  configure(options: GraphConfigOptions): void;
  /** A home handle with the test clock. */
  open(): ReturnType<typeof openHome>;
}

function jsonLines(path: string): Record<string, unknown>[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Makes a home with `config.toml` naming the graph server over a fresh database file. */
export function testHome(options: GraphConfigOptions = {}): TestHome {
  const { folder, remove } = tempFolder();
  const path = join(folder, 'home');
  const db = join(folder, 'graph.db');
  mkdirSync(join(path, 'sessions'), { recursive: true });
  writeGraphConfig(path, db, options);
  // As a session recorder leaves a home: the sessions store created and listed in the manifest.
  writeFileSync(
    join(path, 'manifest.json'),
    `${JSON.stringify({ v: 1, created: ['sessions/'] })}\n`,
  );
  const transcript = (sessionId: string) => join(path, 'sessions', `${sessionId}.jsonl`);
  const lines = (sessionId: string, events: readonly TranscriptEvent[]) =>
    events.map((event) =>
      JSON.stringify(event.type === 'run_start' ? { ...event, session_id: sessionId } : event),
    );
  return {
    path,
    db,
    remove,
    writeSession: (sessionId, events) =>
      writeFileSync(transcript(sessionId), `${lines(sessionId, events).join('\n')}\n`),
    writeTornSession: (sessionId, events) => {
      const all = lines(sessionId, events);
      const last = all.pop() ?? '';
      writeFileSync(
        transcript(sessionId),
        `${[...all, last.slice(0, Math.floor(last.length / 2))].join('\n')}`,
      );
    },
    ledger: () =>
      jsonLines(join(path, 'learning', 'distilled.jsonl')).map((record) => ({
        session_id: String(record.session_id),
        outcome: String(record.outcome),
      })),
    appraisals: () => jsonLines(join(path, 'appraisals', 'appraisals.jsonl')),
    scores: () => jsonLines(join(path, 'appraisals', 'scores.jsonl')),
    configure: (next) => writeGraphConfig(path, db, next),
    open: () => openHome(path, { clock: () => testNow }),
  };
}
