import { join } from 'node:path';
import { corpusAppraisalSchema } from '@mecha/appraisal-core';
import { generateHome } from '@mecha/fixtures/home';
import { describe, expect, it } from 'vitest';
import { mecha, mechaJson, snapshot, tempDir } from './helpers.js';

describe('the readers over a generated home', () => {
  const home = join(tempDir(), 'home');
  const made = generateHome({
    path: home,
    seed: 'cli-e2e',
    sessions: 400,
    start: new Date('2026-06-01T00:00:00Z'),
    days: 90,
  });
  const now = { MECHA_NOW: '2026-09-15T00:00:00Z' };
  const before = snapshot(home);

  it('appraise --json is the core readout and agrees with what was generated', () => {
    const { run, json } = mechaJson(['--home', home, 'sessions', 'appraise', '--json'], now);
    expect(run.code).toBe(0);
    expect(corpusAppraisalSchema.safeParse(json).success).toBe(true);
    const read = json.sessions_read as number;
    const hidden = (json.tests_hidden as number) + (json.experiments_hidden as number);
    expect(read + hidden + (json.sessions_unreadable as number)).toBe(made.sessions);
    const labels = Object.values(json.labels as Record<string, number>).reduce(
      (sum, n) => sum + n,
      0,
    );
    expect(labels).toBe(read);
  });

  it('a generated torn last line makes the readout partial and is named', () => {
    expect(made.tornLines).toBeGreaterThan(0);
    const run = mecha(['--home', home, 'sessions', 'appraise'], now);
    expect(run.stdout).toContain('Not read whole, so the readout is partial');
    expect(run.stdout).toMatch(/torn final line/);
  });

  it('health --json counts runs and names counters no run recorded as unknown', () => {
    const { run, json } = mechaJson(
      ['--home', home, 'sessions', 'health', '--days', '30', '--json'],
      now,
    );
    expect(run.code).toBe(0);
    expect(json.runs as number).toBeGreaterThanOrEqual(json.sessions_read as number);
    const counters = json.counters as Record<string, unknown>;
    for (const entry of json.unknown as { field: string }[])
      expect(counters[entry.field]).toBeNull();
  });

  it('successes lists the set and, with --exemplars, each draft sent unchanged as sent', () => {
    const run = mecha(['--home', home, 'sessions', 'successes', '--exemplars', '-n', '3']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^What went right: \d+ standing/);
    expect(run.stdout).toMatch(/Writing exemplars \(\d+\): each draft you sent unchanged, as sent/);
    const examples = mecha(['--home', home, 'sessions', 'successes', '--examples']);
    expect(examples.stdout).toMatch(/Planning examples \(\d+\): call traces, not plans/);
    const { json } = mechaJson(['--home', home, 'sessions', 'successes', '--json']);
    expect(json.standing).toBe(
      (json.successes as { status: string }[]).filter((success) => success.status === 'standing')
        .length,
    );
  });

  it('one session by a unique prefix of its id', () => {
    const { json: corpus } = mechaJson<{ labels: Record<string, number> }>(
      ['--home', home, 'sessions', 'appraise', '--json'],
      now,
    );
    expect(corpus.labels.distress).toBeGreaterThan(0);
    const list = mecha(['--home', home, 'sessions', 'appraise', '--text', '-n', '1', '--json']);
    const id =
      (JSON.parse(list.stdout) as { records: { session_id: string }[] }).records[0]?.session_id ??
      '';
    const run = mecha(['--home', home, 'sessions', 'appraise', id.slice(0, 18)]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Session ${id}: `));
    expect(run.stdout).toContain('text appraisal');
  });

  it('reading wrote nothing', () => {
    expect(snapshot(home)).toEqual(before);
  });
});
