import type { CharterLine, CharterSensor } from '@mecha/charter';
import type { Cite, GoalError } from '../schemas/goal-error.js';

/** The store a cite points into, as an age sensor names it; other cites watch no store. */
function sensorFor(cite: Cite): CharterSensor | undefined {
  switch (cite.kind) {
    case 'draft':
    case 'outcome':
      return 'outbox_age';
    case 'question':
      return 'question_latency';
    case 'request':
      return 'request_closure';
    default:
      return undefined;
  }
}

/** One error after attribution, with how it came to name a charter line, if it does. */
export interface AttributedError {
  readonly error: GoalError;
  /** `named`: the record itself named an existing line; `sensor`: a line's sensor watches its store. */
  readonly attribution: 'named' | 'sensor' | 'none';
}

/**
 * Attributes errors to the charter, free and deterministic: an error that already names an
 * existing charter line keeps it; one that names none and points into a store a line's age
 * sensor watches (a draft or its owner outcome, a question, a request) is attributed to the
 * highest-ranked such line. Nothing else is attributed, and the sign is never touched.
 */
export function attributeToCharter(
  errors: readonly GoalError[],
  lines: readonly CharterLine[],
): AttributedError[] {
  const ids = new Set(lines.map((line) => line.id));
  const watcher = new Map<CharterSensor, string>();
  for (const line of lines) {
    if (line.sensor !== undefined && !watcher.has(line.sensor)) watcher.set(line.sensor, line.id);
  }
  return errors.map((error) => {
    if (error.goal?.kind === 'charter' && error.goal.id !== undefined && ids.has(error.goal.id)) {
      return { error, attribution: 'named' };
    }
    const sensor = sensorFor(error.cite);
    const line = sensor === undefined ? undefined : watcher.get(sensor);
    if (line === undefined) return { error, attribution: 'none' };
    return { error: { ...error, goal: { kind: 'charter', id: line } }, attribution: 'sensor' };
  });
}
