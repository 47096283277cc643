import { describe, expect, it } from 'vitest';
import { mapClaudeCodeLine } from './map-claude-code.js';
import { newSessionState, SessionBuilder } from './session-builder.js';

const at = (second: number) => `2026-09-20T09:00:${String(second).padStart(2, '0')}.000Z`;
const user = (second: number, content: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'user',
  timestamp: at(second),
  uuid: `u${second}`,
  sessionId: 's',
  cwd: '/work/shop',
  message: { role: 'user', content },
  ...extra,
});
const assistant = (
  second: number,
  id: string,
  content: unknown[],
  stop: string | null = null,
  extra = {},
) => ({
  type: 'assistant',
  timestamp: at(second),
  uuid: `a${second}`,
  message: { id, role: 'assistant', content, stop_reason: stop },
  ...extra,
});
const rejection =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nno";

function map(records: readonly unknown[]) {
  const builder = new SessionBuilder(newSessionState('20260920T090000-00000000', 'claude-code'));
  const outcomes = records.map((record) => mapClaudeCodeLine(record, builder).kind);
  builder.flushEnd();
  const events = builder.drain();
  const brief = events.map((event) => {
    switch (event.type) {
      case 'intervention':
        return `${event.type}:${event.kind}@${event.turn}`;
      case 'run_end':
        return `run_end:${event.stop_cause}`;
      case 'message':
        return `message:${event.role}@${event.turn}`;
      case 'tool_result':
        return `tool_result:${event.status}@${event.turn}`;
      case 'tool_call':
        return `tool_call:${event.tool}@${event.turn}`;
      default:
        return event.type;
    }
  });
  return { outcomes, events, brief, signals: builder.signals };
}

const read = (second: number, id = 'msg_1') =>
  assistant(
    second,
    id,
    [
      {
        type: 'tool_use',
        id: `toolu_${second}`,
        name: 'Read',
        input: { file_path: '/work/shop/a.ts' },
      },
    ],
    'tool_use',
  );

describe('mapClaudeCodeLine', () => {
  it('maps a prompt, a call and its result, and an answer ending the turn, into one completed run', () => {
    const { brief, events } = map([
      user(0, 'Fix a.ts'),
      read(1),
      user(2, [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'code' }]),
      assistant(3, 'msg_2', [{ type: 'text', text: 'Fixed.' }], 'end_turn'),
    ]);
    expect(brief).toEqual([
      'run_start',
      'message:owner@0',
      'tool_call:Read@1',
      'tool_result:ok@1',
      'message:assistant@2',
      'run_end:completed',
    ]);
    expect(events[0]).toMatchObject({
      surface: 'claude-code',
      workspace: '/work/shop',
      session_kind: 'ordinary',
    });
    expect(events[2]).toMatchObject({ target: '/work/shop/a.ts', call_id: 'toolu_1' });
  });

  it('keeps the lines of one API response in one turn', () => {
    const { brief } = map([
      user(0, 'Go'),
      assistant(1, 'msg_1', [{ type: 'thinking', thinking: 'hm' }]),
      assistant(1, 'msg_1', [{ type: 'text', text: 'Reading.' }]),
      read(2, 'msg_1'),
    ]);
    expect(brief).toEqual([
      'run_start',
      'message:owner@0',
      'message:assistant@1',
      'tool_call:Read@1',
    ]);
  });

  it('reads a rejected tool use as a denial, and the interrupt that closes it as the same act', () => {
    const { brief, signals } = map([
      user(0, 'Go'),
      read(1),
      user(2, [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: rejection, is_error: true },
      ]),
      user(3, [{ type: 'text', text: '[Request interrupted by user for tool use]' }]),
    ]);
    expect(brief).toEqual([
      'run_start',
      'message:owner@0',
      'tool_call:Read@1',
      'tool_result:denied@1',
      'intervention:deny@1',
      'run_end:interrupted',
    ]);
    expect(signals).toMatchObject({ denials: 1, steers: 0 });
  });

  it('reads a user interrupt as a steer, and the run ends interrupted', () => {
    const { brief, signals } = map([
      user(0, 'Go'),
      assistant(1, 'msg_1', [{ type: 'text', text: 'Working.' }]),
      user(2, [{ type: 'text', text: '[Request interrupted by user]' }]),
      user(3, 'Do it differently'),
    ]);
    expect(brief).toEqual([
      'run_start',
      'message:owner@0',
      'message:assistant@1',
      'intervention:steer@1',
      'run_end:interrupted',
      'run_start',
      'message:owner@2',
    ]);
    expect(signals.steers).toBe(1);
  });

  it('reads a failed call as an error result, not a denial', () => {
    const { brief } = map([
      user(0, 'Go'),
      read(1),
      user(2, [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'Exit code 1', is_error: true },
      ]),
    ]);
    expect(brief).toContain('tool_result:error@1');
    expect(brief.some((entry) => entry.startsWith('intervention'))).toBe(false);
  });

  it('records a compaction once, and skips the summary that follows it', () => {
    const { brief, outcomes } = map([
      user(0, 'Go'),
      {
        type: 'system',
        subtype: 'compact_boundary',
        timestamp: at(5),
        compactMetadata: { trigger: 'auto' },
      },
      user(6, 'summary of before', { isCompactSummary: true }),
    ]);
    expect(brief).toEqual(['run_start', 'message:owner@0', 'compaction']);
    expect(outcomes).toEqual(['mapped', 'mapped', 'skipped']);
  });

  it('ends a run cut by the output-token limit as a token ceiling stop, and a provider error as error', () => {
    const ceiling = map([
      user(0, 'Go'),
      assistant(1, 'msg_1', [{ type: 'text', text: 'Long' }], 'max_tokens'),
      user(2, 'Next'),
    ]);
    expect(ceiling.brief).toContain('run_end:token_ceiling');
    expect(ceiling.signals.ceilings).toBe(1);
    const failed = map([
      user(0, 'Go'),
      assistant(1, 'msg_1', [{ type: 'text', text: 'API Error: 529' }], null, {
        isApiErrorMessage: true,
      }),
    ]);
    expect(failed.brief).toContain('run_end:error');
  });

  it('leaves a run stopped mid-step without an end (not known) when the next prompt comes', () => {
    const { brief } = map([user(0, 'Go'), read(1), user(5, 'Hello?')]);
    expect(brief).toEqual([
      'run_start',
      'message:owner@0',
      'tool_call:Read@1',
      'run_start',
      'message:owner@2',
    ]);
  });

  it('skips subagent lines, meta lines, slash commands and bookkeeping records', () => {
    const { outcomes, brief } = map([
      { type: 'summary', summary: 'x', leafUuid: 'u' },
      { type: 'file-history-snapshot', messageId: 'u', snapshot: {} },
      { type: 'queue-operation', operation: 'enqueue', timestamp: at(0) },
      user(1, 'caveat', { isMeta: true }),
      user(2, '<command-name>/cost</command-name>'),
      assistant(3, 'msg_9', [{ type: 'text', text: 'sub' }], null, { isSidechain: true }),
    ]);
    expect(outcomes).toEqual(['skipped', 'skipped', 'skipped', 'skipped', 'skipped', 'skipped']);
    expect(brief).toEqual([]);
  });

  it('reports a line whose fields are not what the format says as damaged', () => {
    const { outcomes } = map([
      [1, 2],
      { no: 'type' },
      { type: 'user', timestamp: 'yesterday', message: { content: 'x' } },
      { type: 'assistant', timestamp: at(1), message: {} },
      user(2, [{ type: 'tool_result', content: 'no id' }]),
    ]);
    expect(outcomes).toEqual(['damaged', 'damaged', 'damaged', 'damaged', 'damaged']);
  });
});
