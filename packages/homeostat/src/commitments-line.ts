import type { BriefFieldRecord, CommitmentRecord, ConditionsSnapshot } from '@mecha/appraisal-core';
import { type CommitmentStore, commitmentStores } from '@mecha/charter';
import { ageBand, countBand } from './bands.js';
import { digitFreeReason, lineText, listText } from './words.js';

const nouns: Readonly<Record<CommitmentStore, { one: string; many: string; title: string }>> = {
  outbox: { one: 'draft in the outbox', many: 'drafts in the outbox', title: 'the outbox' },
  questions: { one: 'parked question', many: 'parked questions', title: 'parked questions' },
  requests: {
    one: 'front-door request',
    many: 'front-door requests',
    title: 'front-door requests',
  },
};

type Owed = Extract<CommitmentRecord, { owed: true }>;

function source(owed: readonly Owed[]): string {
  const line = owed.find((item) => item.line !== undefined)?.line;
  if (line === undefined) return '(the default patience; no charter line watches this store)';
  return `(charter line ${lineText(line.id)}${line.rank === 1 ? ', your highest-ranked' : ''})`;
}

function patience(owed: readonly Owed[]): string {
  const past = owed.filter((item) => item.past_patience).length;
  if (owed.length === 1) {
    return past === 1 ? "past the owner's patience" : "within the owner's patience";
  }
  if (past === 0) return "none past the owner's patience";
  return past === owed.length ? "all past the owner's patience" : "some past the owner's patience";
}

function howMany(count: number, complete: boolean, store: CommitmentStore): string {
  const noun = nouns[store];
  if (count === 0) {
    return complete ? `no ${noun.many}` : `no ${noun.many} found in what could be read`;
  }
  return `${complete ? '' : 'at least '}${countBand(count)} ${count === 1 ? noun.one : noun.many}`;
}

function storePart(
  conditions: ConditionsSnapshot,
  store: CommitmentStore,
): { text: string; state: 'read' | 'partial' | 'unread' } {
  const held = conditions.commitments?.[store];
  const unread = conditions.unread ?? {};
  if (held !== undefined) {
    const owed = held.items.filter((item): item is Owed => item.owed);
    const notOwed = held.items.length - owed.length;
    let text = howMany(owed.length, held.complete, store);
    if (owed.length > 0) {
      const oldest = Math.max(...owed.map((item) => item.age_ms));
      const waited = owed.length === 1 ? 'waiting' : 'the oldest waiting';
      text += `, ${waited} ${ageBand(oldest)}, ${patience(owed)} ${source(owed)}`;
    }
    if (notOwed > 0) {
      text += ` (besides ${countBand(notOwed)} parked on ${notOwed === 1 ? 'its requester' : 'their requesters'}, owing nothing)`;
    }
    return { text, state: held.complete ? 'read' : 'partial' };
  }
  const reason = digitFreeReason(
    unread[`commitments.${store}`] ??
      unread.commitments ??
      unread[`backlog.${store}`] ??
      'no reason was recorded',
  );
  const backlog = conditions.backlog?.[store];
  if (backlog !== undefined) {
    const they = backlog.count === 1 ? 'it has' : 'they have';
    const text =
      backlog.count === 0 && backlog.complete
        ? howMany(0, true, store)
        : `${howMany(backlog.count, backlog.complete, store)}, but how long ${they} waited and the owner's patience could not be read (${reason})`;
    return { text, state: 'partial' };
  }
  return { text: `${nouns[store].title} could not be read (${reason})`, state: 'unread' };
}

/**
 * The brief's line on what waits on the owner, from a conditions snapshot. Counts and ages are
 * bands and patience is past or not: the line prints no number of its own, so the only digits
 * it can hold are inside a charter line's id (a reason's digits are replaced).
 */
export function commitmentsLine(conditions: ConditionsSnapshot | undefined): {
  readonly line: string;
  readonly field: BriefFieldRecord;
} {
  if (conditions === undefined) {
    const reason = 'the run did not opt in to sampling its conditions';
    return {
      line: `Waiting on the owner: could not be read (${reason}).`,
      field: { state: 'unread', reason },
    };
  }
  const parts = commitmentStores.map((store) => storePart(conditions, store));
  let line = `Waiting on the owner: ${parts.map((part) => part.text).join('; ')}.`;
  const withdrawn = (conditions.withdrawn_saturated ?? []).map((store) => nouns[store].title);
  if (withdrawn.length > 0) {
    line += ` Withdrawn from this run as saturated: ${listText(withdrawn)}.`;
  }
  const states = parts.map((part) => part.state);
  if (states.every((state) => state === 'unread')) {
    const reason = digitFreeReason(
      conditions.unread?.commitments ?? 'none of the stores could be read',
    );
    return { line, field: { state: 'unread', reason } };
  }
  if (states.every((state) => state === 'read')) return { line, field: { state: 'read' } };
  return {
    line,
    field: { state: 'partial', reason: 'a store could not be read whole' },
  };
}
