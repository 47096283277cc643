import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { statusBadge } from '@mecha/appraisal-core';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { mechaJson, tempDir } from './helpers.js';

const packages = fileURLToPath(new URL('../../../packages/', import.meta.url));
const script = join(packages, 'stores', 'examples', 'live-harness.ts');

interface RunLine {
  readonly session: string;
  readonly scenario: 'looping' | 'polling' | 'turn_limit' | 'steered' | 'compacted';
  readonly delivered: boolean;
  readonly notices: readonly number[];
  readonly badge: string | null;
  readonly tone: string | null;
}

/** Runs the example harness (types stripped, as a user's build would) against the built packages. */
function runHarness(home: string, runs: number): RunLine[] {
  const folder = tempDir('mecha-live-harness-');
  mkdirSync(join(folder, 'node_modules', '@mecha'), { recursive: true });
  for (const name of ['stores', 'appraisal-core', 'homeostat', 'charter', 'errors']) {
    symlinkSync(join(packages, name), join(folder, 'node_modules', '@mecha', name));
  }
  const compiled = join(folder, 'live-harness.mjs');
  writeFileSync(
    compiled,
    ts.transpileModule(readFileSync(script, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText,
  );
  const output = execFileSync(process.execPath, [compiled], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', MECHA_HOME: home, RUNS: String(runs) },
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  return output
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as RunLine);
}

describe('a harness recording 50 runs through the public API', () => {
  it('shows brief completeness and boredom in sessions health, and its badge agrees with sessions appraise for every run', () => {
    const home = join(tempDir(), 'home');
    mkdirSync(home);
    writeFileSync(join(home, 'config.toml'), '[agent]\nsituation_brief = true\n');
    const lines = runHarness(home, 50);
    expect(lines).toHaveLength(50);

    const { run, json: health } = mechaJson<{
      runs: number;
      situation_brief: {
        runs_with_brief: number;
        delivered: number;
        fields: Record<string, Record<string, number>>;
      };
      counters: { boredom_fired: { runs_recorded: number; runs_fired: number; total: number } };
    }>(['--home', home, 'sessions', 'health', '--json']);
    expect(run.code).toBe(0);
    expect(health.runs).toBe(50);
    const delivered = lines.filter((line) => line.delivered).length;
    expect(health.situation_brief).toMatchObject({ runs_with_brief: 50, delivered });
    // Every fourth run (index 3, 7, …, 47) passes --no-situation-brief: 12 of 50.
    expect(delivered).toBe(50 - 12);
    const fields = health.situation_brief.fields;
    expect(fields.goal).toMatchObject({ read: 25, no_anchor: 25 });
    expect(fields.attempts).toMatchObject({ read: 25, not_a_task: 25 });
    expect(fields.board).toMatchObject({ read: 50 });
    expect(fields.slots).toMatchObject({ not_local: 50 });
    expect(fields.budget).toMatchObject({ read: 50 });
    expect(fields.seats).toMatchObject({ unread: 50 });
    // Looping runs climb all three rungs; compacted ones reach the first.
    expect(health.counters.boredom_fired).toEqual({ runs_recorded: 20, runs_fired: 20, total: 40 });

    for (const line of lines) {
      const expected = { looping: [1, 2, 3], compacted: [1] }[line.scenario as string] ?? [];
      expect(line.notices, line.scenario).toEqual(expected);
      const { json: reading } = mechaJson<{
        label: string;
        valence: { positive: number; negative: number; partial: boolean };
      }>(['--home', home, 'sessions', 'appraise', line.session, '--json']);
      expect(statusBadge(reading as never)?.text ?? null, line.session).toBe(line.badge);
      if (line.scenario === 'looping') {
        // −0.5 per notice, three notices.
        expect(reading.valence).toEqual({ positive: 0, negative: 1.5, partial: false });
        expect(line.badge).toBe('distress \u22121.5');
        expect(line.tone).toBe('amber');
      }
      if (line.scenario === 'polling') expect(line.badge).toBeNull();
      if (line.scenario === 'compacted') expect(line.badge).toBe('\u22120.5\u2026');
    }
  });
});
