import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { initHome, type MechaHome, openHome } from '@mecha/stores';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, describe, expect, it } from 'vitest';
import { importHistory } from './import-history.js';
import type { ImportTool, SignalCounts } from './session-state.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

// Logs with every mapping: real Claude Code 1.0.98/2.0.64/2.1.38/2.1.39 logs (an Esc over
// parallel calls under bypassPermissions, notices, slash commands, the 1.0.x Stop-hook line,
// stop_hook_summary/turn_duration, answers ending turns), the hand-made ones (denials, ceilings,
// compactions, a damaged line), and Codex exit codes (a real 0.125.0 unified-exec failure).
const logs: readonly {
  readonly tool: ImportTool;
  readonly fixture: string;
  readonly name: string;
}[] = [
  { tool: 'claude-code', fixture: 'real/claude-code/1.0.98-stop-hook.jsonl', name: 'a.jsonl' },
  { tool: 'claude-code', fixture: 'real/claude-code/2.0.64-three-turns.jsonl', name: 'a.jsonl' },
  { tool: 'claude-code', fixture: 'real/claude-code/2.1.38-short.jsonl', name: 'a.jsonl' },
  { tool: 'claude-code', fixture: 'real/claude-code/2.1.38-tool-heavy.jsonl', name: 'a.jsonl' },
  {
    tool: 'claude-code',
    fixture: 'real/claude-code/2.1.39-notifications.jsonl',
    name: 'a.jsonl',
  },
  {
    tool: 'claude-code',
    fixture: 'claude-code/-home-owner-shop/5b1f3c2a-8d4e-4f61-9a7b-2c3d4e5f6a70.jsonl',
    name: 'a.jsonl',
  },
  {
    tool: 'claude-code',
    fixture: 'claude-code/-home-owner-shop/9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d.jsonl',
    name: 'a.jsonl',
  },
  {
    tool: 'codex',
    fixture: 'real/codex/0.125.0-unified-exec-failure.jsonl',
    name: 'rollout-a.jsonl',
  },
  {
    tool: 'codex',
    fixture: 'real/codex/written-0.130.0-exec-command-end.jsonl',
    name: 'rollout-a.jsonl',
  },
  {
    tool: 'codex',
    fixture:
      'codex/2026/09/20/rollout-2026-09-20T16-00-00-0199b2c3-d4e5-7f60-9a1b-2c3d4e5f6a7b.jsonl',
    name: 'rollout-a.jsonl',
  },
];

interface Place {
  readonly home: MechaHome;
  readonly source: string;
}

/** A real home, and a source folder where the log is written twice: `p/` and a copy in `q/`. */
function place(): Place {
  const dir = mkdtempSync(join(tmpdir(), 'mecha-split-'));
  made.push(dir);
  initHome(join(dir, 'home'));
  mkdirSync(join(dir, 'source/p'), { recursive: true });
  mkdirSync(join(dir, 'source/q'), { recursive: true });
  return { home: openHome(join(dir, 'home')), source: join(dir, 'source') };
}

async function pass(at: Place, tool: ImportTool): Promise<SignalCounts> {
  const result = await importHistory(at.home, { tool, source: at.source });
  if (E.isLeft(result)) throw new Error(result.left.message);
  return result.right.signals;
}

/** The home's transcripts by session, with the source folder's path taken out. */
function transcripts(at: Place): Record<string, string> {
  const folder = join(at.home.path, at.home.sessions.file('x'), '..');
  return Object.fromEntries(
    readdirSync(folder)
      .filter((name) => name.endsWith('.jsonl'))
      .map((name) => [
        name,
        readFileSync(join(folder, name), 'utf8').replaceAll(at.source, 'SOURCE'),
      ]),
  );
}

const add = (a: SignalCounts, b: SignalCounts): SignalCounts => ({
  steers: a.steers + b.steers,
  denials: a.denials + b.denials,
  compactions: a.compactions + b.compactions,
  ceilings: a.ceilings + b.ceilings,
  errors: a.errors + b.errors,
});

describe('importing a log in passes', () => {
  it('gives the same home as one pass, however the log is split, with a copy of it at a second path', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...logs),
        // Cuts at a line's start, or in its middle (a line still being written).
        fc.array(fc.record({ line: fc.nat(), within: fc.boolean() }), { maxLength: 5 }),
        async (log, picks) => {
          const bytes = readFileSync(join(fixtures, log.fixture));
          const starts = [0];
          bytes.forEach((byte, index) => {
            if (byte === 0x0a && index + 1 < bytes.length) starts.push(index + 1);
          });
          const cuts = [
            ...new Set(
              picks.map(({ line, within }) => {
                const start = starts[line % starts.length] as number;
                const end = starts[(line % starts.length) + 1] ?? bytes.length;
                return within ? Math.floor((start + end) / 2) : start;
              }),
            ),
          ].sort((a, b) => a - b);

          const whole = place();
          for (const folder of ['p', 'q'])
            writeFileSync(join(whole.source, folder, log.name), bytes);
          const once = await pass(whole, log.tool);

          const split = place();
          for (const folder of ['p', 'q']) writeFileSync(join(split.source, folder, log.name), '');
          let done = 0;
          let summed: SignalCounts = {
            steers: 0,
            denials: 0,
            compactions: 0,
            ceilings: 0,
            errors: 0,
          };
          for (const cut of [...cuts, bytes.length]) {
            for (const folder of ['p', 'q']) {
              appendFileSync(join(split.source, folder, log.name), bytes.subarray(done, cut));
            }
            done = cut;
            summed = add(summed, await pass(split, log.tool));
          }
          // One session (the copy is the same log), the same events, the same counts.
          expect(Object.keys(transcripts(whole))).toHaveLength(1);
          expect(transcripts(split)).toEqual(transcripts(whole));
          expect(summed).toEqual(once);
        },
      ),
      { numRuns: 40 },
    );
  });
});
