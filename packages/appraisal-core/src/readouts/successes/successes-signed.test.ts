import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { corpusArbitrary, type GeneratedCorpus } from '../../__fixtures__/corpus-arbitrary.js';
import { memoryPorts } from '../../__fixtures__/memory-ports.js';
import { indexSessionStores, readSessionStores } from '../../ports/store-index.js';
import { signedEntries } from '../../rules/contributions.js';
import type { SignedEntry } from '../../rules/signed-entry.js';
import type { ClosureRecord } from '../../schemas/closures.js';
import type { Cite } from '../../schemas/goal-error.js';
import type { OutboxRecord } from '../../schemas/outbox.js';
import type { QuestionRecord } from '../../schemas/questions.js';
import { type Success, successRows } from './success.js';
import { successes } from './successes.js';

// Successes and contributions read the same rules (owner-act-rows.ts, record-order.ts). These
// properties tie the two readouts together over random corpora, including corpora where two
// verdicts on one draft, or two settlements of one question, share a timestamp.

function citeKey(cite: Cite): string {
  switch (cite.kind) {
    case 'draft':
      return `draft:${cite.draft_id}`;
    case 'closure':
      return `closure:${cite.closure_id}`;
    case 'workflow':
      return `workflow:${cite.workflow_id}`;
    case 'question':
      return `question:${cite.question_id}`;
    default:
      return `${cite.kind}:other`;
  }
}

async function entriesBySession(corpus: GeneratedCorpus): Promise<Map<string, SignedEntry[]>> {
  const ports = memoryPorts(corpus);
  const index = indexSessionStores(await readSessionStores(ports));
  const found = new Map<string, SignedEntry[]>();
  for (const session of corpus.sessions) {
    const id = session.listing.sessionId;
    const evidence = index.evidenceFor(id, await ports.sessions.transcript(id));
    found.set(id, signedEntries(evidence).entries);
  }
  return found;
}

// A rival verdict or settlement at the very same moment as one already in the store, placed
// before or after it: store order alone decides which is first. A reopen may also carry the
// same moment as the closure it names, or an earlier one (a clock that went back).
const tieArbitrary = corpusArbitrary.chain((corpus) =>
  fc
    .record({
      outcomes: fc.array(
        fc.record({
          outcome: fc.constantFrom('sent_unchanged', 'sent_edited', 'rejected', 'cancelled'),
          sender: fc.constantFrom('owner', 'run_shell', 'unrecorded'),
          before: fc.boolean(),
        }),
        { minLength: corpus.outbox.length, maxLength: corpus.outbox.length },
      ),
      settlements: fc.array(
        fc.record({
          type: fc.constantFrom('answered', 'abandoned'),
          before: fc.boolean(),
        }),
        { minLength: 8, maxLength: 8 },
      ),
      reopenAt: fc.constantFrom('as written', 'same moment', 'earlier'),
    })
    .map(({ outcomes, settlements, reopenAt }): GeneratedCorpus => {
      const outbox: OutboxRecord[] = [];
      corpus.outbox.forEach((record, index) => {
        const tie = outcomes[index];
        if (record.type !== 'outcome' || tie === undefined) {
          outbox.push(record);
          return;
        }
        const rival = {
          ...record,
          outcome: tie.outcome,
          sender: tie.sender,
        } as OutboxRecord;
        outbox.push(...(tie.before ? [rival, record] : [record, rival]));
      });
      const questions: QuestionRecord[] = [];
      const original = (corpus.questions ?? []) as readonly QuestionRecord[];
      original.forEach((record, index) => {
        const tie = settlements[index % settlements.length];
        if (record.type === 'parked' || tie === undefined) {
          questions.push(record);
          return;
        }
        const rival = { ...record, type: tie.type } as QuestionRecord;
        questions.push(...(tie.before ? [rival, record] : [record, rival]));
      });
      const originalClosures = (corpus.closures ?? []) as readonly ClosureRecord[];
      const times = new Map(originalClosures.map((record) => [record.closure_id, record.at]));
      const closures = originalClosures.map((record): ClosureRecord => {
        const named = record.reopens === undefined ? undefined : times.get(record.reopens);
        if (named === undefined || reopenAt === 'as written') return record;
        const at =
          reopenAt === 'same moment' ? named : new Date(Date.parse(named) - 60_000).toISOString();
        return { ...record, at };
      });
      return { ...corpus, outbox, questions, closures };
    }),
);

function positiveEntry(
  entries: readonly SignedEntry[] | undefined,
  row: string,
  key: string,
): boolean {
  return (entries ?? []).some(
    (entry) => entry.row === row && entry.error.sign > 0 && citeKey(entry.error.cite) === key,
  );
}

function successCite(success: Success): string {
  return `${success.cite.kind}:${success.cite.id}`;
}

async function check(corpus: GeneratedCorpus): Promise<void> {
  const bySession = await entriesBySession(corpus);
  const readout = await successes(memoryPorts(corpus), { includeTests: true, examples: false });
  // A linked negative owner outcome replaces a draft's own entry: the send stays a success
  // (only a reopen takes one back), but its +1.0 is not signed.
  const replaced = new Set(
    ((corpus.ownerOutcomes ?? []) as readonly { draft_id: string; kind: string }[])
      .filter((record) => record.kind !== 'fine')
      .map((record) => `draft:${record.draft_id}`),
  );

  // Every success is a positive signed entry of its session, of its kind's row.
  for (const success of readout.successes) {
    if (success.session_id === null) continue;
    const entries = bySession.get(success.session_id);
    const row = successRows[success.kind];
    const key = successCite(success);
    const takenBack = success.withdrawn_by !== undefined;
    if ((success.status === 'standing' || success.status === 'hidden') && !takenBack) {
      if (replaced.has(key)) continue;
      expect(positiveEntry(entries, row, key), `${success.kind} ${key}`).toBe(true);
    } else if (takenBack) {
      expect(positiveEntry(entries, row, key), `withdrawn ${key}`).toBe(false);
    } else if (success.unknown_reason === 'closed_by_unknown') {
      expect(positiveEntry(entries, row, key), `unknown ${key}`).toBe(false);
    }
  }

  // Every positive entry the seed counts as a success is one: each send, done closure and
  // finished answer, and each workflow close after a passing check.
  const passedBeforeClose = new Set<string>();
  const passed = new Map<string, boolean>();
  for (const record of (corpus.workflows ?? []) as readonly {
    type: string;
    workflow_id: string;
    passed?: boolean;
  }[]) {
    if (record.type === 'verified') passed.set(record.workflow_id, record.passed === true);
    if (record.type === 'closed' && passed.get(record.workflow_id) === true) {
      passedBeforeClose.add(`workflow:${record.workflow_id}`);
    }
  }
  const rows = new Set<string>(Object.values(successRows));
  for (const [sessionId, entries] of bySession) {
    for (const entry of entries) {
      if (!rows.has(entry.row) || entry.error.sign <= 0) continue;
      const key = citeKey(entry.error.cite);
      if (entry.row === successRows.workflow_closed_after_check && !passedBeforeClose.has(key)) {
        continue;
      }
      const match = readout.successes.find(
        (success) =>
          successRows[success.kind] === entry.row &&
          successCite(success) === key &&
          success.session_id === sessionId,
      );
      expect(match?.status, `${entry.row} ${key} in ${sessionId}`).toMatch(/^(standing|hidden)$/);
    }
  }
}

describe('successes are signed entries', () => {
  it('holds over random corpora', async () => {
    await fc.assert(fc.asyncProperty(corpusArbitrary, check), { numRuns: 150 });
  });

  it('holds when verdicts and settlements tie on their timestamp (store order decides)', async () => {
    await fc.assert(fc.asyncProperty(tieArbitrary, check), { numRuns: 150 });
  });
});
