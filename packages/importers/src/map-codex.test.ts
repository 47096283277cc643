import { describe, expect, it } from 'vitest';
import { mapCodexLine } from './map-codex.js';
import { SessionBuilder } from './session-builder.js';
import { newSessionState } from './session-state.js';

let second = 0;
const line = (type: string, payload: Record<string, unknown>) => {
  second += 1;
  return {
    timestamp: `2026-09-20T10:00:${String(second % 60).padStart(2, '0')}.000Z`,
    type,
    payload,
  };
};
const meta = (source: string) => line('session_meta', { id: 'x', cwd: '/work/site', source });
const prompt = (text: string) => line('event_msg', { type: 'user_message', message: text });
const call = (id: string, name = 'shell') =>
  line('response_item', {
    type: 'function_call',
    name,
    arguments: '{"command":["ls"],"path":"src"}',
    call_id: id,
  });
const output = (id: string, value: unknown) =>
  line('response_item', { type: 'function_call_output', call_id: id, output: value });
const say = (text: string) =>
  line('response_item', {
    type: 'message',
    role: 'assistant',
    content: [{ type: 'output_text', text }],
  });

function map(records: readonly unknown[]) {
  const builder = new SessionBuilder(newSessionState('20260920T100000-00000000', 'codex'));
  const outcomes = records.map((record) => mapCodexLine(record, builder).kind);
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

describe('mapCodexLine', () => {
  it('maps a turn: the prompt, calls and outputs, the answer, and task_complete', () => {
    const { brief, events } = map([
      meta('cli'),
      line('response_item', {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: '<environment_context/>' }],
      }),
      prompt('Fix it'),
      line('event_msg', { type: 'task_started' }),
      line('response_item', { type: 'reasoning', summary: [] }),
      call('call_1'),
      output('call_1', JSON.stringify({ output: 'ok', metadata: { exit_code: 0 } })),
      call('call_2'),
      output('call_2', JSON.stringify({ output: 'boom', metadata: { exit_code: 2 } })),
      say('Done.'),
      line('event_msg', { type: 'agent_message', message: 'Done.' }),
      line('event_msg', { type: 'task_complete', last_agent_message: 'Done.' }),
    ]);
    expect(brief).toEqual([
      'run_start',
      'message:owner@0',
      'tool_call:shell@1',
      'tool_result:ok@1',
      'tool_call:shell@2',
      'tool_result:error@2',
      'message:assistant@3',
      'run_end:completed',
    ]);
    expect(events[0]).toMatchObject({
      surface: 'codex',
      workspace: '/work/site',
      person_present: true,
    });
    expect(events[2]).toMatchObject({ target: 'src', call_id: 'call_1' });
  });

  it('reads a declined approval as a denial, and the abort that follows as the same act', () => {
    const { brief, signals } = map([
      prompt('Go'),
      line('response_item', {
        type: 'custom_tool_call',
        call_id: 'call_p',
        name: 'apply_patch',
        input: '*** Begin Patch',
      }),
      line('response_item', {
        type: 'custom_tool_call_output',
        call_id: 'call_p',
        output: 'patch rejected by user',
      }),
      line('event_msg', { type: 'turn_aborted', reason: 'interrupted' }),
    ]);
    expect(brief).toEqual([
      'run_start',
      'message:owner@0',
      'tool_call:apply_patch@1',
      'tool_result:denied@1',
      'intervention:deny@1',
      'run_end:interrupted',
    ]);
    expect(signals).toMatchObject({ denials: 1, steers: 0 });
    expect(
      map([prompt('Go'), call('c'), output('c', 'exec command rejected by user')]).brief,
    ).toContain('intervention:deny@1');
  });

  it('reads an interrupt as a steer; a turn replaced or ended otherwise is no steer', () => {
    const steer = map([
      prompt('Go'),
      say('Working'),
      line('event_msg', { type: 'turn_aborted', reason: 'interrupted' }),
    ]);
    expect(steer.brief).toEqual([
      'run_start',
      'message:owner@0',
      'message:assistant@1',
      'intervention:steer@1',
      'run_end:interrupted',
    ]);
    const replaced = map([
      prompt('Go'),
      line('event_msg', { type: 'turn_aborted', reason: 'replaced' }),
    ]);
    expect(replaced.brief).toEqual(['run_start', 'message:owner@0', 'run_end:interrupted']);
  });

  it('reads a local_shell_call as a call, and turn_complete as the run’s end', () => {
    const { brief } = map([
      prompt('Go'),
      line('response_item', {
        type: 'local_shell_call',
        call_id: 'ls1',
        status: 'completed',
        action: { type: 'exec', command: ['ls'] },
      }),
      output('ls1', 'Exit code: 0\nOutput:\nsrc'),
      say('Listed.'),
      line('event_msg', { type: 'turn_complete' }),
    ]);
    expect(brief).toEqual([
      'run_start',
      'message:owner@0',
      'tool_call:local_shell@1',
      'tool_result:ok@1',
      'message:assistant@2',
      'run_end:completed',
    ]);
  });

  it('records a compaction once though Codex writes it twice', () => {
    const { brief, signals } = map([
      prompt('Go'),
      line('compacted', { message: 'summary' }),
      line('event_msg', { type: 'context_compacted' }),
    ]);
    expect(brief).toEqual(['run_start', 'message:owner@0', 'compaction']);
    expect(signals.compactions).toBe(1);
  });

  it('marks a headless exec session as having no person present', () => {
    const { events } = map([meta('exec'), prompt('Go')]);
    expect(events[0]).toMatchObject({ person_present: false });
    expect(map([meta('mcp'), prompt('Go')]).events[0]).not.toHaveProperty('person_present');
  });

  it('reports a line that is not a rollout line as damaged', () => {
    const { outcomes } = map([
      'text',
      { timestamp: 'soon', type: 'event_msg', payload: {} },
      { timestamp: '2026-09-20T10:00:00Z', type: 'event_msg' },
      line('event_msg', { type: 'user_message' }),
      line('response_item', { type: 'function_call', name: 'shell' }),
    ]);
    expect(outcomes).toEqual(['damaged', 'damaged', 'damaged', 'damaged', 'damaged']);
  });

  it('reads a non-zero exit code as a failed result: exec_command_end, and plain-text output', () => {
    const { brief } = map([
      prompt('Build'),
      call('c1'),
      line('event_msg', { type: 'exec_command_end', call_id: 'c1', exit_code: 1 }),
      output('c1', 'compiled with errors'),
      call('c2'),
      line('event_msg', { type: 'exec_command_end', call_id: 'c2', exit_code: 0 }),
      output('c2', 'fine'),
      call('c3'),
      output('c3', 'Exit code: 127\nWall time: 0.1 seconds\nOutput:\nnpx: not found'),
      call('c4'),
      line('event_msg', { type: 'patch_apply_end', call_id: 'c4', success: false }),
      output('c4', 'Done'),
      call('c5'),
      output('c5', 'Chunk ID: 1\nWall time: 0 seconds\nProcess exited with code 3\nOutput:\n'),
    ]);
    expect(brief.filter((entry) => entry.startsWith('tool_result'))).toEqual([
      'tool_result:error@1',
      'tool_result:ok@2',
      'tool_result:error@3',
      'tool_result:error@4',
      'tool_result:error@5',
    ]);
  });
});
