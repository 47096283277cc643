import type { GoalRef, TranscriptEvent } from '@mecha/appraisal-core';

const interventionWords = {
  steer: 'the owner steered the run',
  deny: 'the owner denied a call',
  stop: 'the owner stopped the run',
} as const;

function goalWords(goal: GoalRef): string {
  return goal.id === undefined ? goal.kind : `${goal.kind}:${goal.id}`;
}

function renderEvent(event: TranscriptEvent): string | undefined {
  switch (event.type) {
    case 'run_start':
      return `--- run started on ${event.surface}${event.resumed === true ? ' (resumed)' : ''}${
        event.goal === undefined ? '' : `, toward ${goalWords(event.goal)}`
      } at ${event.at}`;
    case 'message': {
      const text = event.text ?? '(no text kept)';
      switch (event.role) {
        case 'owner':
          return `owner [${event.message_id}]: ${text}`;
        case 'assistant':
          return `agent: ${text}`;
        case 'system':
          return `system: ${text}`;
        default:
          return `third-party content: ${text}`;
      }
    }
    case 'tool_call':
      return `agent called ${event.tool}${event.target === undefined ? '' : ` on ${event.target}`} [${event.call_id}]`;
    case 'tool_result':
      return `result [${event.call_id}] ${event.status}: ${event.text ?? '(no text kept)'}`;
    case 'intervention':
      return interventionWords[event.kind];
    case 'step_check':
      return `step ${event.step_id} check ${event.passed ? 'passed' : 'failed'}`;
    case 'counter':
      return `counter ${event.name} = ${event.value}`;
    case 'compaction':
      return '(the conversation was compacted here)';
    case 'run_end':
      return `--- run ended: ${event.stop_cause} at ${event.at}`;
    case 'appraiser_verdict':
      return undefined;
  }
}

/**
 * Renders a transcript as the plain text a distiller reads, one line per event. Owner messages
 * and tool results carry their ids in brackets, because those are the only things a text
 * appraisal's claims may cite; the agent's own words and third-party content carry none.
 */
export function renderTranscript(events: readonly TranscriptEvent[]): string {
  const lines: string[] = [];
  for (const event of events) {
    const line = renderEvent(event);
    if (line !== undefined) lines.push(line);
  }
  return lines.join('\n');
}
