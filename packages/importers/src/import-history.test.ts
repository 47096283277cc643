import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { initHome, type MechaHome, openHome } from '@mecha/stores';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, describe, expect, it } from 'vitest';
import { type ImportReport, importHistory } from './import-history.js';
import type { ImportTool } from './session-state.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A real home (`initHome`) and a writable copy of one tool's fixture logs. */
function setUp(tool: ImportTool): { home: MechaHome; source: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mecha-import-'));
  made.push(dir);
  initHome(join(dir, 'home'));
  cpSync(join(fixtures, tool), join(dir, 'source'), { recursive: true });
  return { home: openHome(join(dir, 'home')), source: join(dir, 'source') };
}

async function run(home: MechaHome, tool: ImportTool, source: string): Promise<ImportReport> {
  const result = await importHistory(home, {
    tool,
    source,
    now: () => new Date('2026-09-25T00:00:00Z'),
  });
  if (E.isLeft(result)) throw result.left;
  return result.right;
}

async function transcripts(home: MechaHome): Promise<Map<string, string>> {
  const list = await home.sessions.list();
  if (list.state === 'unreadable') throw new Error(list.reason);
  return new Map(
    list.records.map((session) => [
      session.sessionId,
      readFileSync(join(home.path, home.sessions.file(session.sessionId)), 'utf8'),
    ]),
  );
}

describe('importHistory', () => {
  it('imports each log as one session marked with its tool, and a second pass adds nothing', async () => {
    for (const tool of ['claude-code', 'codex'] as const) {
      const { home, source } = setUp(tool);
      const first = await run(home, tool, source);
      expect(first.sessions).toEqual({ created: 2, continued: 0 });
      const list = await home.sessions.list();
      expect(
        list.state === 'unreadable' ? [] : list.records.map((session) => session.surface),
      ).toEqual([tool, tool]);
      const before = await transcripts(home);
      const second = await run(home, tool, source);
      expect(second.events).toBe(0);
      expect(second.files).toMatchObject({ read: 0, unchanged: 2 });
      expect(await transcripts(home)).toEqual(before);
    }
  });

  it('reports a damaged line with its file and line, and imports the lines after it', async () => {
    const { home, source } = setUp('codex');
    const report = await run(home, 'codex', source);
    expect(report.damaged).toEqual([
      {
        file: join(
          source,
          '2026/09/20/rollout-2026-09-20T16-00-00-0199b2c3-d4e5-7f60-9a1b-2c3d4e5f6a7b.jsonl',
        ),
        line: 6,
        reason: 'not JSON',
      },
    ]);
    const all = [...(await transcripts(home)).values()].join('');
    // The interrupt and the compaction come after the damaged line.
    expect(all).toContain('"kind":"steer"');
    expect(all).toContain('"type":"compaction"');
  });

  it('continues a session that grew, from where the last pass stopped, with turns going on', async () => {
    const { home, source } = setUp('codex');
    const file = join(
      source,
      '2026/09/20/rollout-2026-09-20T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl',
    );
    await run(home, 'codex', source);
    const before = await transcripts(home);
    appendFileSync(
      file,
      [
        {
          timestamp: '2026-09-20T11:00:00.000Z',
          type: 'event_msg',
          payload: { type: 'user_message', message: 'And the docs' },
        },
        {
          timestamp: '2026-09-20T11:00:01.000Z',
          type: 'event_msg',
          payload: { type: 'turn_aborted', reason: 'interrupted' },
        },
      ]
        .map((record) => `${JSON.stringify(record)}\n`)
        .join(''),
    );
    const report = await run(home, 'codex', source);
    expect(report.sessions).toEqual({ created: 0, continued: 1 });
    expect(report.signals.steers).toBe(1);
    const after = await transcripts(home);
    const [id, text] = [...after].find(([key, value]) => value !== before.get(key)) ?? ['', ''];
    const added = text
      .slice((before.get(id) ?? '').length)
      .trim()
      .split('\n')
      .map((row) => JSON.parse(row));
    expect(added.map((event) => event.type)).toEqual([
      'run_start',
      'message',
      'intervention',
      'run_end',
    ]);
    expect(added[0]).toMatchObject({ run_id: `${id}.r3`, resumed: true });
    expect(added[1].turn).toBe(6);
  });

  it('leaves a last line still being written for the next pass', async () => {
    const { home, source } = setUp('codex');
    const file = join(
      source,
      '2026/09/20/rollout-2026-09-20T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl',
    );
    const whole = `${JSON.stringify({ timestamp: '2026-09-20T11:00:00.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'More' } })}\n`;
    appendFileSync(file, whole.slice(0, 30));
    const first = await run(home, 'codex', source);
    expect(first.pending).toEqual([file]);
    expect(first.damaged).toHaveLength(1);
    appendFileSync(file, whole.slice(30));
    const second = await run(home, 'codex', source);
    expect(second.pending).toEqual([]);
    expect(second.damaged).toEqual([]);
    expect(second.lines).toMatchObject({ read: 1, mapped: 1 });
  });

  it('refuses to import again what the home holds when the ledger does not know it', async () => {
    const { home, source } = setUp('claude-code');
    await run(home, 'claude-code', source);
    rmSync(join(home.path, 'imports/claude-code.jsonl'));
    const again = await run(home, 'claude-code', source);
    expect(again.events).toBe(0);
    expect(again.skippedFiles.map((skipped) => skipped.reason)).toEqual([
      expect.stringContaining("a subagent's log"),
      expect.stringContaining('is already in this home'),
      expect.stringContaining('is already in this home'),
    ]);
  });

  it('does not append to a transcript that changed since the import left it', async () => {
    const { home, source } = setUp('claude-code');
    await run(home, 'claude-code', source);
    const [first] = [...(await transcripts(home)).keys()];
    appendFileSync(join(home.path, home.sessions.file(first as string)), '');
    writeFileSync(
      join(home.path, home.sessions.file(first as string)),
      readFileSync(join(home.path, home.sessions.file(first as string)), 'utf8')
        .split('\n')
        .slice(0, 3)
        .join('\n')
        .concat('\n'),
    );
    const file = join(source, '-home-owner-shop/5b1f3c2a-8d4e-4f61-9a7b-2c3d4e5f6a70.jsonl');
    appendFileSync(
      file,
      `${JSON.stringify({ type: 'user', timestamp: '2026-09-20T10:00:00.000Z', message: { content: 'more' } })}\n`,
    );
    const report = await run(home, 'claude-code', source);
    expect(report.events).toBe(0);
    expect(report.skippedFiles.map((skipped) => skipped.reason)).toContainEqual(
      expect.stringContaining('is not as the import left it'),
    );
  });

  it('refuses a damaged ledger rather than import twice, and fails on a missing folder', async () => {
    const { home, source } = setUp('codex');
    await run(home, 'codex', source);
    appendFileSync(join(home.path, 'imports/codex.jsonl'), 'garbage\n{"v":1}\n');
    const result = await importHistory(home, { tool: 'codex', source });
    expect(E.isLeft(result) && result.left.kind).toBe('ledger_damaged');
    const missing = await importHistory(home, { tool: 'codex', source: join(source, 'nope') });
    expect(E.isLeft(missing) && missing.left.kind).toBe('source_missing');
  });

  it('refuses a home that does not exist (no_home, naming mecha init) and creates nothing', async () => {
    const { home, source } = setUp('claude-code');
    const absent = join(home.path, '..', 'absent');
    const refused = await importHistory(openHome(absent), { tool: 'claude-code', source });
    expect(E.isLeft(refused) && refused.left.kind).toBe('no_home');
    expect(E.isLeft(refused) && refused.left.message).toContain('mecha init --home');
    expect(existsSync(absent)).toBe(false);
    const made = await importHistory(openHome(absent, { create: true }), {
      tool: 'claude-code',
      source,
    });
    expect(E.isRight(made)).toBe(true);
    expect(existsSync(join(absent, 'manifest.json'))).toBe(true);
  });

  it('writes in batches without changing what is written', async () => {
    const one = setUp('claude-code');
    const many = setUp('claude-code');
    await importHistory(one.home, { tool: 'claude-code', source: one.source });
    await importHistory(many.home, { tool: 'claude-code', source: many.source, batchEvents: 2 });
    // Each event names its source file, which differs between the two copies.
    const same = (texts: Map<string, string>, source: string) =>
      [...texts].map(([id, text]) => text.replaceAll(id, 'SESSION').replaceAll(source, 'SOURCE'));
    const a = same(await transcripts(one.home), one.source);
    const b = same(await transcripts(many.home), many.source);
    expect(b).toEqual(a);
  });
});
