import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeTinyLlamaGguf } from '@mecha/fixtures';
import { describe, expect, it } from 'vitest';
import { jsonl, mecha, mechaJson, snapshot, tempDir } from './helpers.js';

const words = 'Stop rewriting the lockfile by hand; run pnpm install instead.';
const session = '20260920T090000-corrected';

/** A home made by `mecha init` holding one clean session in which the owner steered the run. */
function homeWithSteer(extraConfig = ''): string {
  const home = join(tempDir(), 'home');
  expect(mecha(['init', '--home', home]).code).toBe(0);
  const at = (second: number) => `2026-09-20T09:00:${String(second).padStart(2, '0')}Z`;
  const base = (second: number) => ({ v: 1, at: at(second), run_id: 'run-1' });
  const events = [
    {
      ...base(0),
      type: 'run_start',
      session_id: session,
      surface: 'cli',
      session_kind: 'ordinary',
      workspace: '/w/app',
    },
    {
      ...base(1),
      type: 'message',
      turn: 0,
      message_id: 'm-1',
      role: 'owner',
      taint: 'clean',
      text: 'Update the dependencies.',
    },
    { ...base(2), type: 'tool_call', turn: 0, call_id: 'c-1', tool: 'shell' },
    { ...base(3), type: 'tool_result', turn: 0, call_id: 'c-1', status: 'ok', taint: 'clean' },
    { ...base(4), type: 'intervention', turn: 1, kind: 'steer' },
    {
      ...base(5),
      type: 'message',
      turn: 1,
      message_id: 'm-2',
      role: 'owner',
      taint: 'clean',
      text: words,
    },
    { ...base(9), type: 'run_end', stop_cause: 'completed' },
  ];
  mkdirSync(join(home, 'sessions'), { recursive: true });
  writeFileSync(
    join(home, 'sessions', `${session}.jsonl`),
    `${events.map((event) => JSON.stringify(event)).join('\n')}\n`,
  );
  if (extraConfig !== '') {
    const file = join(home, 'config.toml');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n${extraConfig}`);
  }
  return home;
}

describe('mecha reflect', () => {
  it('prints its usage with --help, and nightly says it reflects first', () => {
    const run = mecha(['reflect', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: mecha reflect [--dry-run] [--limit N] [--json]');
    expect(run.stdout).toContain('contrast_evidence');
    expect(mecha(['nightly', '--help']).stdout).toContain('reflects on your corrections');
    expect(mecha(['--help']).stdout).toMatch(/reflect\s+turn the owner's corrections into lessons/);
  });

  it('lists the correction with --dry-run, needing no model and writing nothing', () => {
    const home = homeWithSteer();
    const before = snapshot(home);
    const { run, json } = mechaJson<{
      dryRun: boolean;
      corrections: { id: string; outcome: string }[];
    }>(['--home', home, 'reflect', '--dry-run', '--json']);
    expect(run.code).toBe(0);
    expect(json.dryRun).toBe(true);
    expect(json.corrections).toEqual([
      expect.objectContaining({ id: `steer:${session}:run-1:1`, outcome: 'would_reflect' }),
    ]);
    const text = mecha(['--home', home, 'reflect', '--dry-run']);
    expect(text.stdout).toContain('dry run: 1 correction on record; contrast evidence off');
    expect(text.stdout).toContain(
      `- steer in ${session} (run:turn run-1:1): would be reflected on`,
    );
    expect(snapshot(home)).toEqual(before);
  });

  it('says how to configure a model when [model] path is not set, and writes nothing', () => {
    const home = homeWithSteer();
    const run = mecha(['--home', home, 'reflect']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('mecha reflect: no model is configured ([model] path is not set)');
    expect(run.stderr).toContain('Reflecting needs a local GGUF model.');
    expect(run.stderr).toContain('`mecha reflect --dry-run` works without a model.');
  });

  it('refuses a lesson it does not know, and lists none', () => {
    const home = homeWithSteer();
    const dropped = mecha(['--home', home, 'reflect', 'drop', 'lesson-nope']);
    expect(dropped.code).toBe(1);
    expect(dropped.stderr).toContain(
      "no lesson lesson-nope is on record (see 'mecha reflect lessons')",
    );
    expect(mecha(['--home', home, 'reflect', 'drop']).code).toBe(2);
    const listed = mecha(['--home', home, 'reflect', 'lessons']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('No lessons on record.');
  });

  it('runs on the tiny generated GGUF: a lesson is kept only when it quotes the owner, and a second pass asks nothing', async () => {
    const home = homeWithSteer('[model]\npath = "tiny.gguf"\nthreads = 1\n');
    // The config written by init has no [model] table yet; one appended is read as is.
    await writeTinyLlamaGguf({ path: join(home, 'tiny.gguf'), seed: 5, contextLength: 4_096 });
    const { run, json } = mechaJson<{
      modelCalls: number;
      counts: Record<string, number>;
    }>(['--home', home, 'reflect', '--json']);
    expect(run.code).toBe(0);
    expect(json.modelCalls).toBe(1);
    console.log(`tiny GGUF reflector: ${JSON.stringify(json.counts)}`);
    // Random weights write nonsense under the grammar: whatever the outcome, a written lesson
    // must quote the owner's words, and anything else writes nothing.
    const file = join(home, 'learning', 'reflections.jsonl');
    const lessons = existsSync(file) ? jsonl<{ lesson?: { quote: string } }>(file) : [];
    expect(lessons.length).toBe(json.counts.written);
    for (const record of lessons) {
      expect(words.replace(/\s+/g, ' ')).toContain(record.lesson?.quote.replace(/\s+/g, ' '));
    }
    const again = mechaJson<{ modelCalls: number; counts: Record<string, number> }>([
      '--home',
      home,
      'reflect',
      '--json',
    ]);
    if (json.counts.written === 1) {
      expect(again.json.modelCalls).toBe(0);
      expect(again.json.counts.on_record).toBe(1);
      const lessonId = mechaJson<{ lessons: { lessonId: string }[] }>([
        '--home',
        home,
        'reflect',
        'lessons',
        '--json',
      ]).json.lessons[0]?.lessonId;
      expect(mecha(['--home', home, 'reflect', 'drop', String(lessonId)]).code).toBe(0);
      expect(
        jsonl(join(home, 'learning', 'curation-reflections.jsonl')).map((v) => v.verdict),
      ).toEqual(['dropped']);
    } else {
      // Nothing grounded was written, so the correction is still open to a later pass.
      expect(again.json.modelCalls).toBe(1);
    }
  }, 300_000);
});
