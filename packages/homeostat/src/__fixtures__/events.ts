import type { ConditionsSnapshot, TranscriptEvent } from '@mecha/appraisal-core';

// Builders for transcript events as a recorder writes them; tests only.

const at = '2026-09-25T09:00:00Z';

export function runStart(
  options: { runId?: string; tools?: string[]; conditions?: ConditionsSnapshot } = {},
): TranscriptEvent {
  return {
    v: 1,
    at,
    run_id: options.runId ?? 'run-1',
    type: 'run_start',
    session_id: 's-1',
    surface: 'task',
    session_kind: 'ordinary',
    ...(options.tools === undefined ? {} : { tools: options.tools }),
    ...(options.conditions === undefined ? {} : { conditions: options.conditions }),
  };
}

export function runEnd(
  options: { runId?: string; conditions?: ConditionsSnapshot } = {},
): TranscriptEvent {
  return {
    v: 1,
    at,
    run_id: options.runId ?? 'run-1',
    type: 'run_end',
    stop_cause: 'completed',
    ...(options.conditions === undefined ? {} : { conditions: options.conditions }),
  };
}

/** One tool call and its result, as two events. */
export function callAndResult(call: {
  id: string;
  tool: string;
  target?: string;
  args?: string;
  digest?: string;
  status?: 'ok' | 'error' | 'denied';
  turn?: number;
}): TranscriptEvent[] {
  const turn = call.turn ?? 0;
  return [
    {
      v: 1,
      at,
      run_id: 'run-1',
      type: 'tool_call',
      turn,
      call_id: call.id,
      tool: call.tool,
      ...(call.target === undefined ? {} : { target: call.target }),
      ...(call.args === undefined ? {} : { args_digest: call.args }),
    },
    {
      v: 1,
      at,
      run_id: 'run-1',
      type: 'tool_result',
      turn,
      call_id: call.id,
      status: call.status ?? 'ok',
      taint: 'clean',
      ...(call.digest === undefined ? {} : { result_digest: call.digest }),
    },
  ];
}
