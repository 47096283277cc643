import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appraiseRun, type TranscriptEvent } from '@mecha/appraisal-core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  homeEvents,
  importOnce,
  ownerTexts,
  removeRealHomes,
  setUpRealHome,
} from './__fixtures__/real-home.js';

// One test per format version the real fixtures hold beyond those real-logs.test.ts reads:
// Claude Code 1.0.98 and 2.0.64, Codex 0.125.0 (sources and licences in
// __fixtures__/real/SOURCES.md). Each checks what the appraisal will read: how each run ended,
// which results failed, the owner's acts and words.
afterAll(removeRealHomes);

const runEnds = (all: readonly TranscriptEvent[]) =>
  all.flatMap((event) => (event.type === 'run_end' ? [event.stop_cause] : []));
const resultStatuses = (all: readonly TranscriptEvent[]) =>
  all.flatMap((event) => (event.type === 'tool_result' ? [event.status] : []));

/** Each run's events, in order of their first event. */
function runsOf(all: readonly TranscriptEvent[]): TranscriptEvent[][] {
  const runs = new Map<string, TranscriptEvent[]>();
  for (const event of all) {
    const list = runs.get(event.run_id) ?? [];
    list.push(event);
    runs.set(event.run_id, list);
  }
  return [...runs.values()];
}

describe('real logs across format versions', () => {
  it('Claude Code 1.0.98: the Stop hook’s system line ends the turn, so the run reads completed', async () => {
    const { home, source } = setUpRealHome({
      'p/958555ae-c806-4d80-a008-e5f6e17322b9.jsonl': 'claude-code/1.0.98-stop-hook.jsonl',
    });
    const report = await importOnce(home, 'claude-code', source);
    expect(report.damaged).toEqual([]);
    const all = homeEvents(home);
    expect(ownerTexts(all)).toEqual(['hello']);
    // 1.0.98 writes stop_reason null on the answer and marks no turn end but the hook's line.
    expect(runEnds(all)).toEqual(['completed']);
    // The run ended with the answer (line 2); the hook's line (3) says no more is coming.
    const end = all.find((event) => event.type === 'run_end');
    expect(end?.source).toMatchObject({ line: 2, id: '8eef27a8-5e2a-4a16-b531-735d46da1e88' });
    for (const run of runsOf(all)) expect(appraiseRun(run).errors).toEqual([]);
  });

  it('Claude Code 2.0.64: three turns end completed, and its two agent-* logs are reported, not mapped', async () => {
    const { home, source } = setUpRealHome({
      '-tmp-private/4c2ddfdc-b619-4525-8d03-1950fb1b0257.jsonl':
        'claude-code/2.0.64-three-turns.jsonl',
      '-tmp-private/agent-36541525.jsonl': 'claude-code/2.0.64-subagents/agent-36541525.jsonl',
      '-tmp-private/agent-50243ee8.jsonl': 'claude-code/2.0.64-subagents/agent-50243ee8.jsonl',
    });
    const report = await importOnce(home, 'claude-code', source);
    expect(report.sessions.created).toBe(1);
    expect(report.skippedFiles.map((file) => file.file.slice(source.length + 1))).toEqual([
      '-tmp-private/agent-36541525.jsonl',
      '-tmp-private/agent-50243ee8.jsonl',
    ]);
    expect(report.skippedFiles.every((file) => file.reason.includes("a subagent's log"))).toBe(
      true,
    );
    const all = homeEvents(home);
    // The subagents' briefs (their first user lines) are not the person's words.
    expect(ownerTexts(all)).toEqual([
      'create hello.py, md and js',
      'update py with one liner comment',
      'delete js',
    ]);
    // Answers after the last result end the turns (stop_reason null on two of them).
    expect(runEnds(all)).toEqual(['completed', 'completed', 'completed']);
    expect(resultStatuses(all)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok']);
    expect(report.signals).toMatchObject({ steers: 0, denials: 0, errors: 0 });
    for (const run of runsOf(all)) expect(appraiseRun(run).errors).toEqual([]);
  });

  it('Codex 0.125.0: unified exec — a command that exits 1 reads as one failed result, and task_complete ends each turn', async () => {
    const { home, source } = setUpRealHome({
      '2026/05/11/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl':
        'codex/0.125.0-unified-exec-failure.jsonl',
    });
    const report = await importOnce(home, 'codex', source);
    expect(report.damaged).toEqual([]);
    const all = homeEvents(home);
    // The developer and AGENTS.md user items Codex injects are not the person's words.
    expect(ownerTexts(all)).toEqual([
      'show tools',
      "let's update the defailt context compart to 90 in env var",
    ]);
    expect(runEnds(all)).toEqual(['completed', 'completed']);
    // `npm test` exits 1: its exec_command_end comes after the call's own output ("Process
    // running"); the poll that sees it exit says "Process exited with code 1". One failure.
    expect(resultStatuses(all).filter((status) => status === 'error')).toHaveLength(1);
    const failed = all.find((event) => event.type === 'tool_result' && event.status === 'error');
    const file = join(
      source,
      '2026/05/11/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl',
    );
    expect(failed?.source).toMatchObject({ file, id: 'call_PAoFGDC6cPakVp8JImcOm2uB' });
    const line = readFileSync(file, 'utf8').split('\n')[(failed?.source?.line ?? 0) - 1];
    expect(line).toContain('Process exited with code 1');
    expect(report.signals).toMatchObject({ steers: 0, denials: 0, errors: 0 });
  });
});
