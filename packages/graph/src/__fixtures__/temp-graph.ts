import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EpisodeInput } from '../schemas.js';

/**
 * A fresh folder for a real SQLite file. On Linux it sits on /dev/shm (tmpfs), where fsync is
 * free, so a thousand-run property over the real durable settings stays quick; elsewhere tmpdir.
 */
export function tempFolder(): { folder: string; remove: () => void } {
  const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  const folder = mkdtempSync(join(base, 'mecha-graph-test-'));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/** The database path inside a fresh folder. */
export function tempDatabase(): { path: string; remove: () => void } {
  const { folder, remove } = tempFolder();
  return { path: join(folder, 'graph.db'), remove };
}

/** An episode as mecha distill pushes it, with overrides. */
export function episode(overrides: Partial<EpisodeInput> = {}): EpisodeInput {
  return {
    kind: 'episode',
    source: 'agent:mecha',
    source_id: 'session-1',
    source_ref: '/home/you/.mecha/sessions/session-1.jsonl',
    occurred_at: '2026-08-05 12:00:00',
    body: 'Met Priya Nair about the grant; she is at Brown and the deadline is the 14th.',
    meta: {
      taint: { private: true, untrusted: false },
      distilled_by: 'test-model',
      entities: [{ name: 'Priya Nair', type: 'person' }],
      relations: [{ subject: 'Priya Nair', predicate: 'is at', object: 'Brown' }],
    },
    ...overrides,
  };
}
