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

const followUpSession = '20260921T090000-followed';
const followUpWords =
  'That is wrong: you never ran the tests. Always run pnpm test before you say done.';
const followUpId = `follow_up:${followUpSession}:m-2`;

/** A home made by `mecha init` holding one clean session of two runs: the owner's next message after the first ended. */
function homeWithFollowUp(extraConfig = ''): string {
  const home = join(tempDir(), 'home');
  expect(mecha(['init', '--home', home]).code).toBe(0);
  const at = (second: number) => `2026-09-21T09:00:${String(second).padStart(2, '0')}Z`;
  const base = (second: number, run = 'run-1') => ({ v: 1, at: at(second), run_id: run });
  const start = {
    type: 'run_start',
    session_id: followUpSession,
    surface: 'cli',
    session_kind: 'ordinary',
    workspace: '/w/app',
  };
  const owner = (second: number, run: string, id: string, turn: number, text: string) => ({
    ...base(second, run),
    type: 'message',
    turn,
    message_id: id,
    role: 'owner',
    taint: 'clean',
    text,
  });
  const events = [
    { ...base(0), ...start },
    owner(1, 'run-1', 'm-1', 0, 'Release version 2.'),
    { ...base(2), type: 'tool_call', turn: 1, call_id: 'c-1', tool: 'shell' },
    { ...base(3), type: 'tool_result', turn: 1, call_id: 'c-1', status: 'ok', taint: 'clean' },
    { ...base(4), type: 'run_end', stop_cause: 'completed' },
    { ...base(10, 'run-2'), ...start, resumed: true },
    owner(11, 'run-2', 'm-2', 3, followUpWords),
    { ...base(12, 'run-2'), type: 'run_end', stop_cause: 'completed' },
  ];
  mkdirSync(join(home, 'sessions'), { recursive: true });
  writeFileSync(
    join(home, 'sessions', `${followUpSession}.jsonl`),
    `${events.map((event) => JSON.stringify(event)).join('\n')}\n`,
  );
  if (extraConfig !== '') {
    const file = join(home, 'config.toml');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n${extraConfig}`);
  }
  return home;
}

/** What `mecha reflect --json` prints, as far as these tests read it. */
interface Pass {
  modelCalls: number;
  judgmentsWritten: number;
  counts: Record<
    'written' | 'failed' | 'not_grounded' | 'nothing_to_learn' | 'declined' | 'on_record',
    number
  >;
  corrections: { id: string; kind: string; outcome: string }[];
}

interface ReflectionLine {
  lesson?: { quote: string };
  judgment?: { quote: string };
  declined?: object;
  correction_turn?: number;
}

function reflections(home: string): ReflectionLine[] {
  const file = join(home, 'learning', 'reflections.jsonl');
  return existsSync(file) ? jsonl<ReflectionLine>(file) : [];
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

  it('edits a lesson with its provenance, and counts the edit and the drop apart in the curation section', () => {
    const home = homeWithSteer();
    const lessonId = 'lesson-0123456789abcdef0123';
    const reflectorText = 'Use the package manager to change the lockfile, never hand edits.';
    mkdirSync(join(home, 'learning'), { recursive: true });
    writeFileSync(
      join(home, 'learning', 'reflections.jsonl'),
      `${JSON.stringify({
        v: 1,
        reflection_id: lessonId,
        session_id: session,
        at: '2026-09-20T10:00:00Z',
        clean: true,
        lesson: {
          correction_id: `steer:${session}:run-1:1`,
          correction: 'steer',
          cite: { kind: 'turn', id: 'run-1:1' },
          text: reflectorText,
          quote: 'run pnpm install instead',
          reflected_by: 'sha256:test',
        },
      })}\n`,
    );
    const text = 'Never edit pnpm-lock.yaml by hand; run pnpm install.';
    expect(mecha(['--home', home, 'reflect', 'edit', lessonId]).code).toBe(2);
    const empty = mecha(['--home', home, 'reflect', 'edit', lessonId, '--text', '  ']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('the edited lesson is empty');
    expect(mecha(['--home', home, 'reflect', 'edit', 'lesson-none', '--text', text]).code).toBe(1);
    const edited = mecha(['--home', home, 'reflect', 'edit', lessonId, '--text', text]);
    expect(edited.code).toBe(0);
    expect(edited.stdout).toBe(`Edited ${lessonId}: ${text}\n`);
    const same = mecha(['--home', home, 'reflect', 'edit', lessonId, '--text', text]);
    expect(same.code).toBe(1);
    expect(same.stderr).toContain('already says that');
    // The listing shows the owner's text, and what the reflector wrote beside it.
    const listed = mecha(['--home', home, 'reflect', 'lessons']);
    expect(listed.stdout).toContain(`${lessonId} (edited)`);
    expect(listed.stdout).toContain(`  ${text}\n`);
    expect(listed.stdout).toContain(`the reflector wrote: ${reflectorText}`);
    const { json } = mechaJson<{ lessons: { text: string; lesson: { text: string } }[] }>([
      '--home',
      home,
      'reflect',
      'lessons',
      '--json',
    ]);
    expect(json.lessons.map((lesson) => [lesson.text, lesson.lesson.text])).toEqual([
      [text, reflectorText],
    ]);
    expect(mecha(['--home', home, 'reflect', 'drop', lessonId]).code).toBe(0);
    expect(mecha(['--home', home, 'reflect', 'edit', lessonId, '--text', 'Other.']).code).toBe(1);
    expect(
      jsonl<{ verdict: string; text?: string }>(
        join(home, 'learning', 'curation-reflections.jsonl'),
      ).map((verdict) => [verdict.verdict, verdict.text]),
    ).toEqual([
      ['edited', text],
      ['dropped', undefined],
    ]);
    // Verdicts on the reflector, counted apart: never on the run the correction came from.
    const appraised = mechaJson<{ curation: { reflections: Record<string, number> } }>([
      '--home',
      home,
      'sessions',
      'appraise',
      '--json',
    ]);
    expect(appraised.json.curation.reflections).toEqual({ dropped: 1, edited: 1 });
    expect(mecha(['--home', home, 'sessions', 'appraise']).stdout).toContain(
      'reflections 1 dropped, 1 edited',
    );
    expect(mecha(['reflect', 'edit', '--help']).stdout).toContain(
      'Usage: mecha reflect edit LESSON_ID --text TEXT',
    );
  });

  it('runs on the tiny generated GGUF: a lesson is kept only when it quotes the owner, and a second pass asks nothing', async () => {
    const home = homeWithSteer('[model]\npath = "tiny.gguf"\nthreads = 1\n');
    // The config written by init has no [model] table yet; one appended is read as is.
    await writeTinyLlamaGguf({ path: join(home, 'tiny.gguf'), seed: 5, contextLength: 4_096 });
    const { run, json } = mechaJson<Pass>(['--home', home, 'reflect', '--json']);
    expect(run.code).toBe(0);
    expect(json.modelCalls).toBe(1);
    console.log(`tiny GGUF reflector: ${JSON.stringify(json.counts)}`);
    // Random weights write nonsense under the grammar: whatever the outcome, a written lesson
    // must quote the owner's words, a decline is remembered, and anything else writes nothing.
    const records = reflections(home);
    const lessons = records.filter((record) => record.lesson !== undefined);
    expect(lessons.length).toBe(json.counts.written);
    for (const record of lessons) {
      expect(words.replace(/\s+/g, ' ')).toContain(record.lesson?.quote.replace(/\s+/g, ' '));
    }
    const declined = records.filter((record) => record.declined !== undefined);
    expect(declined.length).toBe(json.counts.not_grounded + json.counts.nothing_to_learn);
    // A second pass asks again only what failed: a lesson is on record, a decline stands.
    const again = mechaJson<Pass>(['--home', home, 'reflect', '--json']);
    expect(again.json.modelCalls).toBe(json.counts.failed);
    expect(again.json.counts.on_record).toBe(json.counts.written);
    expect(again.json.counts.declined).toBe(declined.length);
    if (json.counts.written === 1) {
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
    }
    if (declined.length === 1) {
      // The dry run says it is skipped, which model declined it and why.
      const dry = mecha(['--home', home, 'reflect', '--dry-run']);
      expect(dry.stdout).toContain('1 declined before');
      expect(dry.stdout).toMatch(
        /skipped: sha256:[0-9a-f]{64} (found nothing to learn|answered with a quote not in the owner's words) at \S+ \(lesson prompt lesson-[0-9a-f]{16}\); another model or prompt asks again/,
      );
    }
  }, 300_000);

  it('judges a follow-up on the tiny generated GGUF: a judgment is kept only when it quotes the owner, and is not asked again', async () => {
    const home = homeWithFollowUp('[model]\npath = "tiny.gguf"\nthreads = 1\n');
    await writeTinyLlamaGguf({ path: join(home, 'tiny.gguf'), seed: 5, contextLength: 4_096 });
    const dry = mechaJson<Pass>(['--home', home, 'reflect', '--dry-run', '--json']);
    expect(dry.json.corrections).toEqual([
      expect.objectContaining({ id: followUpId, kind: 'follow_up', outcome: 'would_judge' }),
    ]);
    const { run, json } = mechaJson<Pass>(['--home', home, 'reflect', '--json']);
    expect(run.code).toBe(0);
    console.log(`tiny GGUF judge: ${JSON.stringify(json.counts)} after ${json.modelCalls} calls`);
    expect(json.modelCalls).toBeGreaterThanOrEqual(1);
    const records = reflections(home);
    const judgments = records.filter((record) => record.judgment !== undefined);
    expect(judgments.length).toBe(json.judgmentsWritten);
    for (const record of judgments) {
      expect(record.correction_turn).toBe(3);
      expect(followUpWords).toContain(record.judgment?.quote);
    }
    for (const record of records.filter((r) => r.lesson !== undefined)) {
      expect(followUpWords).toContain(record.lesson?.quote);
    }
    // Whatever the model answered, the same model is not asked again unless a call failed.
    const again = mechaJson<Pass>(['--home', home, 'reflect', '--json']);
    expect(again.json.modelCalls).toBe(json.counts.failed);
  }, 300_000);
});
