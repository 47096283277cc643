import type { TranscriptEvent } from '@mecha/appraisal-core';

const base = (at: string) => ({ v: 1 as const, at, run_id: 'run-1' });

/** Transcript event builders for tests, each valid under the core's schema. */
export const events = {
  start: (
    at = '2026-09-25T09:00:00Z',
    extra: Partial<Extract<TranscriptEvent, { type: 'run_start' }>> = {},
  ) =>
    ({
      ...base(at),
      type: 'run_start',
      session_id: 's-1',
      surface: 'cli',
      session_kind: 'ordinary',
      ...extra,
    }) satisfies TranscriptEvent,
  owner: (id: string, text: string, at = '2026-09-25T09:00:01Z') =>
    ({
      ...base(at),
      type: 'message',
      turn: 0,
      message_id: id,
      role: 'owner',
      taint: 'clean',
      text,
    }) satisfies TranscriptEvent,
  agent: (
    id: string,
    text: string,
    taint: 'clean' | 'third_party' | 'unknown' = 'clean',
    at = '2026-09-25T09:00:02Z',
  ) =>
    ({
      ...base(at),
      type: 'message',
      turn: 0,
      message_id: id,
      role: 'assistant',
      taint,
      text,
    }) satisfies TranscriptEvent,
  stranger: (id: string, text: string, at = '2026-09-25T09:00:03Z') =>
    ({
      ...base(at),
      type: 'message',
      turn: 1,
      message_id: id,
      role: 'third_party',
      taint: 'third_party',
      text,
    }) satisfies TranscriptEvent,
  call: (id: string, tool: string, at = '2026-09-25T09:00:04Z') =>
    ({ ...base(at), type: 'tool_call', turn: 0, call_id: id, tool }) satisfies TranscriptEvent,
  result: (
    id: string,
    text: string | undefined,
    taint: 'clean' | 'third_party' | 'unknown' = 'clean',
    at = '2026-09-25T09:00:05Z',
  ) =>
    ({
      ...base(at),
      type: 'tool_result',
      turn: 0,
      call_id: id,
      status: 'ok',
      taint,
      ...(text === undefined ? {} : { text }),
    }) satisfies TranscriptEvent,
  end: (
    at = '2026-09-25T09:10:00Z',
    stop: Extract<TranscriptEvent, { type: 'run_end' }>['stop_cause'] = 'completed',
  ) => ({ ...base(at), type: 'run_end', stop_cause: stop }) satisfies TranscriptEvent,
};

/** A finished, clean, ordinary conversation long enough to distill. */
export function conversation(): TranscriptEvent[] {
  return [
    events.start(),
    events.owner(
      'msg-1',
      'Please draft the grant reply to Priya Nair; she moved to Yale last month.',
    ),
    events.call('call-1', 'mail_read'),
    events.result(
      'call-1',
      'From: Priya Nair <priya@yale.edu>\nSubject: grant deadline is the 9th',
    ),
    events.agent(
      'msg-2',
      'I drafted the reply to Priya Nair at Yale and noted the deadline on the 9th.',
    ),
    events.end(),
  ];
}
