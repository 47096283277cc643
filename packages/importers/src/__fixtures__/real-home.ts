import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TranscriptEvent } from '@mecha/appraisal-core';
import { initHome, type MechaHome, openHome } from '@mecha/stores';
import * as E from 'fp-ts/lib/Either.js';
import { type ImportReport, importHistory } from '../import-history.js';
import type { ImportTool } from '../session-state.js';

// Test helpers over the real logs in ./real (see real/SOURCES.md): a real home, a source folder
// holding fixture logs at chosen paths, an import, and the events the home then holds.

/** The folder of real logs. */
export const realLogs = fileURLToPath(new URL('./real/', import.meta.url));

/** Temporary folders made by {@link setUpRealHome}; {@link removeRealHomes} deletes them. */
const made: string[] = [];

/** Deletes every folder {@link setUpRealHome} made (call it in `afterAll`). */
export function removeRealHomes(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A real home and a source folder holding the named fixture logs at the given paths. */
export function setUpRealHome(files: Readonly<Record<string, string>>): {
  home: MechaHome;
  source: string;
} {
  const dir = mkdtempSync(join(tmpdir(), 'mecha-real-'));
  made.push(dir);
  initHome(join(dir, 'home'));
  const source = join(dir, 'source');
  for (const [at, fixture] of Object.entries(files)) {
    mkdirSync(join(source, at, '..'), { recursive: true });
    cpSync(join(realLogs, fixture), join(source, at));
  }
  mkdirSync(source, { recursive: true });
  return { home: openHome(join(dir, 'home')), source };
}

/** One import pass; a failure to run at all throws. */
export async function importOnce(
  home: MechaHome,
  tool: ImportTool,
  source: string,
): Promise<ImportReport> {
  const result = await importHistory(home, { tool, source });
  if (E.isLeft(result)) throw new Error(result.left.message);
  return result.right;
}

/** Every event of every session in the home, parsed. */
export function homeEvents(home: MechaHome): TranscriptEvent[] {
  const folder = join(home.path, home.sessions.file('x'), '..');
  const all: TranscriptEvent[] = [];
  for (const name of readdirSync(folder)) {
    if (!name.endsWith('.jsonl')) continue;
    for (const line of readFileSync(join(folder, name), 'utf8').split('\n')) {
      if (line !== '') all.push(JSON.parse(line));
    }
  }
  return all;
}

/** The texts of the owner's messages. */
export const ownerTexts = (all: readonly TranscriptEvent[]): string[] =>
  all.flatMap((event) =>
    event.type === 'message' && event.role === 'owner' ? [event.text ?? ''] : [],
  );
