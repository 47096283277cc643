import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { distill } from '@mecha/distill';
import { generateHome } from '@mecha/fixtures/home';
import { createScriptedModel } from '@mecha/local-model';
import { openHome } from '@mecha/stores';
import { describe, expect, it } from 'vitest';
import { mecha, mechaJson, snapshot, tempDir } from './helpers.js';

// The first "done when", end to end over a generated home: distillation with the
// scripted model (the one fake: no real weights can exist here; `mecha distill` differs only in
// loading a GGUF), a real mecha-graph-mcp process over a real SQLite file, and every review act
// through the built `mecha graph` command, which speaks to the graph's owner tools over MCP.

const graphBin = join(
  dirname(createRequire(import.meta.url).resolve('@mecha/graph/package.json')),
  'dist',
  'bin.js',
);
const now = new Date('2026-10-01T00:00:00Z');

interface Item {
  readonly id: number;
  readonly text: string;
  readonly status: string;
  readonly supersedes: number | null;
  readonly review_reason?: string;
  readonly candidates?: number[];
  readonly provenance: {
    readonly episode_ids: number[];
    readonly episodes: { source_id: string; taint: string }[];
    readonly taint: Record<string, number>;
  };
}
interface Page {
  readonly items: Item[];
  readonly total: number;
  readonly suppressed: Record<string, number>;
}

function homeWithGraph(): { home: string; db: string } {
  const folder = tempDir('mecha-graph-e2e-');
  const home = join(folder, 'home');
  const db = join(folder, 'graph.db');
  generateHome({
    path: home,
    seed: 'graph-e2e',
    sessions: 24,
    start: new Date('2026-08-01T00:00:00Z'),
    days: 10,
  });
  const config = join(home, 'config.toml');
  const text = readFileSync(config, 'utf8');
  expect(text).toContain('command = "mecha-graph-mcp"');
  writeFileSync(
    config,
    text.replace(
      'command = "mecha-graph-mcp"',
      `command = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify([graphBin, '--db', db])}`,
    ),
  );
  return { home, db };
}

/** A finished, clean session written as a recorder would, with the owner's own words in it. */
function writeSession(home: string, sessionId: string, day: string, ownerSays: string): void {
  const base = { v: 1, run_id: `run-${sessionId.slice(-8)}` };
  const lines = [
    {
      ...base,
      at: `${day}T09:00:00.000Z`,
      type: 'run_start',
      session_id: sessionId,
      surface: 'cli',
      session_kind: 'ordinary',
    },
    {
      ...base,
      at: `${day}T09:00:01.000Z`,
      type: 'message',
      turn: 0,
      message_id: `msg-${sessionId.slice(-8)}a`,
      role: 'owner',
      taint: 'clean',
      text: ownerSays,
    },
    {
      ...base,
      at: `${day}T09:00:05.000Z`,
      type: 'message',
      turn: 0,
      message_id: `msg-${sessionId.slice(-8)}b`,
      role: 'assistant',
      taint: 'clean',
      text: 'Understood; I updated the grant notes and the contact sheet to match what you said.',
    },
    { ...base, at: `${day}T09:10:00.000Z`, type: 'run_end', stop_cause: 'completed' },
  ];
  writeFileSync(
    join(home, 'sessions', `${sessionId}.jsonl`),
    `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`,
  );
}

const later = {
  grounded: '20260901T090000-0000aaaa',
  ungrounded: '20260902T090000-0000bbbb',
};

/** The distiller as scripted: every generated session tells the same story; the two later ones correct it. */
function reply(prompt: string): string {
  if (prompt.includes('\nFollow-up question about the same session.')) {
    return JSON.stringify({
      interpretation: 'The run did what it was asked.',
      claims: [],
      prediction: '',
      expected_act: 'no_act',
      goal: null,
    });
  }
  if (prompt.includes(`Session ${later.grounded},`)) {
    return JSON.stringify({
      skip: false,
      episode: 'The owner said Priya Nair moved on. Omar Haddad works at Initech.',
      corrections: [
        {
          wrong: 'Priya Nair is at Brown',
          right: 'Priya Nair is at Yale',
          about: 'Priya Nair',
          quote: 'Priya Nair is at Yale now',
        },
      ],
      surprises: [
        { about: 'Priya Nair', graph_said: 'she is at Brown', found: 'her mail is signed Yale' },
      ],
    });
  }
  if (prompt.includes(`Session ${later.ungrounded},`)) {
    return JSON.stringify({
      skip: true,
      corrections: [
        {
          wrong: 'Priya Nair is at Yale',
          right: 'Priya Nair is at MIT',
          about: 'Priya Nair',
          quote: 'she left for MIT',
        },
      ],
    });
  }
  return JSON.stringify({
    skip: false,
    episode:
      'Reviewed the grant with Priya Nair. Priya Nair is at Brown. Omar Haddad works at Initech.',
  });
}

async function runDistill(home: string) {
  const result = await distill({
    home: openHome(home, { clock: () => now }),
    model: createScriptedModel(reply, { name: 'graph-e2e' }),
    clock: () => now,
  });
  if (result.state !== 'done') throw new Error(result.message);
  return result.report;
}

function review(home: string): { facts: Page; corrections: Page } {
  const { run, json } = mechaJson<{ facts: Page; corrections: Page }>([
    '--home',
    home,
    'graph',
    'review',
    '--json',
  ]);
  expect(run.code, run.stderr).toBe(0);
  return json;
}

const byText = (page: Page, text: string) => page.items.find((item) => item.text === text);

describe('mecha graph over what mecha distill staged', () => {
  it('reviews candidates with provenance, approves a belief, closes it by a grounded correction, sends an ungrounded one to review, and never re-proposes a denial', async () => {
    const { home } = homeWithGraph();
    const first = await runDistill(home);
    expect(first.counts, JSON.stringify(first.sessions)).toMatchObject({ model_failed: 0 });
    expect(first.counts.pushed, JSON.stringify(first.sessions)).toBeGreaterThan(1);

    // Candidate facts wait in review with the episodes behind them, their taint and salience.
    const queue = review(home);
    const brown = byText(queue.facts, 'Priya Nair is at Brown');
    const initech = byText(queue.facts, 'Omar Haddad works at Initech');
    expect(brown?.status).toBe('staged');
    expect(brown?.provenance.episode_ids.length).toBe(first.counts.pushed);
    expect(brown?.provenance.episodes[0]?.source_id).toMatch(/^2026080/);
    expect(Object.values(brown?.provenance.taint ?? {}).reduce((a, b) => a + b, 0)).toBe(
      first.counts.pushed,
    );
    expect(initech?.status).toBe('staged');
    const printed = mecha(['--home', home, 'graph', 'review']);
    expect(printed.stdout).toContain(`f${brown?.id}  Priya Nair is at Brown  [staged · salience`);
    // Nothing became a belief by itself.
    const before = mechaJson<Page>(['--home', home, 'graph', 'search', 'Priya Nair is', '--json']);
    expect(before.json.items.every((item) => item.status === 'staged')).toBe(true);

    // Approving makes it a belief that kg_search finds; denying records a denial.
    const approved = mecha(['--home', home, 'graph', 'approve', `f${brown?.id}`]);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toBe(
      `f${brown?.id} accepted: "Priya Nair is at Brown" is now a belief\n`,
    );
    const denied = mecha(['--home', home, 'graph', 'deny', String(initech?.id)]);
    expect(denied.code, denied.stderr).toBe(0);
    const found = mechaJson<Page>([
      '--home',
      home,
      'graph',
      'search',
      'Priya Nair is at',
      '--json',
    ]);
    expect(byText(found.json, 'Priya Nair is at Brown')?.status).toBe('accepted');

    // A later clean session: the owner's words ground one correction, not the other.
    writeSession(
      home,
      later.grounded,
      '2026-09-01',
      'No — Priya Nair is at Yale now, fix the contact sheet please.',
    );
    writeSession(
      home,
      later.ungrounded,
      '2026-09-02',
      'Thanks, that looks right to me; nothing else for today on the grant.',
    );
    const second = await runDistill(home);
    expect(second.counts.pushed + second.counts.skipped).toBe(2);
    expect(second.corrections).toMatchObject({ sent: 2, ungrounded: 1, applied: 1, toReview: 1 });

    const shown = mechaJson<Page>(['--home', home, 'graph', 'show', 'Priya Nair', '--json']);
    const closed = byText(shown.json, 'Priya Nair is at Brown');
    const yale = byText(shown.json, 'Priya Nair is at Yale');
    expect(closed?.status).toBe('closed');
    expect(yale).toMatchObject({ status: 'staged', supersedes: brown?.id });

    const after = review(home);
    const waiting = after.corrections.items;
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({ review_reason: 'ungrounded', candidates: [yale?.id] });
    expect(byText(after.facts, 'Priya Nair is at Yale')?.status).toBe('staged');
    // The denied fact was stated again by the later episode and is not proposed again.
    expect(byText(after.facts, 'Omar Haddad works at Initech')).toBeUndefined();
    const all = mechaJson<Page>(['--home', home, 'graph', 'show', 'Omar Haddad', '--json']);
    expect(all.json.items.filter((item) => item.text === 'Omar Haddad works at Initech')).toEqual([
      expect.objectContaining({ status: 'rejected' }),
    ]);

    // The surprise is printed with the probe it seeds, and the probe shows it beside the facts.
    expect(second.surprises.items.map((item) => item.about)).toEqual(['Priya Nair']);
    const probe = mecha(['--home', home, 'gossip', '--entity', 'Priya Nair']);
    expect(probe.code, probe.stderr).toBe(0);
    expect(probe.stdout).toContain('gossip about Priya Nair');
    expect(probe.stdout).toContain('Priya Nair is at Yale  [staged');
    expect(probe.stdout).toContain('Priya Nair is at Brown  [closed');
    expect(probe.stdout).toContain(
      `surprises (1):\n  ${later.grounded}: the graph said "she is at Brown", the session found "her mail is signed Yale"`,
    );
  }, 240_000);

  it('refuses a malformed id as a usage error and an unknown one as a failure, changing nothing', async () => {
    const { home, db } = homeWithGraph();
    await runDistill(home);
    const before = snapshot(dirname(db));
    const bad = mecha(['--home', home, 'graph', 'approve', 'x12']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("'x12' is not a review id");
    const unknown = mecha(['--home', home, 'graph', 'approve', 'f99999']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no fact with id 99999');
    expect(snapshot(dirname(db)).get('graph.db')).toEqual(before.get('graph.db'));
    expect(before.get('graph.db')).toBeDefined();
  }, 240_000);
});

describe('mecha doctor on a distillation that gave up', () => {
  it('names each session given up after a failure that repeated, and why', () => {
    const { home } = homeWithGraph();
    const line = {
      v: 1,
      at: '2026-09-03T10:00:00.000Z',
      session_id: '20260903T090000-0000cccc',
      outcome: 'given_up',
      reason: 'given up after 3 tries: the reply ran past 2048 tokens',
    };
    appendFileSync(join(home, 'learning', 'distilled.jsonl'), `${JSON.stringify(line)}\n`);
    const run = mecha(['--home', home, 'doctor']);
    expect(run.stdout).toContain(
      '  distill     1 session(s) given up after a failure that repeated on every try (not retried):\n                20260903T090000-0000cccc: given up after 3 tries: the reply ran past 2048 tokens\n',
    );
  });
});

describe('mecha nightly and the session_end hook', () => {
  it('prints cron and systemd lines in its help', () => {
    const help = mecha(['nightly', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('17 3 * * *  mecha nightly');
    expect(help.stdout).toContain('OnCalendar=*-*-* 03:17:00');
    expect(help.stdout).toContain('mecha distill --session SESSION_ID');
  });

  it('says what it would do with --dry-run, like mecha distill, and leaves no lock behind', () => {
    const { home } = homeWithGraph();
    const run = mecha(['--home', home, 'nightly', '--dry-run']);
    expect(run.code, run.stderr).toBe(0);
    // The pass reflects first, then distils: reflect's lines come before distill's.
    expect(run.stdout).toMatch(/^reflect: dry run: \d+ corrections? on record/);
    expect(run.stdout).toMatch(/^dry run: \d+ sessions? would be distilled/m);
    const one = mecha(['--home', home, 'distill', '--dry-run', '--session', later.grounded]);
    expect(one.stdout).toMatch(/^dry run: 0 sessions would be distilled/);
    expect(snapshot(home).has('nightly.lock')).toBe(false);
    expect(snapshot(home).has('reflect.lock')).toBe(false);
  });
});
