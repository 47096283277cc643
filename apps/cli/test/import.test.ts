import { cpSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fixtureNow, jsonl, mecha, mechaJson, snapshot, tempDir } from './helpers.js';

// The importers' own fixture logs: one of each record kind the importers map.
const logs = fileURLToPath(
  new URL('../../../packages/importers/src/__fixtures__/', import.meta.url),
);

interface ErrorJson {
  readonly channel: string;
  readonly sign: number;
  readonly agency: string;
  readonly cite: Record<string, unknown>;
}
interface SessionJson {
  readonly label: string;
  readonly errors: ErrorJson[];
  readonly compacted: boolean;
  readonly valence: { positive: number; negative: number; partial: boolean };
}

/** A new home and writable copies of both tools' logs. */
function setUp() {
  const dir = tempDir('mecha-import-');
  const home = join(dir, 'home');
  expect(mecha(['init', '--home', home]).code).toBe(0);
  cpSync(logs, join(dir, 'logs'), { recursive: true });
  return { home, claude: join(dir, 'logs/claude-code'), codex: join(dir, 'logs/codex') };
}

/** The imported sessions by the first prompt of each, with their surface. */
function sessionsByPrompt(home: string): Map<string, { id: string; surface: string }> {
  const found = new Map<string, { id: string; surface: string }>();
  for (const name of readdirSync(join(home, 'sessions')).filter((file) =>
    file.endsWith('.jsonl'),
  )) {
    const events = jsonl<Record<string, unknown>>(join(home, 'sessions', name));
    const prompt = events.find((event) => event.type === 'message' && event.role === 'owner');
    found.set(String(prompt?.text), { id: name.slice(0, -6), surface: String(events[0]?.surface) });
  }
  return found;
}

const signed = (session: SessionJson) =>
  session.errors.map((error) => ({
    channel: error.channel,
    sign: error.sign,
    agency: error.agency,
    cite: error.cite,
  }));

describe('mecha import', () => {
  const { home, claude, codex } = setUp();
  const first = {
    claude: mechaJson(['import', 'claude-code', claude, '--home', home, '--json']),
    codex: mechaJson(['import', 'codex', codex, '--home', home, '--json']),
  };
  const sessions = sessionsByPrompt(home);
  const appraise = (prompt: string) => {
    const session = sessions.get(prompt);
    expect(session, prompt).toBeDefined();
    return mechaJson<SessionJson>(
      ['--home', home, 'sessions', 'appraise', session?.id ?? '', '--json'],
      fixtureNow,
    ).json;
  };

  it('imports both histories, marking each session with its tool', () => {
    expect(first.claude.run.code).toBe(0);
    expect(first.codex.run.code).toBe(0);
    expect(first.claude.json).toMatchObject({ sessions: { created: 2 }, files: { seen: 2 } });
    expect(first.codex.json).toMatchObject({ sessions: { created: 2 }, files: { seen: 2 } });
    expect([...sessions.values()].map((session) => session.surface).sort()).toEqual([
      'claude-code',
      'claude-code',
      'codex',
      'codex',
    ]);
  });

  it('reads a rejected tool use as a denial, an interrupt as a steer, the token limit as a ceiling stop', () => {
    const session = appraise('Add the Lakeside totals to report.md');
    expect(signed(session)).toEqual([
      { channel: 'intervention', sign: -1, agency: 'self', cite: { kind: 'turn', turn: 2 } },
      { channel: 'intervention', sign: -1, agency: 'self', cite: { kind: 'turn', turn: 5 } },
      {
        channel: 'counter',
        sign: -0.5,
        agency: 'owner',
        cite: { kind: 'counter', name: 'token_ceiling' },
      },
    ]);
    expect(session.label).toBe('distress');
    expect(session.valence).toEqual({ positive: 0, negative: 2.5, partial: false });
  });

  it('records a compaction: the label reads neutral and the valence partial; a provider error signs nothing', () => {
    const session = appraise('Refactor the invoice module');
    expect(session.errors).toEqual([]);
    expect(session.compacted).toBe(true);
    expect(session.label).toBe('neutral');
    expect(session.valence.partial).toBe(true);
  });

  it('reads a Codex declined patch as one denial, and a Codex interrupt as a steer', () => {
    expect(signed(appraise('Fix the failing totals test'))).toEqual([
      { channel: 'intervention', sign: -1, agency: 'self', cite: { kind: 'turn', turn: 2 } },
    ]);
    const interrupted = appraise('Summarise the changelog');
    expect(signed(interrupted)).toEqual([
      { channel: 'intervention', sign: -1, agency: 'self', cite: { kind: 'turn', turn: 1 } },
    ]);
    expect(interrupted.compacted).toBe(true);
  });

  it('lets the readout filter by the tool', () => {
    const { json } = mechaJson(
      ['--home', home, 'sessions', 'appraise', '--kind', 'codex', '--json'],
      fixtureNow,
    );
    expect(json).toMatchObject({ sessions_read: 2, valence: { negative: 2, partial: true } });
    const all = mechaJson(['--home', home, 'sessions', 'appraise', '--json'], fixtureNow).json;
    expect(all).toMatchObject({ sessions_read: 4, valence: { negative: 4.5 } });
  });

  it('reports each damaged source line with its file and line, and imports the rest', () => {
    const damagedClaude = join(
      claude,
      '-home-owner-shop/9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d.jsonl',
    );
    expect(first.claude.json.damaged).toEqual([
      { file: damagedClaude, line: 4, reason: 'not JSON' },
    ]);
    expect(first.claude.run.stderr).toContain(`${damagedClaude}:4: not JSON`);
    const damagedCodex = join(
      codex,
      '2026/09/20/rollout-2026-09-20T16-00-00-0199b2c3-d4e5-7f60-9a1b-2c3d4e5f6a7b.jsonl',
    );
    expect(first.codex.run.stderr).toContain(`${damagedCodex}:6: not JSON`);
    // The answer after the damaged line was imported.
    expect(appraise('Refactor the invoice module').errors).toEqual([]);
    const events = jsonl(
      join(home, 'sessions', `${sessions.get('Refactor the invoice module')?.id}.jsonl`),
    );
    expect(
      events.filter((event) => event.type === 'message' && event.role === 'assistant'),
    ).toHaveLength(3);
  });

  it('adds nothing on a second import', () => {
    const before = snapshot(home);
    const again = mecha(['import', 'claude-code', claude, '--home', home]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('0 new · 0 continued');
    expect(mecha(['import', 'codex', codex, '--home', home]).code).toBe(0);
    expect(snapshot(home)).toEqual(before);
  });

  it('has help, and exits 1 on a missing folder or home and 2 on a usage error', () => {
    const help = mecha(['import', 'codex', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: mecha import codex [DIR]');
    expect(mecha(['import', '--help']).stdout).toContain('mecha import claude-code');
    const missing = mecha(['import', 'codex', join(home, 'nope'), '--home', home]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('there is no folder at');
    // The default folder missing (the tool never ran here) says how to name another (issue 27).
    const noDefault = mecha(['import', 'codex', '--home', home], {
      CODEX_HOME: join(home, 'nope'),
    });
    expect(noDefault.code).toBe(1);
    expect(noDefault.stderr).toContain('give another folder: mecha import codex DIR');
    expect(mecha(['import', 'codex', codex, '--home', join(home, 'absent')]).code).toBe(1);
    expect(mecha(['import', 'codex', 'a', 'b', '--home', home]).code).toBe(2);
    expect(mecha(['import', 'gemini', '--home', home]).code).toBe(2);
  });

  it('imports from the tool’s own folder by default', () => {
    const env = { CODEX_HOME: join(codex, '..', 'codex-home') };
    cpSync(codex, join(env.CODEX_HOME, 'sessions'), { recursive: true });
    const fresh = setUp();
    const run = mechaJson(['import', 'codex', '--home', fresh.home, '--json'], env);
    expect(run.json).toMatchObject({
      source: join(env.CODEX_HOME, 'sessions'),
      sessions: { created: 2 },
    });
  });

  it('says why each file was not imported, and exits 1 when nothing could be', () => {
    const fresh = setUp();
    // Claude Code logs handed to the Codex importer: not one rollout among them.
    const wrong = mecha(['import', 'codex', fresh.claude, '--home', fresh.home]);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toContain('not named rollout-*.jsonl, so not a Codex rollout');
    expect(wrong.stderr).toContain('nothing could be imported');
    // A pretty-printed JSON file named .jsonl: one line for the file, not one per line.
    const pretty = join(tempDir('mecha-pretty-'), 'p');
    mkdirSync(pretty);
    writeFileSync(join(pretty, 'export.jsonl'), JSON.stringify({ messages: [1, 2, 3] }, null, 2));
    const refused = mechaJson([
      'import',
      'claude-code',
      join(pretty, '..'),
      '--home',
      fresh.home,
      '--json',
    ]);
    expect(refused.run.code).toBe(1);
    expect(refused.json).toMatchObject({
      damaged: [],
      skippedFiles: [{ reason: expect.stringContaining('not JSON Lines') }],
    });
    const empty = mecha(['import', 'claude-code', tempDir('mecha-empty-'), '--home', fresh.home]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('no Claude Code logs there');
    // Imported, then run again over the same logs: nothing new, and that is not a failure.
    expect(mecha(['import', 'claude-code', fresh.claude, '--home', fresh.home]).code).toBe(0);
    expect(mecha(['import', 'claude-code', fresh.claude, '--home', fresh.home]).code).toBe(0);
  });

  it('shows where each cite came from: the log file, the line and its id, in text and JSON', () => {
    const fresh = setUp();
    const source = join(tempDir('mecha-real-'), 'p');
    mkdirSync(source);
    // A real Claude Code 2.1.38 log: one Esc cancelling two parallel calls.
    cpSync(join(logs, 'real/claude-code/2.1.38-short.jsonl'), join(source, 'short.jsonl'));
    expect(mecha(['import', 'claude-code', join(source, '..'), '--home', fresh.home]).code).toBe(0);
    const [id] = sessionsByPrompt(fresh.home).values();
    const json = mechaJson<{ errors: (ErrorJson & { source?: unknown })[] }>(
      ['--home', fresh.home, 'sessions', 'appraise', id?.id ?? '', '--json'],
      fixtureNow,
    ).json;
    const file = join(source, 'short.jsonl');
    expect(json.errors).toEqual([
      expect.objectContaining({
        channel: 'intervention',
        cite: { kind: 'turn', turn: 1 },
        source: { file, line: 11, id: 'toolu_0116Hyi5v8ut7Ffb7d8qV1Sc' },
      }),
    ]);
    const text = mecha(['--home', fresh.home, 'sessions', 'appraise', id?.id ?? ''], fixtureNow);
    expect(text.stdout).toContain(`from ${file}:11 (toolu_0116Hyi5v8ut7Ffb7d8qV1Sc)`);
  });

  it('reports a session’s subagent logs on one line: "2 subagent logs not mapped"', () => {
    const fresh = setUp();
    const source = join(tempDir('mecha-real-'), '-tmp-private');
    mkdirSync(source);
    // A real Claude Code 2.0.64 folder: a session's log and its two agent-* logs beside it.
    cpSync(
      join(logs, 'real/claude-code/2.0.64-three-turns.jsonl'),
      join(source, '4c2ddfdc-b619-4525-8d03-1950fb1b0257.jsonl'),
    );
    cpSync(join(logs, 'real/claude-code/2.0.64-subagents'), source, { recursive: true });
    const run = mecha(['import', 'claude-code', join(source, '..'), '--home', fresh.home]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `${source}: 2 subagent logs not mapped (agent-36541525.jsonl, agent-50243ee8.jsonl)`,
    );
    expect(run.stdout).toMatch(/files +1 seen · 1 with new lines · 0 unchanged · 2 skipped/);
    // JSON keeps one entry per file.
    const again = mechaJson([
      'import',
      'claude-code',
      join(source, '..'),
      '--home',
      fresh.home,
      '--json',
    ]);
    expect(again.json).toMatchObject({
      skippedFiles: [
        { file: join(source, 'agent-36541525.jsonl') },
        { file: join(source, 'agent-50243ee8.jsonl') },
      ],
    });
  });
});
