import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { leftOrThrow, rightOrThrow } from '@mecha/errors';
import { folderSnapshot } from '@mecha/vitest-config/folder-snapshot';
import * as E from 'fp-ts/lib/Either.js';
import { afterAll, describe, expect, it } from 'vitest';
import { homeEvents, realLogs, removeRealHomes, setUpRealHome } from './__fixtures__/real-home.js';
import { findCodexRollout, importFromCodexNotify } from './import-from-codex-notify.js';
import { importHistory } from './import-history.js';

// A real Codex 0.125.0 rollout (see __fixtures__/real/SOURCES.md), written a turn at a time as
// Codex writes it, with the notify argument Codex passes at each turn's end.
afterAll(removeRealHomes);

const thread = '019e1625-789d-76c0-80ab-3724b5ddb799';
const lines = readFileSync(join(realLogs, 'codex/0.125.0-unified-exec-failure.jsonl'), 'utf8')
  .split('\n')
  .filter((line) => line !== '');

/** Codex's documented `notify` argument for the end of a turn. */
const notify = (threadId = thread, type = 'agent-turn-complete') =>
  JSON.stringify({
    type,
    'thread-id': threadId,
    'turn-id': '019e1625-d031-75e3-a85f-f143e43c0d84',
    cwd: '/Users/Sample_User/repos/codemie-ai/codemie-code',
    'input-messages': ['show tools'],
    'last-assistant-message': 'Available tool groups in this session: …',
  });

function setUp() {
  const { home, source } = setUpRealHome({});
  const day = join(source, '2026/05/11');
  mkdirSync(day, { recursive: true });
  // Another day's rollout, to be passed over.
  mkdirSync(join(source, '2026/05/10'), { recursive: true });
  writeFileSync(join(source, '2026/05/10/rollout-2026-05-10T09-00-00-other.jsonl'), '');
  const rollout = join(day, `rollout-2026-05-11T11-26-55-${thread}.jsonl`);
  return { home, sessions: source, rollout };
}

describe('importFromCodexNotify', () => {
  it('imports each turn’s new lines when Codex notifies, and a later import adds nothing', async () => {
    const { home, sessions, rollout } = setUp();
    expect(findCodexRollout(sessions, thread)).toBeUndefined();
    // The first turn as far as its answer: Codex notifies before task_complete is written.
    writeFileSync(rollout, `${lines.slice(0, 17).join('\n')}\n`);
    expect(findCodexRollout(sessions, thread)).toBe(rollout);
    const first = rightOrThrow(await importFromCodexNotify(home, notify(), { sessions }));
    expect(first.transcript).toBe(rollout);
    expect(first.report.lines.read).toBe(17);
    expect(first.session).toMatch(/^\d{8}T\d{6}-[0-9a-f]{8}$/);
    // The turn is over: the pending answer ends its run now, not at the next line.
    expect(homeEvents(home).filter((event) => event.type === 'run_end')).toMatchObject([
      { stop_cause: 'completed' },
    ]);
    appendFileSync(rollout, `${lines.slice(17).join('\n')}\n`);
    const second = rightOrThrow(await importFromCodexNotify(home, notify(), { sessions }));
    expect(second.report.sessions).toEqual({ created: 0, continued: 1 });
    expect(second.session).toBe(first.session);
    const all = homeEvents(home);
    expect(all.filter((event) => event.type === 'run_end')).toMatchObject([
      { stop_cause: 'completed' },
      { stop_cause: 'completed' },
    ]);
    expect(
      all.filter((event) => event.type === 'tool_result' && event.status === 'error'),
    ).toHaveLength(1);
    // `mecha import codex` reads the same ledger: nothing is new.
    const again = await importHistory(home, { tool: 'codex', source: sessions });
    expect(E.isRight(again) && again.right.events).toBe(0);
  });

  it('writes nothing, and says why, for an argument that is not one or a thread with no rollout', async () => {
    const { home, sessions, rollout } = setUp();
    writeFileSync(rollout, `${lines.join('\n')}\n`);
    const before = folderSnapshot(home.path);
    for (const [argument, kind, said] of [
      ['not json', 'bad_request', 'not JSON'],
      [JSON.stringify({ type: 'agent-turn-complete' }), 'bad_request', 'thread-id'],
      [notify('../../etc'), 'bad_request', 'thread-id'],
      [notify(thread, 'approval-requested'), 'bad_request', 'approval-requested is not'],
      [notify('019e0000-0000-7000-8000-000000000000'), 'not_found', 'no rollout of thread'],
    ] as const) {
      const refused = leftOrThrow(await importFromCodexNotify(home, argument, { sessions }));
      expect(refused.kind).toBe(kind);
      expect(refused.message).toContain(said);
    }
    expect(folderSnapshot(home.path)).toEqual(before);
  });
});
