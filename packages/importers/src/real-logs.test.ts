import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  homeEvents as events,
  ownerTexts,
  realLogs as real,
  removeRealHomes,
  importOnce as run,
  setUpRealHome as setUp,
} from './__fixtures__/real-home.js';

// Real logs written by Claude Code 2.1.38 and 2.1.39 and Codex 0.77 (see
// __fixtures__/real/SOURCES.md), and two written Codex logs where no licensed real one was found.
afterAll(removeRealHomes);

describe('importing real Claude Code and Codex logs', () => {
  it('keys a session on the log’s own id: the same log at a second path is reported, not doubled', async () => {
    for (const [tool, fixture, id] of [
      ['claude-code', 'claude-code/2.1.38-short.jsonl', '55604662-cf2a-4331-851a-ec234028f8ca'],
      ['codex', 'codex/0.77.0-session-start.jsonl', '019b64e5-57fa-7463-b644-fba7e456f905'],
    ] as const) {
      const name = tool === 'codex' ? 'rollout-2025-12-28T12-18-30-x.jsonl' : 'log.jsonl';
      const { home, source } = setUp({
        [`a/${name}`]: fixture,
        [`backup/${name}`]: fixture,
      });
      const report = await run(home, tool, source);
      expect(report.sessions.created).toBe(1);
      // The copy's lines are not counted either: the report counts one log's lines.
      const lines = readFileSync(join(real, fixture), 'utf8').split('\n').length - 1;
      expect(report.lines).toMatchObject({ read: lines, damaged: 0 });
      expect(report.lines.mapped + report.lines.ignored).toBe(lines);
      expect(report.skippedFiles).toEqual([
        {
          file: join(source, `backup/${name}`),
          reason: expect.stringContaining(`the same log (session ${id}) was imported from`),
        },
      ]);
      // A later pass from yet another path (a moved folder) is the same session too.
      const moved = setUp({ [`moved/${name}`]: fixture });
      cpSync(join(moved.source, 'moved'), join(source, 'moved'), { recursive: true });
      const again = await run(home, tool, source);
      expect(again.sessions.created).toBe(0);
      expect(again.events).toBe(0);
    }
  });

  it('does not take notices the harness injects for the person, and ends the turns they follow', async () => {
    const { home, source } = setUp({ 'p/log.jsonl': 'claude-code/2.1.39-notifications.jsonl' });
    await run(home, 'claude-code', source);
    const all = events(home);
    // Two <task-notification> lines are in the log; neither is the owner's.
    expect(ownerTexts(all)).toEqual(['Implement spotter-gqc', 'did you push?']);
    // stop_hook_summary / turn_duration and an answer after the last result end the runs
    // (Claude Code 2.1.39 writes stop_reason null on every line).
    const ends = all.flatMap((event) => (event.type === 'run_end' ? [event.stop_cause] : []));
    expect(ends).toEqual(['interrupted', 'completed', 'completed', 'completed']);
  });

  it('keeps a slash command as the owner’s request, and leaves out its caveat and echo', async () => {
    const { home, source } = setUp({
      'p/a.jsonl': 'claude-code/2.1.38-subagent-command.jsonl',
      'p/b.jsonl': 'claude-code/2.1.38-tool-heavy.jsonl',
    });
    await run(home, 'claude-code', source);
    const owner = ownerTexts(events(home));
    expect(owner).toContain('/mcp');
    expect(owner.some((text) => text.startsWith('/handgemacht:create-beads websearch'))).toBe(true);
    expect(owner.some((text) => /<local-command|<command-|Caveat:/.test(text))).toBe(false);
  });

  it('reads an Esc under bypassPermissions as one steer, however many parallel calls it cancels', async () => {
    const { home, source } = setUp({ 'p/short.jsonl': 'claude-code/2.1.38-short.jsonl' });
    const report = await run(home, 'claude-code', source);
    expect(report.signals).toMatchObject({ steers: 1, denials: 0 });
    const all = events(home);
    const acts = all.filter((event) => event.type === 'intervention');
    // The summary and the transcript the readout reads agree.
    expect(acts.map((event) => (event.type === 'intervention' ? event.kind : ''))).toEqual([
      'steer',
    ]);
    expect(all.at(-1)).toMatchObject({ type: 'run_end', stop_cause: 'interrupted' });
  });

  it('reads a failed Codex command as a failed result: plain-text exit codes and exec_command_end', async () => {
    const { home, source } = setUp({
      '2026/01/05/rollout-2026-01-05T09-00-00-a.jsonl':
        'codex/written-0.77.0-shell-command-exit-code.jsonl',
      '2026/10/02/rollout-2026-10-02T14-00-00-b.jsonl':
        'codex/written-0.130.0-exec-command-end.jsonl',
    });
    await run(home, 'codex', source);
    const results = events(home).flatMap((event) =>
      event.type === 'tool_result' ? [event.status] : [],
    );
    expect(results.sort()).toEqual(['error', 'error', 'ok', 'ok']);
  });

  it('says, file by file, why a file was not imported', async () => {
    const { home, source } = setUp({
      'p/good.jsonl': 'claude-code/2.1.38-short.jsonl',
      'p/agent-a1.jsonl': 'claude-code/2.1.38-short.jsonl',
      'p/x/subagents/agent-a2.jsonl': 'claude-code/2.1.38-short.jsonl',
      'p/rollout.jsonl': 'codex/0.77.0-session-start.jsonl',
    });
    writeFileSync(join(source, 'p/pretty.jsonl'), '{\n  "type": "user"\n}\n');
    symlinkSync(join(source, 'p/x'), join(source, 'linked-folder'));
    symlinkSync(join(source, 'p/good.jsonl'), join(source, 'p/z-linked.jsonl'));
    const report = await run(home, 'claude-code', source);
    const reasons = Object.fromEntries(
      report.skippedFiles.map((skipped) => [skipped.file.slice(source.length + 1), skipped.reason]),
    );
    expect(reasons).toEqual({
      'p/agent-a1.jsonl': expect.stringContaining("a subagent's log"),
      'p/x/subagents/agent-a2.jsonl': expect.stringContaining("a subagent's log"),
      'linked-folder': expect.stringContaining('a symbolic link to a folder'),
      'p/rollout.jsonl': expect.stringContaining('not a Claude Code log: a Codex rollout'),
      'p/pretty.jsonl': expect.stringContaining('not JSON Lines'),
      // A link to a log is followed, and the log it points to is the same session.
      'p/z-linked.jsonl': expect.stringContaining('the same log (session 55604662'),
    });
    // A file refused whole is one line of the report, not one damaged line per line.
    expect(report.damaged).toEqual([]);
    expect(report.sessions.created).toBe(1);

    const codex = await run(home, 'codex', source);
    expect(codex.files.seen).toBe(0);
    expect(codex.skippedFiles.map((skipped) => skipped.reason)).toContainEqual(
      expect.stringContaining('not a Codex rollout'),
    );
    writeFileSync(
      join(source, 'p/rollout-old.jsonl'),
      `${JSON.stringify({ id: 'x', timestamp: '2025-04-01T00:00:00Z', instructions: null })}\n`,
    );
    cpSync(join(real, 'claude-code/2.1.38-short.jsonl'), join(source, 'p/rollout-claude.jsonl'));
    const mixed = await run(home, 'codex', source);
    expect(mixed.skippedFiles.map((skipped) => skipped.reason)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('an old Codex rollout format'),
        expect.stringContaining('not a Codex rollout: a Claude Code log'),
      ]),
    );
    expect(mixed.files.read).toBe(0);
  });

  it('reads Claude Code 2.1.226 (a remote session): the prompt is the owner’s, a failed call fails, nothing ends early', async () => {
    const { home, source } = setUp({
      'p/a42b9c92.jsonl': 'claude-code/2.1.226-remote-skill-error.jsonl',
    });
    const report = await run(home, 'claude-code', source);
    expect(report.damaged).toEqual([]);
    const all = events(home);
    // queue-operation lines are not the person's words; the prompt line (origin human) is.
    expect(ownerTexts(all)).toEqual(['What do you recall of BookMinder?']);
    expect(all.flatMap((event) => (event.type === 'tool_result' ? [event.status] : []))).toEqual([
      'error',
    ]);
    expect(all.filter((event) => event.type === 'tool_call')).toHaveLength(1);
    // The excerpt stops after the failed call's result: the turn goes on, so no end is invented.
    expect(all.some((event) => event.type === 'run_end')).toBe(false);
    expect(report.signals).toMatchObject({ steers: 0, denials: 0 });
  });

  it('keeps where each event came from: the file, the line, and the source’s own id', async () => {
    const { home, source } = setUp({ 'p/short.jsonl': 'claude-code/2.1.38-short.jsonl' });
    await run(home, 'claude-code', source);
    const file = join(source, 'p/short.jsonl');
    const all = events(home);
    expect(all.every((event) => event.source?.file === file)).toBe(true);
    const lines = readFileSync(file, 'utf8').split('\n');
    // The steer points at the first cancelled call's result, line 11 of the log.
    const steer = all.find((event) => event.type === 'intervention');
    expect(steer?.source).toMatchObject({ file, line: 11 });
    expect(lines[10]).toContain(String(steer?.source?.id));
    // Each event's line holds the id it names (a line's uuid, or a tool_use id).
    for (const event of all) {
      const { line, id } = event.source ?? { line: 0 };
      if (id !== undefined) expect(lines[line - 1]).toContain(id);
    }
    const end = all.at(-1);
    expect(end).toMatchObject({ type: 'run_end', source: { line: 13 } });
  });
});
