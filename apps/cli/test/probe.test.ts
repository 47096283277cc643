import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  corpusAppraisalSchema,
  type Label,
  reachability,
  type TranscriptEvent,
} from '@mecha/appraisal-core';
import { writeTinyLlamaGguf } from '@mecha/fixtures';
import { describe, expect, it } from 'vitest';
import { mecha, mechaJson, snapshot, tempDir } from './helpers.js';

// The counterfactual probe end to end through the built command, on a home written here. The
// replayer is the scripted one (`[probe] replayer = "scripted:PATH"`): a real agent cannot run
// on this machine, so each arm's outcome is scripted and everything around it is real.

const now = { MECHA_NOW: '2026-09-26T09:00:00Z' };
const at = (minutes: number) => new Date(Date.UTC(2026, 8, 25, 9, minutes)).toISOString();

function steered(
  sessionId: string,
  options: { turns?: readonly number[]; goal?: string; minute?: number } = {},
): TranscriptEvent[] {
  const base = { v: 1 as const, run_id: `${sessionId}-r1`, at: at(options.minute ?? 0) };
  const events: TranscriptEvent[] = [
    {
      ...base,
      type: 'run_start',
      session_id: sessionId,
      surface: 'cli',
      session_kind: 'ordinary',
      ...(options.goal === undefined ? {} : { goal: { kind: 'task', id: options.goal } }),
    },
    {
      ...base,
      type: 'message',
      turn: 0,
      message_id: 'm-s',
      role: 'system',
      taint: 'clean',
      text: 'You tidy repositories.',
    },
    {
      ...base,
      type: 'message',
      turn: 0,
      message_id: 'm-0',
      role: 'owner',
      taint: 'clean',
      text: 'tidy the repo',
    },
  ];
  for (const turn of options.turns ?? [2]) {
    events.push(
      {
        ...base,
        type: 'message',
        turn,
        message_id: `m-${turn}`,
        role: 'owner',
        taint: 'clean',
        text: 'not that file',
      },
      { ...base, type: 'intervention', turn, kind: 'steer' },
    );
  }
  events.push(
    { ...base, type: 'tool_call', turn: 10, call_id: 'c-1', tool: 'edit_file', target: 'src/a.ts' },
    { ...base, type: 'run_end', stop_cause: 'completed' },
  );
  return events;
}

const completed = (tool: string) => ({
  state: 'ended',
  stop_cause: 'completed',
  calls: [{ tool, target: 'src/a.ts' }],
});

/** A home with five sessions, a replay script for four of them, and a project directory. */
function probeHome(): { user: string; home: string; project: string } {
  const user = tempDir('mecha-probe-user-');
  const home = join(user, '.mecha');
  const project = join(user, 'project');
  // A home as `mecha init` makes it (with its manifest), then the records written here.
  expect(mecha(['--home', home, 'init']).code).toBe(0);
  mkdirSync(join(home, 'sessions'), { recursive: true });
  mkdirSync(join(home, 'outbox'), { recursive: true });
  mkdirSync(project);
  const sessions: Record<string, TranscriptEvent[]> = {
    '20260925T090000-mattered': steered('20260925T090000-mattered', { minute: 0 }),
    '20260925T090100-redundant': steered('20260925T090100-redundant', { minute: 1 }),
    '20260925T090200-inconclusive': steered('20260925T090200-inconclusive', { minute: 2 }),
    '20260925T090300-repeated': steered('20260925T090300-repeated', {
      minute: 3,
      turns: [2, 4],
      goal: 'task-1',
    }),
    '20260925T090400-drafted': steered('20260925T090400-drafted', { minute: 4, turns: [] }),
  };
  for (const [id, events] of Object.entries(sessions)) {
    writeFileSync(
      join(home, 'sessions', `${id}.jsonl`),
      `${events.map((event) => JSON.stringify(event)).join('\n')}\n`,
    );
  }
  writeFileSync(
    join(home, 'outbox', 'outbox.jsonl'),
    [
      {
        v: 1,
        type: 'staged',
        at: at(4),
        draft_id: 'd-1',
        session_id: '20260925T090400-drafted',
        tool: 'mail_send',
        taint: 'clean',
      },
      { v: 2, type: 'outcome', at: at(5), draft_id: 'd-1', outcome: 'rejected', sender: 'owner' },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n')
      .concat('\n'),
  );
  const script = [
    { session_id: '20260925T090000-mattered', turn: 2, outcome: completed('read_file') },
    { session_id: '20260925T090100-redundant', turn: 2, outcome: completed('edit_file') },
    { session_id: '20260925T090300-repeated', turn: 2, outcome: completed('read_file') },
    { session_id: '20260925T090300-repeated', turn: 4, outcome: completed('edit_file') },
  ];
  writeFileSync(
    join(home, 'arms.jsonl'),
    `${script.map((line) => JSON.stringify(line)).join('\n')}\n`,
  );
  writeFileSync(join(home, 'config.toml'), '[probe]\nreplayer = "scripted:arms.jsonl"\n');
  return { user, home, project };
}

describe('sessions appraise --probe', () => {
  it('reads regret, disappointment and frustration where the probe resolved them, and counts the rest apart', () => {
    const { user, home, project } = probeHome();
    const before = snapshot(home);
    const { run, json } = mechaJson(
      ['--home', home, 'sessions', 'appraise', '--probe', '--workspace', project, '--json'],
      { ...now, HOME: user },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = corpusAppraisalSchema.parse(json);
    expect(result.probe).toEqual({
      driven: 5,
      mattered: 2,
      redundant: 2,
      inconclusive: 1,
      skipped: 0,
      unprobeable: 1,
      over_ceiling: 0,
    });
    expect(result.labels).toMatchObject({
      regret: 1,
      disappointment: 1,
      frustration: 1,
      distress: 2,
    });
    // The labels the table says only a probe reaches are each reached by this real readout.
    const probeOnly = (Object.keys(reachability) as Label[]).filter((label) => {
      const producers: readonly string[] = reachability[label].producers;
      return producers.includes('probe');
    });
    expect(probeOnly.sort()).toEqual(['disappointment', 'frustration', 'regret']);
    for (const label of probeOnly) expect(result.labels?.[label]).toBeGreaterThan(0);
    // Derived on read: nothing was written.
    expect(snapshot(home)).toEqual(before);

    const human = mecha(
      ['--home', home, 'sessions', 'appraise', '--probe', '--workspace', project],
      {
        ...now,
        HOME: user,
      },
    );
    expect(human.stdout).toContain('counterfactual probe (5 replays driven)');
    expect(human.stdout).toMatch(/mattered +2 {2}— the intervention was load-bearing: regret/);
    expect(human.stdout).toMatch(/inconclusive +1/);
  });

  it('reads the same home without --probe as distress throughout, with probe null', () => {
    const { home, user } = probeHome();
    const { json } = mechaJson(['--home', home, 'sessions', 'appraise', '--json'], {
      ...now,
      HOME: user,
    });
    const result = corpusAppraisalSchema.parse(json);
    expect(result.probe).toBeNull();
    expect(result.labels).toMatchObject({
      regret: 0,
      disappointment: 0,
      frustration: 0,
      distress: 5,
    });
  });

  it('honours --max-probes, newest sessions first', () => {
    const { user, home, project } = probeHome();
    const { json } = mechaJson(
      [
        '--home',
        home,
        'sessions',
        'appraise',
        '--probe',
        '--max-probes',
        '2',
        '--workspace',
        project,
        '--json',
      ],
      { ...now, HOME: user },
    );
    const result = corpusAppraisalSchema.parse(json);
    expect(result.probe).toMatchObject({ driven: 2, over_ceiling: 3, mattered: 1, redundant: 1 });
    expect(result.labels).toMatchObject({ frustration: 1, regret: 0, disappointment: 0 });
  });

  it('refuses to run from the home directory, or with a workspace covering the mecha home, and writes nothing', () => {
    const { user, home } = probeHome();
    const before = snapshot(home);
    const fromHome = mecha(
      ['--home', home, 'sessions', 'appraise', '--probe', '--workspace', user],
      {
        ...now,
        HOME: user,
      },
    );
    expect(fromHome.code).toBe(1);
    expect(fromHome.stderr).toContain('your home directory');
    expect(fromHome.stdout).toBe('');
    const covering = mecha(
      ['--home', home, 'sessions', 'appraise', '--probe', '--workspace', home],
      now,
    );
    expect(covering.code).toBe(1);
    expect(covering.stderr).toContain('covers the mecha home');
    expect(snapshot(home)).toEqual(before);
  });

  it('gives usage errors for a workspace without --probe and a probe of one session', () => {
    const { home } = probeHome();
    expect(mecha(['--home', home, 'sessions', 'appraise', '--workspace', '/tmp'], now).code).toBe(
      2,
    );
    const one = mecha(
      ['--home', home, 'sessions', 'appraise', '--probe', '20260925T090000-mattered'],
      now,
    );
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('--probe runs over the corpus readout');
  });

  it('names the bad line of a replay script and spends nothing', () => {
    const { home, project, user } = probeHome();
    writeFileSync(join(home, 'arms.jsonl'), '{"session_id":"x","turn":-1}\n');
    const run = mecha(['--home', home, 'sessions', 'appraise', '--probe', '--workspace', project], {
      ...now,
      HOME: user,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('arms.jsonl line 1');
  });
});

describe('sessions appraise --probe through the local-model replayer', () => {
  it('drives a replay end to end on the tiny generated GGUF (its weights are random: any finding)', async () => {
    const { user, home, project } = probeHome();
    await writeTinyLlamaGguf({ path: join(home, 'tiny.gguf'), seed: 3 });
    writeFileSync(
      join(home, 'config.toml'),
      '[model]\npath = "tiny.gguf"\nthreads = 1\n\n[probe]\nreplayer = "local-model"\n',
    );
    const { run, json } = mechaJson(
      [
        '--home',
        home,
        'sessions',
        'appraise',
        '--probe',
        '--max-probes',
        '1',
        '--workspace',
        project,
        '--json',
      ],
      { ...now, HOME: user },
    );
    expect(run.code).toBe(0);
    const result = corpusAppraisalSchema.parse(json);
    expect(result.probe?.driven).toBe(1);
    expect(result.probe?.over_ceiling).toBe(4);
  }, 120_000);
});
