import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusAppraisalSchema } from '@mecha/appraisal-core';
import { describe, expect, it } from 'vitest';
import { mecha, mechaJson, snapshot, startWeb, tempDir } from './helpers.js';

describe('mecha demo', () => {
  const home = join(tempDir(), 'demo');
  const run = mecha(['demo', '--home', home, '--sessions', '120']);

  it('generates a sample home, says what it made, and shows every readout', () => {
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^A sample mecha home, generated in .*demo\n {2}120 sessions over two months, \d+ files, [\d.]+ MB/,
    );
    expect(run.stdout).toContain('sessions appraise --days 30\nAppraisal of ');
    expect(run.stdout).toContain('sessions health --days 30\nHealth of ');
    expect(run.stdout).toContain('sessions successes -n 5\nWhat went right: ');
    expect(run.stdout).toMatch(/tasks set task-demo-q3 --status done --session \S+/);
    expect(run.stdout).toContain('Staged one follow-up: ');
    expect(run.stdout).toContain("mecha's appraisal of proj-demo: ");
    expect(run.stdout).toMatch(/mecha's appraisal of task-\S+: /);
    expect(run.stdout).toMatch(
      /distill --dry-run\ndry run: \d+ sessions? would be distilled into 'graph'/,
    );
  });

  it('prints a summary a person reads: a few session ids, prose, local times, where the home is', () => {
    const dryRun = run.stdout.slice(run.stdout.indexOf('distill --dry-run\n'));
    const ids = dryRun.match(/^ {2}\d{8}T\d{6}-[0-9a-f]{8}$/gm) ?? [];
    expect(ids.length).toBeLessThanOrEqual(5);
    expect(dryRun).toMatch(/… and \d+ more \(--json lists every one\)/);
    expect(run.stdout.split('\n').length).toBeLessThan(120);
    // The generated home's owner lives in Europe/Berlin: times read there, to the minute.
    const successes = run.stdout.slice(run.stdout.indexOf('sessions successes -n 5'));
    expect(successes).toMatch(/\n {2}\d{4}-\d\d-\d\d \d\d:\d\d GMT\+[12] {2}/);
    expect(run.stdout).not.toMatch(/\d\d:\d\d:\d\d\.\d{3}Z/);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe(
      `The sample (${/[\d.]+ MB/.exec(run.stdout)?.[0]}) is in ${home}; a later demo with --home ${home} replaces it.`,
    );
    const transcript = readFileSync(
      join(home, 'sessions', `${ids[0]?.trim() as string}.jsonl`),
      'utf8',
    );
    const text = /"text":"([^"]+)"/.exec(transcript)?.[1] as string;
    expect(text).toMatch(/^[A-Z][^.]*\.( [A-Z][^.]*\.)*$/);
  });

  it("points the home's graph server at mecha-graph-mcp, run with this Node", () => {
    const config = readFileSync(join(home, 'config.toml'), 'utf8');
    expect(config).toContain(`command = ${JSON.stringify(process.execPath)}`);
    expect(config).toMatch(/args = \[".*graph[\\/]dist[\\/]bin\.js", "--db", ".*graph\.db"\]/);
    expect(run.stdout).toContain(
      "(the home's [[mcp]] graph server is mecha-graph-mcp, run as node ",
    );
  });

  it('runs every command it suggests, and names no model file it does not have (issue 27)', async () => {
    const suggested = run.stdout
      .slice(run.stdout.indexOf('Go on from here:'))
      .split('\n')
      .filter((line) => line.startsWith(`  mecha --home ${home} `))
      .map((line) => line.slice(`  mecha --home ${home} `.length).split(/ {2,}/)[0] as string);
    expect(suggested).toContain('graph review');
    expect(suggested).toContain('web');
    for (const words of suggested) {
      if (words === 'web') continue; // serves until Ctrl-C: started below
      const session = /^ {2}(\d{8}T\d{6}-[0-9a-f]{8})$/m.exec(run.stdout)?.[1] as string;
      const args = words.replace('<session id or prefix>', session).split(' ');
      const ran = mecha(['--home', home, ...args], { HOME: tempDir() });
      if (words === 'doctor') {
        // The sample's torn lines are found and named (exit 1: something needs you), the fix too.
        expect(ran.stdout).toContain("Run 'mecha doctor --repair'");
        expect(ran.stdout).toMatch(/graph server +started/);
      } else expect(ran.code, `${words}: ${ran.stderr}`).toBe(0);
    }
    const web = await startWeb({ MECHA_HOME: home });
    try {
      expect((await fetch(`${web.base}/review`)).status).toBe(200);
    } finally {
      web.server.kill('SIGINT');
      await web.exited;
    }
    expect(readFileSync(join(home, 'config.toml'), 'utf8')).not.toMatch(/^path = /m);
    expect(mecha(['--home', home, 'doctor']).stdout).not.toContain('(missing)');
  });

  it('fills the review queue with a scripted distillation, and says it is scripted (issue 27)', async () => {
    expect(run.stdout).toContain('the demo distils 5 sessions with a scripted model');
    expect(run.stdout).toContain('written by rule, not by a language model');
    expect(run.stdout).toMatch(/distilled 5 sessions into 'graph': 5 pushed \(5 new/);
    expect(run.stdout).toMatch(/graph review --limit 5\ncandidate facts waiting for review: [1-9]/);
    const { run: review, json } = mechaJson<{ facts: { items: { status: string }[] } }>([
      '--home',
      home,
      'graph',
      'review',
      '--json',
    ]);
    expect(review.code).toBe(0);
    const facts = json.facts.items;
    expect(facts.length).toBeGreaterThan(0);
    expect(facts.every((fact) => fact.status === 'staged')).toBe(true);
    const web = await startWeb({ MECHA_HOME: home });
    try {
      const page = await (await fetch(`${web.base}/review`)).text();
      expect(page).not.toContain('Nothing waits for review');
    } finally {
      web.server.kill('SIGINT');
      await web.exited;
    }
  });

  it('leaves a home the other commands read', () => {
    const { run: again, json } = mechaJson(['--home', home, 'sessions', 'appraise', '--json']);
    expect(again.code).toBe(0);
    expect(corpusAppraisalSchema.safeParse(json).success).toBe(true);
    expect(json.sessions_read).toBeGreaterThan(90);
  });

  it('may run again in a folder it made', () => {
    expect(mecha(['demo', '--home', home, '--sessions', '20']).code).toBe(0);
  });

  it('refuses a folder that holds something else, and leaves it alone', () => {
    const other = tempDir();
    mkdirSync(join(other, 'mine'));
    writeFileSync(join(other, 'mine', 'notes.txt'), 'keep me');
    const before = snapshot(other);
    const refused = mecha(['demo', '--home', other]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is not empty and no earlier demo made it');
    expect(snapshot(other)).toEqual(before);
  });

  it('never touches MECHA_HOME', () => {
    const real = tempDir();
    writeFileSync(join(real, 'charter.toml'), '');
    const before = snapshot(real);
    const demo = mecha(['demo', '--sessions', '10'], { MECHA_HOME: real });
    expect(demo.code).toBe(0);
    expect(snapshot(real)).toEqual(before);
    // Without --home the demo makes (and keeps, for you to explore) a temporary folder.
    const made = /generated in (\S+)/.exec(demo.stdout)?.[1];
    expect(made).toMatch(/mecha-demo-/);
    if (made !== undefined) rmSync(made, { recursive: true, force: true });
  });
});
