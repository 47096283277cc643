import { type PlanningExample, successes } from '@mecha/appraisal-core';
import { homePorts, type MechaHome } from '@mecha/stores';
import {
  type Correction,
  ownerCorrections,
  type SessionFacts,
  sessionFacts,
} from './corrections.js';
import type { DeclineOnRecord } from './reflect.js';

/** What a reflect pass reads from the home: the corrections and what is on record about them. */
export interface Materials {
  readonly corrections: readonly Correction[];
  readonly examples: readonly PlanningExample[];
  readonly reflected: ReadonlySet<string>;
  /** Follow-ups judged corrections, by correction id. */
  readonly judged: ReadonlySet<string>;
  /** The declines on record, by correction id, oldest first. */
  readonly declined: ReadonlyMap<string, readonly DeclineOnRecord[]>;
  readonly unread: readonly string[];
}

/**
 * Reads the corrections from every session, the outbox and the closures, the reflections on
 * record, and (with contrast evidence) the verified successes; `unreadable` when the sessions or
 * the reflections cannot be read at all.
 */
export async function readMaterials(
  home: MechaHome,
  contrastEvidence: boolean,
): Promise<Materials | { unreadable: string }> {
  const sessions = new Map<string, SessionFacts>();
  const unread: string[] = [];
  const listing = await home.sessions.scan({
    population: 'every',
    visit: (member, transcript) => {
      if (transcript.state === 'unreadable') unread.push(`session ${member.sessionId}`);
      else if (transcript.state === 'partial') unread.push(`session ${member.sessionId} (partly)`);
      sessions.set(member.sessionId, sessionFacts(member.sessionId, transcript));
    },
  });
  if (listing.state === 'unreadable') return { unreadable: `the session store: ${listing.reason}` };
  if (listing.state === 'partial') unread.push('the session list (partly)');
  const [outbox, closures, reflections, readout] = await Promise.all([
    home.outbox.read(),
    home.closures.read(),
    home.learning.reflections.read(),
    // The verified successes are a second pass over every transcript: read only when shown.
    contrastEvidence ? successes(homePorts(home), { examples: true }) : undefined,
  ]);
  // Without the reflections on record, a second lesson could be written for one correction.
  if (reflections.state === 'unreadable') {
    return { unreadable: `learning/reflections.jsonl: ${reflections.reason}` };
  }
  if (reflections.state === 'partial') unread.push('learning/reflections.jsonl (partly)');
  for (const [name, read] of [
    ['the outbox', outbox],
    ['closures/closures.jsonl', closures],
  ] as const) {
    if (read.state === 'unreadable') unread.push(`${name}: ${read.reason}`);
    else if (read.state === 'partial') unread.push(`${name} (partly)`);
  }
  if (readout?.partial === true) unread.push('the verified successes (partly)');
  const reflected = new Set<string>();
  const judged = new Set<string>();
  const declined = new Map<string, DeclineOnRecord[]>();
  for (const record of reflections.records) {
    if (record.lesson !== undefined) reflected.add(record.lesson.correction_id);
    if (record.judgment !== undefined) judged.add(record.judgment.correction_id);
    if (record.declined !== undefined) {
      const { correction_id, step, outcome, asked_with } = record.declined;
      const list = declined.get(correction_id) ?? [];
      list.push({
        step,
        outcome,
        model: asked_with.model,
        prompt: asked_with.prompt,
        at: record.at,
      });
      declined.set(correction_id, list);
    }
  }
  return {
    corrections: ownerCorrections({
      sessions,
      outbox: outbox.state === 'unreadable' ? [] : outbox.records,
      closures: closures.state === 'unreadable' ? [] : closures.records,
    }),
    examples: readout?.examples ?? [],
    reflected,
    judged,
    declined,
    unread,
  };
}
