import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapClaudeCodeLine, stopHookRan } from './map-claude-code.js';
import { SessionBuilder } from './session-builder.js';
import { newSessionState } from './session-state.js';

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

  it('skips subagent lines, meta lines, injected notices and bookkeeping records', () => {
    const { outcomes, brief } = map([
      { type: 'summary', summary: 'x', leafUuid: 'u' },
      { type: 'file-history-snapshot', messageId: 'u', snapshot: {} },
      { type: 'queue-operation', operation: 'enqueue', timestamp: at(0) },
      user(1, 'caveat', { isMeta: true }),
      user(2, '<local-command-caveat>Caveat: …</local-command-caveat>'),
      user(3, '<task-notification>\n<task-id>b1</task-id>\n</task-notification>'),
      user(4, '<system-reminder>The date changed.</system-reminder>'),
      user(5, 'Stop hook feedback:\n- [check.sh]: tests fail'),
      user(6, [{ type: 'text', text: '<user-prompt-submit-hook>ok</user-prompt-submit-hook>' }]),
      assistant(7, 'msg_9', [{ type: 'text', text: 'sub' }], null, { isSidechain: true }),
      user(8, 'shown only', { isVisibleInTranscriptOnly: true }),
    ]);
    expect(outcomes).toEqual(Array.from({ length: 11 }, () => 'skipped'));
    expect(brief).toEqual([]);
  });

  it('keeps a slash command as the owner’s request, and strips reminders from a prompt', () => {
    const { events } = map([
      user(0, '<command-name>/review</command-name>\n<command-args>the cart</command-args>'),
      assistant(1, 'msg_1', [{ type: 'text', text: 'Reviewed.' }], 'end_turn'),
      user(2, 'keep this<system-reminder>drop me</system-reminder> part'),
      user(3, '<command-name>/cost</command-name>'),
      user(4, '<local-command-stdout>Total cost: $0.12</local-command-stdout>'),
    ]);
    const owner = events.filter((event) => event.type === 'message' && event.role === 'owner');
    expect(owner.map((event) => (event.type === 'message' ? event.text : ''))).toEqual([
      '/review the cart',
      'keep this part',
      '/cost',
    ]);
    // The local command's output ends the run it opened: nothing of the agent's is in it. (The
    // run of the prompt the agent never answered is closed without an end: not known.)
    expect(events.filter((event) => event.type === 'run_end').map((event) => event.at)).toEqual([
      at(1),
      at(4),
    ]);
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

  it('ends a run on an answer with no tool call, unless a call of the same response follows', () => {
    // Claude Code up to 2.1.39 writes stop_reason null on every line.
    const { brief } = map([
      user(0, 'Fix a.ts'),
      assistant(1, 'msg_1', [{ type: 'text', text: 'Reading it.' }]),
      assistant(2, 'msg_1', [
        { type: 'tool_use', id: 'toolu_2', name: 'Read', input: { file_path: 'a.ts' } },
      ]),
      user(3, [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'code' }]),
      assistant(4, 'msg_2', [{ type: 'text', text: 'Fixed.' }]),
      { type: 'system', subtype: 'turn_duration', timestamp: at(5), durationMs: 5000 },
      user(6, 'Thanks'),
      assistant(7, 'msg_3', [{ type: 'text', text: 'Welcome.' }]),
      { type: 'result', subtype: 'success', timestamp: at(8), is_error: false },
    ]);
    expect(brief.filter((entry) => entry.startsWith('run_'))).toEqual([
      'run_start',
      'run_end:completed',
      'run_start',
      'run_end:completed',
    ]);
  });

  it('leaves an answer at the end of a pass pending: a later pass may add a call of the same response', () => {
    const builder = new SessionBuilder(newSessionState('20260920T090000-00000000', 'claude-code'));
    mapClaudeCodeLine(user(0, 'Go'), builder);
    mapClaudeCodeLine(assistant(1, 'msg_1', [{ type: 'text', text: 'On it.' }]), builder);
    builder.flushEnd(false);
    expect(builder.drain().map((event) => event.type)).toEqual(['run_start', 'message', 'message']);
    expect(builder.state.pendingEnd).toMatchObject({ tentative: true });
    builder.flushEnd(true);
    expect(builder.drain().map((event) => event.type)).toEqual(['run_end']);
  });

  it('reads an interrupt right after an answer as cutting that answer, not a finished turn', () => {
    const { brief } = map([
      user(0, 'Explain'),
      assistant(1, 'msg_1', [{ type: 'text', text: 'Well, first' }]),
      user(2, [{ type: 'text', text: '[Request interrupted by user]' }]),
    ]);
    expect(brief.slice(-2)).toEqual(['intervention:steer@1', 'run_end:interrupted']);
  });

  it('counts several calls the person rejected at one prompt as one denial', () => {
    const { signals, brief } = map([
      user(0, 'Clean up', { permissionMode: 'default' }),
      assistant(1, 'msg_1', [
        { type: 'tool_use', id: 'toolu_a', name: 'Bash', input: {} },
        { type: 'tool_use', id: 'toolu_b', name: 'Bash', input: {} },
      ]),
      user(2, [
        { type: 'tool_result', tool_use_id: 'toolu_a', content: rejection, is_error: true },
      ]),
      user(3, [
        { type: 'tool_result', tool_use_id: 'toolu_b', content: rejection, is_error: true },
      ]),
      user(4, [{ type: 'text', text: '[Request interrupted by user for tool use]' }]),
    ]);
    expect(signals).toMatchObject({ denials: 1, steers: 0 });
    expect(brief.filter((entry) => entry.startsWith('intervention'))).toEqual([
      'intervention:deny@1',
    ]);
  });
});

describe('a `!` shell line', () => {
  it('is the owner’s request, `!command`, and its output echo ends the run it opened', () => {
    const { events, brief } = map([
      user(0, '<bash-input>git status</bash-input>'),
      user(1, '<bash-stdout>nothing to commit</bash-stdout><bash-stderr></bash-stderr>'),
    ]);
    expect(brief).toEqual(['run_start', 'message:owner@0', 'run_end:completed']);
    expect(events[1]).toMatchObject({ role: 'owner', text: '!git status' });
  });
});

describe('stopHookRan (Claude Code 1.0.x hook lines)', () => {
  const esc = String.fromCharCode(27);
  const command = fc.string({ maxLength: 40 }).filter((text) => !/[\n\]]/.test(text));
  const bold = (name: string, on: boolean) => (on ? `${esc}[1m${name}${esc}[22m` : name);

  it('reads a Stop hook that ran to the end, coloured or not, as the turn’s end', () => {
    fc.assert(
      fc.property(command, fc.boolean(), fc.boolean(), (cmd, coloured, failed) => {
        const outcome = failed
          ? 'failed with non-blocking status code 1: oops'
          : 'completed successfully';
        expect(stopHookRan(`${bold('Stop', coloured)} [${cmd}] ${outcome}`)).toBe(true);
      }),
    );
  });

  it('does not read another hook, a blocking failure, or anything else as one', () => {
    fc.assert(
      fc.property(
        command,
        fc.boolean(),
        fc.constantFrom('SubagentStop', 'PreToolUse:Bash', 'PostToolUse:Edit', 'UserPromptSubmit'),
        (cmd, coloured, hook) => {
          expect(stopHookRan(`${bold(hook, coloured)} [${cmd}] completed successfully`)).toBe(
            false,
          );
          expect(stopHookRan(`${bold('Stop', coloured)} [${cmd}] blocking error: no`)).toBe(false);
        },
      ),
    );
    expect(stopHookRan(undefined)).toBe(false);
    expect(stopHookRan({ text: 'Stop [x] completed successfully' })).toBe(false);
  });
});
