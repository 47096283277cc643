import { createHash, generateKeyPairSync } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isLeft, left, refusal, rightOrThrow } from '@mecha/errors';
import { openGraphStore } from '@mecha/graph';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryGraphBank, realGraph, writeMemoryGraph } from '../__fixtures__/memory-graph.js';
import { GraderInputError } from '../errors/grader-input-error.js';
import { answerQuery } from './graph-memory.js';
import { applyGraphPrune, planGraphPrune } from './graph-prune.js';
import { readQueryBank, sealQueryBank } from './memory-query-bank.js';
import { type SignedPrunePlan, signPrunePlan } from './signed-prune.js';

// Every test runs on a real SQLite graph written through @mecha/graph's own API, and the real
// @mecha/graph is what the tests pass in as the graph port (realGraph): the ablation measures
// private snapshots of it, and applying uses the graph's own redaction.

const owner = generateKeyPairSync('ed25519');
const stranger = generateKeyPairSync('ed25519');
const bank = sealQueryBank(memoryGraphBank);
const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function graph(): Promise<string> {
  const path = await writeMemoryGraph();
  made.push(dirname(path));
  return path;
}

const bytes = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

async function signedPlanFor(path: string): Promise<SignedPrunePlan> {
  const report = await planGraphPrune(path, bank, realGraph);
  if (report.plan === null) throw new Error('no plan');
  return signPrunePlan(report.plan, owner.privateKey);
}

async function answersNow(path: string): Promise<Record<string, boolean>> {
  const store = await openGraphStore({ path });
  try {
    const answers: Record<string, boolean> = {};
    for (const query of bank.queries) answers[query.id] = (await answerQuery(store, query)).correct;
    return answers;
  } finally {
    await store.close();
  }
}

describe('memory ablation over a real graph', () => {
  it('grades every episode by what removing it does to the held-out queries', async () => {
    const path = await graph();
    const before = bytes(path);
    const report = await planGraphPrune(path, bank, realGraph);
    expect(report.selfTest.seesHarm).toBe(true);
    expect(report.refusedQueries).toEqual([
      {
        id: 'q-hunch',
        reason: 'refused: no independent basis for the expected answer (unfalsifiable)',
      },
    ]);
    expect(
      Object.fromEntries(report.ablation.map((result) => [result.sourceId, result.worth])),
    ).toEqual({
      s1: 'redundant',
      s2: 'redundant',
      s3: 'keep',
      s4: 'harmful',
      s5: 'redundant',
      s6: 'unmeasured',
      s7: 'weak',
    });
    // The graph file was only read.
    expect(bytes(path)).toBe(before);
  });

  it('proposes only what a verdict backs and holds back what costs accuracy together', async () => {
    const report = await planGraphPrune(await graph(), bank, realGraph);
    const sourceIdOf = new Map(report.ablation.map((result) => [result.memory, result.sourceId]));
    const names = (memories: readonly string[]) => memories.map((m) => sourceIdOf.get(m));
    expect(
      report.proposals.map((proposal) => [sourceIdOf.get(proposal.memory), proposal.worth]),
    ).toEqual([
      ['s4', 'harmful'],
      ['s1', 'redundant'],
      ['s2', 'redundant'],
      ['s5', 'redundant'],
    ]);
    expect(names(report.plan?.memories ?? [])).toEqual(['s4', 's1']);
    expect(
      report.proof?.heldBack.map((held) => [sourceIdOf.get(held.memory), held.reason]),
    ).toEqual([
      ['s2', 'with the others it turns 1 query(ies) from right to wrong'],
      ['s5', 'with the others it turns 1 query(ies) from right to wrong'],
    ]);
    expect(report.proof).toMatchObject({ queries: 5, correctBefore: 4, correctAfter: 5 });
    expect(report.plan?.graph?.removals.map((removal) => removal.sourceId)).toEqual(['s4', 's1']);
  });

  it('plans nothing when the planted poison cannot be seen', async () => {
    // Every query is wrong on an empty graph: harm cannot show, so nothing is proposed.
    const path = await writeMemoryGraph(undefined, { s1: [['Nobody', 'is at', 'Nowhere']] });
    made.push(dirname(path));
    const report = await planGraphPrune(path, bank, realGraph);
    expect(report.selfTest).toEqual({
      seesHarm: false,
      reason: 'no held-out query is answered right: the oracle cannot show harm, so it abstains',
    });
    expect(report.plan).toBeNull();
    expect(report.proposals).toEqual([]);
  });

  it('refuses a missing graph file without creating one', async () => {
    const path = join(dirname(await graph()), 'nothing-here.db');
    await expect(planGraphPrune(path, bank, realGraph)).rejects.toSatisfy(
      GraderInputError.isInstance,
    );
    expect(readdirSync(dirname(path))).not.toContain('nothing-here.db');
  });

  it('refuses a file that is not a SQLite graph, leaving it as it was', async () => {
    const path = join(dirname(await graph()), 'notes.db');
    writeFileSync(path, 'not a database');
    await expect(planGraphPrune(path, bank, realGraph)).rejects.toSatisfy(
      GraderInputError.isInstance,
    );
    expect(readFileSync(path, 'utf8')).toBe('not a database');
  });

  it('refuses a PostgreSQL graph: pruning measures SQLite graph files', async () => {
    const refused = planGraphPrune('postgres://mecha:s3cret@db.example/graph', bank, realGraph);
    await expect(refused).rejects.toSatisfy(GraderInputError.isInstance);
    await expect(refused).rejects.toThrow(
      'postgres://mecha:***@db.example/graph is a PostgreSQL database: a snapshot copies a SQLite graph file',
    );
  });

  it('refuses a bank where no query has a basis', async () => {
    const dir = dirname(await graph());
    const file = join(dir, 'bank.json');
    writeFileSync(
      file,
      JSON.stringify({ v: 1, queries: [{ id: 'q', subject: 'a', predicate: 'b', expected: 'c' }] }),
    );
    expect(readQueryBank(file).queries).toEqual([]);
    return expect(
      planGraphPrune(join(dir, 'graph.db'), readQueryBank(file), realGraph),
    ).rejects.toThrow('nothing can be measured');
  });
});

describe('applying a signed graph plan', () => {
  it('takes out exactly the planned episodes, and the held-out answers get no worse', async () => {
    const path = await graph();
    const signed = await signedPlanFor(path);
    expect(await answersNow(path)).toEqual({
      'q-priya': true,
      'q-grant-city': true,
      'q-grant-dean': true,
      'q-lab': false,
      'q-dana': true,
    });
    const result = await applyGraphPrune(path, signed, owner.publicKey, bank, realGraph);
    expect(rightOrThrow(result).removed.map((removal) => removal.sourceId)).toEqual(['s4', 's1']);
    expect(await answersNow(path)).toEqual({
      'q-priya': true,
      'q-grant-city': true,
      'q-grant-dean': true,
      'q-lab': true,
      'q-dana': true,
    });
    const store = await openGraphStore({ path });
    try {
      const redacted = (await store.episodes({ include_redacted: true })).items
        .filter((episode) => episode.status === 'redacted')
        .map((episode) => episode.source_id)
        .sort();
      expect(redacted).toEqual(['s1', 's4']);
    } finally {
      await store.close();
    }
  });

  it('refuses, and leaves the graph byte-identical, without the owner’s signature', async () => {
    const path = await graph();
    const signed = await signedPlanFor(path);
    const before = bytes(path);
    const refusals = [
      await applyGraphPrune(path, { ...signed, signature: '' }, owner.publicKey, bank, realGraph),
      await applyGraphPrune(
        path,
        signPrunePlan(signed.plan, stranger.privateKey),
        owner.publicKey,
        bank,
        realGraph,
      ),
      // A plan widened after signing: the signature no longer covers it.
      await applyGraphPrune(
        path,
        { ...signed, plan: { ...signed.plan, memories: [...signed.plan.memories, 'e3'] } },
        owner.publicKey,
        bank,
        realGraph,
      ),
    ];
    expect(refusals.map((refusal) => (isLeft(refusal) ? refusal.left.message : 'applied'))).toEqual(
      [
        'the plan is not signed: pruning needs the owner’s signature',
        'the signature does not verify under the owner’s key',
        'the signature does not verify under the owner’s key',
      ],
    );
    expect(bytes(path)).toBe(before);
  });

  it('refuses a signed plan that removes a memory no verdict backs', async () => {
    const path = await graph();
    const { plan } = await signedPlanFor(path);
    const keep = { memory: 'e3', source: 'agent:mecha', sourceId: 's3' };
    // The owner signed a hand-edited plan that also removes s3, which two queries need.
    const greedy = signPrunePlan(
      {
        ...plan,
        memories: [...plan.memories, keep.memory],
        graph: {
          digest: plan.graph?.digest ?? '',
          removals: [...(plan.graph?.removals ?? []), keep],
        },
      },
      owner.privateKey,
    );
    const before = bytes(path);
    const result = await applyGraphPrune(path, greedy, owner.publicKey, bank, realGraph);
    expect(result).toEqual(left(refusal('refused', 'no verdict backs removing e3 (keep)')));
    expect(bytes(path)).toBe(before);
  });

  it('refuses a graph file that is missing or not a graph, creating nothing', async () => {
    const path = await graph();
    const signed = await signedPlanFor(path);
    const missing = join(dirname(path), 'nothing-here.db');
    expect(await applyGraphPrune(missing, signed, owner.publicKey, bank, realGraph)).toEqual(
      left(refusal('unreadable', `there is no graph file at ${missing}`)),
    );
    expect(readdirSync(dirname(path))).not.toContain('nothing-here.db');
    const notes = join(dirname(path), 'notes.db');
    writeFileSync(notes, 'not a database');
    const refused = await applyGraphPrune(notes, signed, owner.publicKey, bank, realGraph);
    expect(isLeft(refused) ? refused.left.message : 'applied').toMatch(
      /notes\.db cannot be read as a SQLite graph/,
    );
    expect(readFileSync(notes, 'utf8')).toBe('not a database');
  });

  it('refuses when the bank or the graph is not the one the plan was proved on', async () => {
    const path = await graph();
    const signed = await signedPlanFor(path);
    const before = bytes(path);
    const otherBank = sealQueryBank({
      ...memoryGraphBank,
      queries: memoryGraphBank.queries.slice(1),
    });
    expect(await applyGraphPrune(path, signed, owner.publicKey, otherBank, realGraph)).toEqual(
      left(
        refusal(
          'refused',
          'the query bank is not the one the plan was proved on (its seal differs)',
        ),
      ),
    );
    expect(bytes(path)).toBe(before);

    // The owner took s2 out after the plan: s1 is now Priya's only witness, so removing it
    // would cost a query. The changed graph is refused before anything is measured on it.
    const store = await openGraphStore({ path });
    await store.redact({ source: 'agent:mecha', source_id: 's2' });
    await store.close();
    const changed = bytes(path);
    expect(await applyGraphPrune(path, signed, owner.publicKey, bank, realGraph)).toEqual(
      left(
        refusal(
          'refused',
          'the graph has changed since the plan was proved: plan again and sign the new plan',
        ),
      ),
    );
    expect(bytes(path)).toBe(changed);
  });
});
