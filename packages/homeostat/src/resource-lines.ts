// The brief's lines about what the run has to work with: the owner's time, seats, runs, slots,
// the voice and the budget.
import { type Line, partial, read, unreadLine } from './brief-line.js';
import type { OwnerTime } from './owner-time.js';
import type { Reading } from './reading.js';
import type {
  BudgetInput,
  RunsInput,
  SeatsInput,
  SlotsInput,
  VoiceInput,
} from './situation-brief.js';
import { idsText, reasonText } from './words.js';

export function timeLine(time: Reading<OwnerTime>): Line {
  if (time.state !== 'read') return unreadLine('Time', time);
  const { weekday, partOfDay, quietHours } = time.value;
  const quiet =
    quietHours.state !== 'read'
      ? `whether it is inside their quiet hours could not be read (${reasonText(quietHours.reason)})`
      : quietHours.value === 'none_recorded'
        ? 'no quiet hours are recorded'
        : `${quietHours.value} their quiet hours`;
  const text = `Time: ${weekday.replace(/[^\p{L} ]/gu, '')} ${partOfDay} for the owner; ${quiet}.`;
  return quietHours.state === 'read' ? read(text) : partial(text, quietHours.reason);
}

/** A count the brief may print as a number, or undefined when it is not one. */
function whole(value: number): string | undefined {
  return Number.isFinite(value) && value >= 0 ? String(value) : undefined;
}

export function seatsLine(seats: Reading<SeatsInput>): Line {
  if (seats.state !== 'read') return unreadLine('Background seats', seats);
  const total = whole(seats.value.total);
  if (total === undefined)
    return unreadLine('Background seats', { reason: 'the seat count is not a number' });
  const free = Math.max(0, seats.value.total - seats.value.heldBy.length);
  const held =
    seats.value.heldBy.length === 0 ? 'none held' : `held by ${idsText(seats.value.heldBy)}`;
  return read(`Background seats: ${free} of ${total} free; ${held}.`);
}

export function runsLine(runs: Reading<RunsInput>): Line {
  if (runs.state !== 'read') return unreadLine('Other runs in flight', runs);
  const { delegatedTasks, triggers } = runs.value;
  const tasks =
    delegatedTasks.length === 0
      ? 'no delegated tasks'
      : `delegated task${delegatedTasks.length === 1 ? '' : 's'} ${idsText(delegatedTasks)}`;
  const fired =
    triggers.length === 0
      ? 'no triggers'
      : `trigger${triggers.length === 1 ? '' : 's'} ${idsText(triggers)}`;
  return read(`Other runs in flight: ${tasks}; ${fired} (interactive chats are not counted).`);
}

export function slotsLine(slots: Reading<SlotsInput>): Line {
  if (slots.state !== 'read') return unreadLine('Model server', slots);
  const value = slots.value;
  if (value.kind === 'not_local') {
    return {
      text: 'Model server: not a local one, so its slots are not read.',
      field: { state: 'not_local' },
    };
  }
  if (!(value.total > 0) || !(value.busy >= 0)) {
    return unreadLine('Model server', { reason: 'the slot counts are not numbers' });
  }
  const words =
    value.busy === 0
      ? 'idle'
      : value.busy < value.total
        ? 'busy with other work, with a slot free'
        : 'busy with other work in every slot';
  return read(`Model server: ${words}.`);
}

export function voiceLine(voice: Reading<VoiceInput>): Line {
  if (voice.state !== 'read') return unreadLine('Voice', voice);
  return read(
    voice.value.inCall
      ? 'Voice: the owner spoke to you within the last few minutes; a call may be in progress.'
      : 'Voice: no call in progress.',
  );
}

export function budgetLine(budget: Reading<BudgetInput>): Line {
  if (budget.state !== 'read') return unreadLine('Budget', budget);
  const value = budget.value;
  const part = (
    ceiling: number | 'none',
    none: string,
    some: (amount: string) => string,
    what: string,
  ) => {
    if (ceiling === 'none') return none;
    const amount = whole(ceiling);
    return amount === undefined ? `${what} could not be read` : some(amount);
  };
  const parts = [
    part(value.maxTurns, 'no turn limit', (n) => `up to ${n} turns`, 'the turn limit'),
    part(
      value.outputTokenCeiling,
      'no output-token ceiling',
      (n) => `an output-token ceiling of ${n}`,
      'the output-token ceiling',
    ),
    part(
      value.costCeilingUsd,
      'no cost ceiling',
      (n) => `a cost ceiling of ${n} USD`,
      'the cost ceiling',
    ),
    part(
      value.contextWindow,
      'no declared context window',
      (n) => `a context window of ${n} tokens`,
      'the context window',
    ),
    part(
      value.compactionThreshold,
      'no compaction threshold',
      (n) => `compaction at ${n} prompt tokens`,
      'the compaction threshold',
    ),
  ];
  return read(`Budget: ${parts.join('; ')}.`);
}
