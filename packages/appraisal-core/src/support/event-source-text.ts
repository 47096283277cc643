import type { EventSource } from '../schemas/transcript.js';
import { stripControl } from './strip-control.js';

/**
 * Where an imported event came from, as every surface prints it: the source log's file and
 * line (1-based), and the record's own id there in brackets when it has one, with control
 * characters stripped (`session.jsonl:12 (msg_01)`).
 */
export function eventSourceText(source: EventSource): string {
  const id = source.id === undefined ? '' : ` (${stripControl(source.id)})`;
  return `${stripControl(source.file)}:${source.line}${id}`;
}
