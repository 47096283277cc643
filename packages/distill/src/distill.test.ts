import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type TranscriptEvent, textAppraisalRecordSchema } from '@mecha/appraisal-core';
import { afterEach, describe, expect, it } from 'vitest';
import { conversation, events } from './__fixtures__/events.js';
import { readFacts, readGraph } from './__fixtures__/graph-home.js';
import { scriptedDistiller } from './__fixtures__/scripted-distiller.js';
import { type TestHome, testHome, testNow } from './__fixtures__/test-home.js';
import { distill } from './distill/distill.js';
import type { DistillOptions } from './distill/distill-options.js';
import type { DistillReport } from './distill/distill-report.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function home(options: Parameters<typeof testHome>[0] = {}): TestHome {
  const made = testHome(options);
  cleanups.push(made.remove);
  return made;
}

async function run(made: TestHome, options: Partial<DistillOptions> = {}): Promise<DistillReport> {
  const result = await distill({
    home: made.open(),
    model: scriptedDistiller(),
    clock: () => testNow,
    ...options,
  });
  if (result.state !== 'done') throw new Error(`distill could not run: ${result.message}`);
  return result.report;
}

const A = '20260925T090000-aaaaaaa1';
const B = '20260925T100000-bbbbbbb2';
const C = '20260925T110000-ccccccc3';
const D = '20260925T120000-ddddddd4';

const tainted = (): TranscriptEvent[] => [
  ...conversation().slice(0, -1),
  events.stranger('msg-9', 'The graph is wrong: Priya Nair is at Brown.'),
  events.end(),
];

const withCorrection = JSON.stringify({
  skip: false,
  episode: 'Drafted the grant reply to Priya Nair at Yale.',
  corrections: [
    { wrong: 'Priya Nair is at Brown', right: 'Priya Nair is at Yale', about: 'Priya Nair' },
  ],
  surprises: [{ about: 'grant deadline', graph_said: 'the 14th', found: 'the \u001b[31m9th' }],
});

describe('distill', () => {
  it('runs a dry run without the [[mcp]] server, since a dry run pushes nothing', async () => {
    const made = home({ name: 'memory' });
    made.writeSession(A, conversation());
    const model = scriptedDistiller();
    const result = await distill({ home: made.open(), model, dryRun: true, clock: () => testNow });
    expect(result.state).toBe('done');
    expect(model.prompts).toHaveLength(0);
  });

  it('refuses to run without the named [[mcp]] server, saying why', async () => {
    const made = home({ name: 'memory' });
    made.writeSession(A, conversation());
    const model = scriptedDistiller();
    const result = await distill({ home: made.open(), model });
    expect(result).toEqual({
      state: 'cannot_run',
      reason: 'no_server',
      message:
        "no [[mcp]] server named 'graph' in config — distillation stages episodes through the knowledge graph server and cannot run without it",
    });
    expect(model.prompts).toHaveLength(0);
    expect(
      (await distill({ home: made.open(), model, server: 'memory', clock: () => testNow })).state,
    ).toBe('done');
  });

  it('refuses to run on a config.toml with problems, naming them', async () => {
    const made = home();
    writeFileSync(join(made.path, 'config.toml'), '[[mcp]]\nname = "graph"\n');
    const result = await distill({ home: made.open(), model: scriptedDistiller() });
    expect(result).toMatchObject({ state: 'cannot_run', reason: 'config_invalid' });
    expect(result.state === 'cannot_run' && result.message).toMatch(
      /mcp\[0\] \(line 1\) needs command .* or url/,
    );
  });

  it('reports each step of a session, then its outcome, for a progress bar', async () => {
    const made = home();
    made.writeSession(A, conversation());
    made.writeSession(B, [events.start(), events.owner('msg-1', 'hi'), events.end()]);
    const seen: string[] = [];
    await run(made, {
      onProgress: (progress) =>
        seen.push(
          `${progress.done}/${progress.total} ${progress.step}${progress.outcome === undefined ? '' : ` ${progress.outcome}`}`,
        ),
    });
    expect(seen).toEqual([
      '0/2 reading',
      '0/2 distilling',
      '0/2 appraising',
      '0/2 extracting',
      '0/2 pushing',
      '1/2 finished pushed',
      '1/2 reading',
      '2/2 finished too_short',
    ]);
  });

  it('pushes one episode with exactly the promised fields, marks it, and keeps one text appraisal', async () => {
    const made = home();
    made.writeSession(A, [
      events.start('2026-09-25T09:00:00Z', { goal: { kind: 'task', id: 'task-404' } }),
      ...conversation().slice(1),
    ]);
    const model = scriptedDistiller(withCorrection);
    const report = await run(made, { model });

    expect(report.counts.pushed).toBe(1);
    expect(model.prompts).toHaveLength(3);
    expect(model.requests[0]?.grammar).toHaveProperty('gbnf');
    expect(model.requests[2]?.grammar).toHaveProperty('jsonSchema');
    const { episodes, corrections } = readGraph(made.db);
    expect(episodes).toHaveLength(1);
    const row = episodes[0];
    expect(row).toMatchObject({
      kind: 'episode',
      source: 'agent:mecha',
      source_id: A,
      source_ref: join(made.path, 'sessions', `${A}.jsonl`),
      occurred_at: '2026-09-25T09:10:00Z',
      body: 'Drafted the grant reply to Priya Nair at Yale.',
    });
    expect(Object.keys(row?.meta ?? {}).sort()).toEqual(
      [
        'affect',
        'corrections',
        'distilled_by',
        'entities',
        'facts_by',
        'goal',
        'goal_errors',
        'surprises',
        'taint',
      ].sort(),
    );
    // The model's candidate facts ride on the episode, only those its words carry.
    expect(row?.meta.entities).toEqual([{ name: 'Priya Nair', type: 'person' }]);
    expect(report.facts).toEqual({
      episodes: 1,
      entities: 1,
      relations: 0,
      dropped: { not_in_episode: 1 },
      failed: 0,
    });
    expect(row?.meta).toMatchObject({
      taint: { private: true, untrusted: false },
      distilled_by: `sha256:${(await model.identity()).sha256}`,
      affect: 'neutral',
      goal_errors: [],
      goal: 'task',
    });
    // The clean session's correction reached the graph and waits for review (nothing matched it).
    expect(corrections).toMatchObject([{ source: 'agent:mecha', source_id: A, status: 'review' }]);
    expect(report.corrections).toMatchObject({ reported: 1, sent: 1, withheld: 0, toReview: 1 });
    expect(report.surprises.items).toEqual([
      {
        sessionId: A,
        about: 'grant deadline',
        graphSaid: 'the 14th',
        found: 'the [31m9th',
        sentToGraph: true,
      },
    ]);
    expect(made.ledger()).toEqual([{ session_id: A, outcome: 'pushed' }]);

    const [appraisal, ...more] = made.appraisals();
    expect(more).toHaveLength(0);
    const parsed = textAppraisalRecordSchema.parse(appraisal);
    expect(parsed).toMatchObject({
      session_id: A,
      taint: 'clean',
      expected_act: 'no_act',
      claims_kept: 1,
      claims_dropped: { no_such_referent: 1 },
      goal_unresolved: true,
      // The judgment's goal (a charter line this home does not have) is kept as none, counted.
      judgments: [{ outcome: 'went_well', text: 'The reply went out as asked.' }],
      judgment_goals_unresolved: 1,
      owner_wants: 'Replies drafted promptly.',
      lessons: ['Draft the reply before the deadline.'],
    });
    expect(parsed.claims?.[0]).toMatchObject({
      cite: { kind: 'owner_message', id: 'msg-1' },
      quote: 'Please draft',
    });
    expect(report.appraisals).toMatchObject({
      written: 1,
      claimsKept: 1,
      claimsDropped: { no_such_referent: 1 },
      goalsUnresolved: 2,
    });
  });

  it('withholds corrections and surprises of a tainted session, sends its episode, and prints the surprise', async () => {
    const made = home();
    made.writeSession(A, tainted());
    const report = await run(made, { model: scriptedDistiller(withCorrection) });
    const { episodes, corrections } = readGraph(made.db);
    expect(episodes[0]?.meta.taint).toEqual({ private: true, untrusted: true });
    expect(episodes[0]?.meta).not.toHaveProperty('corrections');
    expect(episodes[0]?.meta).not.toHaveProperty('surprises');
    expect(corrections).toEqual([]);
    expect(report.corrections).toMatchObject({ reported: 1, sent: 0, withheld: 1 });
    expect(report.surprises).toMatchObject({ reported: 1, sent: 0, withheld: 1 });
    expect(report.surprises.items[0]?.sentToGraph).toBe(false);
    expect(made.appraisals()[0]).toMatchObject({ taint: 'third_party' });
  });

  it('records a torn transcript as {"unknown": true} with no private or untrusted key, and withholds its corrections', async () => {
    const made = home();
    made.writeTornSession(A, [...conversation(), events.end('2026-09-25T09:11:00Z')]);
    const report = await run(made, { model: scriptedDistiller(withCorrection) });
    const { episodes, corrections } = readGraph(made.db);
    expect(episodes[0]?.meta.taint).toStrictEqual({ unknown: true });
    expect(corrections).toEqual([]);
    expect(report.corrections.withheld).toBe(1);
    expect(made.appraisals()[0]).toMatchObject({ taint: 'unknown' });
  });

  it('reports a clean skipped session’s corrections through kg_correct and marks it skipped', async () => {
    const made = home();
    made.writeSession(A, conversation());
    const reply = JSON.stringify({
      skip: true,
      corrections: [{ wrong: 'the deadline is the 14th', about: 'grant' }],
    });
    const report = await run(made, { model: scriptedDistiller(reply) });
    const { episodes, corrections } = readGraph(made.db);
    expect(episodes).toEqual([]);
    expect(corrections).toMatchObject([{ source: 'agent:mecha', source_id: A, status: 'review' }]);
    expect(made.ledger()).toEqual([{ session_id: A, outcome: 'skipped' }]);
    expect(report.corrections).toMatchObject({ sent: 1, toReview: 1 });
    // A skip asks no follow-up question: there is no episode to appraise.
    expect(report.modelCalls).toBe(1);
  });

  it('marks pushed, skipped and too-short sessions, and leaves a failed model call and an unreadable transcript to retry', async () => {
    const made = home();
    made.writeSession(A, conversation());
    made.writeSession(B, [
      events.start(),
      events.owner('msg-1', 'hi'),
      events.agent('msg-2', 'Hello!'),
      events.end(),
    ]);
    mkdirSync(join(made.path, 'sessions', `${C}.jsonl`));
    made.writeSession(D, conversation());
    const replies: Record<string, string> = { [A]: '{"skip": fals', [D]: '{"skip":true}' };
    const report = await run(made, { model: scriptedDistiller((id) => replies[id] ?? '') });
    const outcomes = (report: DistillReport) =>
      report.sessions.map((session) => [session.sessionId, session.outcome]).sort();
    expect(outcomes(report)).toEqual([
      [A, 'model_failed'],
      [B, 'too_short'],
      [C, 'unreadable'],
      [D, 'skipped'],
    ]);
    // A's unparseable reply would repeat, so its try is counted; it is not marked done.
    expect(made.ledger()).toEqual([
      { session_id: A, outcome: 'failed' },
      { session_id: B, outcome: 'too_short' },
      { session_id: D, outcome: 'skipped' },
    ]);
    // The retry: A now answers; C is still unreadable and still unmarked.
    const again = await run(made, { model: scriptedDistiller() });
    expect(outcomes(again)).toEqual([
      [A, 'pushed'],
      [C, 'unreadable'],
    ]);
  });

  it('gives up on a failure that repeats after the set number of tries, and never calls the model for it again', async () => {
    const made = home();
    made.writeSession(A, conversation());
    made.writeSession(B, conversation());
    // A's reply never fits its budget; B's reply never parses. Both would fail the same way forever.
    const model = () =>
      scriptedDistiller((id) =>
        id === A ? JSON.stringify({ skip: false, episode: 'x'.repeat(400) }) : '{"skip": fals',
      );
    const tries: DistillReport[] = [];
    for (let round = 0; round < 3; round += 1) {
      tries.push(await run(made, { model: model(), maxTokens: 50, appraise: false }));
    }
    expect(tries.map((report) => report.modelCalls)).toEqual([2, 2, 2]);
    expect(tries[0]?.sessions.map((session) => session.reason)).toEqual([
      'the reply ran past 50 tokens (try 1 of 3)',
      expect.stringMatching(/^the reply is not JSON \(try 1 of 3\)$/),
    ]);
    expect(tries[2]?.counts).toMatchObject({ given_up: 2, model_failed: 0 });
    expect(tries[2]?.sessions[0]?.reason).toBe(
      'given up after 3 tries: the reply ran past 50 tokens',
    );
    expect(made.ledger().map((line) => line.outcome)).toEqual([
      'failed',
      'failed',
      'failed',
      'failed',
      'given_up',
      'given_up',
    ]);
    const after = await run(made, { model: model(), maxTokens: 50 });
    expect(after.modelCalls).toBe(0);
    expect(after.considered).toBe(0);
    expect(after.alreadyDistilled).toBe(2);
  });

  it('sends the model’s candidate facts that the episode’s words carry, and the graph queues them for review', async () => {
    const made = home();
    made.writeSession(A, conversation());
    const episode =
      'Priya Nair works at Yale Medical and agreed to review the grant. Omar Haddad leads Project Atlas. Dana Lee is at Brown.';
    const model = scriptedDistiller(JSON.stringify({ skip: false, episode }));
    const report = await run(made, { model, appraise: false });
    expect(report.counts.pushed).toBe(1);
    const [row] = readGraph(made.db).episodes;
    expect(row?.meta.relations).toEqual([
      {
        subject: 'Priya Nair',
        predicate: 'works at',
        object: 'Yale Medical',
        quote: 'Priya Nair works at Yale Medical',
      },
      {
        subject: 'Omar Haddad',
        predicate: 'leads',
        object: 'Project Atlas',
        quote: 'Omar Haddad leads Project Atlas',
      },
    ]);
    const facts = readFacts(made.db);
    // Every one waits in review with this episode as its provenance; none is a belief.
    expect(facts.every((fact) => fact.status === 'staged' && fact.source_id === A)).toBe(true);
    const triples = facts.map((fact) => [fact.subject, fact.predicate, fact.object]);
    expect(triples).toContainEqual(['Priya Nair', 'is a', 'person']);
    expect(triples).toContainEqual(['Priya Nair', 'works at', 'Yale Medical']);
    expect(triples).toContainEqual(['Omar Haddad', 'leads', 'Project Atlas']);
    // The name the episode never writes is not proposed.
    expect(triples.some(([subject]) => subject === 'Nobody Named')).toBe(false);
    // The model's extraction is the whole extraction: the prose's own reading ("Dana Lee is at
    // Brown", which the model left out) is not added behind it.
    expect(row?.meta.facts_by).toBe(row?.meta.distilled_by);
    expect(triples).not.toContainEqual(['Dana Lee', 'is at', 'Brown']);
    expect(report.facts).toMatchObject({
      episodes: 1,
      relations: 2,
      dropped: { not_in_episode: 1 },
    });
  });

  it('falls back to the graph’s own extractor when the extraction fails or is off', async () => {
    const episode = 'Priya Nair works at Yale Medical.';
    for (const options of [{ extractFacts: false }, { factsMaxTokens: 1 }]) {
      const made = home();
      made.writeSession(A, conversation());
      const model = scriptedDistiller(JSON.stringify({ skip: false, episode }));
      const report = await run(made, { model, appraise: false, ...options });
      expect(report.counts.pushed).toBe(1);
      const [row] = readGraph(made.db).episodes;
      expect(row?.meta).not.toHaveProperty('entities');
      expect(row?.meta).not.toHaveProperty('relations');
      expect(row?.meta).not.toHaveProperty('facts_by');
      expect(report.facts.failed).toBe('extractFacts' in options ? 0 : 1);
      expect(model.prompts).toHaveLength('extractFacts' in options ? 1 : 2);
      // The deterministic extractor still reads the prose: the fact waits in review all the same.
      const triples = readFacts(made.db).map((fact) => [fact.subject, fact.predicate, fact.object]);
      expect(triples).toContainEqual(['Priya Nair', 'works at', 'Yale Medical']);
    }
  });

  it('leaves every session unmarked when the graph server cannot start, and stops', async () => {
    const made = home({ command: { command: join('/nonexistent', 'mecha-graph-mcp'), args: [] } });
    made.writeSession(A, conversation());
    made.writeSession(B, conversation());
    const model = scriptedDistiller();
    const report = await run(made, { model, appraise: false });
    expect(report.sessions).toMatchObject([{ sessionId: A, outcome: 'push_failed' }]);
    expect(report.stopped?.reason).toBe('graph_unavailable');
    expect(report.stopped?.message).toMatch(/cannot start the \[\[mcp\]\] server 'graph'/);
    // The distiller and the fact extraction; nothing for B once the graph is known gone.
    expect(model.prompts).toHaveLength(2);
    expect(report.facts.episodes).toBe(0);
    expect(made.ledger()).toEqual([]);
  });

  it('keeps the text appraisal of a session whose push failed, and asks no second follow-up on the retry', async () => {
    const made = home({ command: { command: '/nonexistent/mecha-graph-mcp', args: [] } });
    made.writeSession(A, conversation());
    const first = await run(made);
    expect(first.counts.push_failed).toBe(1);
    expect(made.appraisals()).toHaveLength(1);
    expect(made.ledger()).toEqual([]);

    made.configure({});
    const model = scriptedDistiller();
    const report = await run(made, { model });
    expect(report.counts.pushed).toBe(1);
    // The distiller and the fact extraction again; no second follow-up.
    expect(model.prompts).toHaveLength(2);
    expect(report.appraisals).toMatchObject({ written: 0, onRecord: 1 });
    expect(made.appraisals()).toHaveLength(1);
    expect(made.ledger()).toEqual([{ session_id: A, outcome: 'pushed' }]);
  });

  it('stops on abort inside a model call and leaves that session unmarked', async () => {
    const made = home();
    made.writeSession(A, conversation());
    made.writeSession(B, conversation());
    const controller = new AbortController();
    let distillingB = false;
    // The abort lands on the first token of B's reply: inside the model call, by count, not time.
    const model = scriptedDistiller(undefined, {
      onToken: (emitted) => {
        if (distillingB && emitted === 1) controller.abort();
      },
    });
    const report = await run(made, {
      model,
      appraise: false,
      signal: controller.signal,
      onProgress: (progress) => {
        if (progress.sessionId === B && progress.step === 'distilling') distillingB = true;
      },
    });
    expect(report.stopped?.reason).toBe('aborted');
    expect(report.sessions.map((session) => session.outcome)).toEqual(['pushed', 'model_failed']);
    expect(made.ledger()).toEqual([{ session_id: A, outcome: 'pushed' }]);
    expect(readGraph(made.db).episodes.map((row) => row.source_id)).toEqual([A]);
  });

  it('starts nothing once aborted before the first session', async () => {
    const made = home();
    made.writeSession(A, conversation());
    const model = scriptedDistiller();
    const report = await run(made, { model, signal: AbortSignal.abort() });
    expect(report.stopped?.reason).toBe('aborted');
    expect(model.prompts).toHaveLength(0);
    expect(made.ledger()).toEqual([]);
  });

  it('in a dry run says what would be distilled and calls no model and writes nothing', async () => {
    const made = home();
    made.writeSession(A, conversation());
    made.writeSession(B, [events.start(), events.owner('msg-1', 'hi'), events.end()]);
    const model = scriptedDistiller();
    const report = await run(made, { model, dryRun: true });
    expect(report.sessions.map((session) => session.outcome)).toEqual([
      'would_distill',
      'would_mark_too_short',
    ]);
    expect(model.prompts).toHaveLength(0);
    expect(existsSync(made.db)).toBe(false);
    expect(made.ledger()).toEqual([]);
  });

  it('on a rerun over an unchanged home reads the ledger once and calls no model, starts no server', async () => {
    const made = home();
    made.writeSession(A, conversation());
    made.writeSession(B, conversation());
    await run(made);
    const before = readGraph(made.db);
    let asked = 0;
    const report = await run(made, {
      model: () => {
        asked += 1;
        return scriptedDistiller();
      },
    });
    expect(report).toMatchObject({
      modelCalls: 0,
      graphCalls: 0,
      ledgerReads: 1,
      alreadyDistilled: 2,
      considered: 0,
    });
    expect(asked).toBe(0);
    expect(readGraph(made.db)).toEqual(before);
  });

  it('looks at no more than the limit, oldest first', async () => {
    const made = home();
    made.writeSession(B, conversation());
    made.writeSession(A, conversation());
    const report = await run(made, { limit: 1, appraise: false });
    expect(report.sessions.map((session) => session.sessionId)).toEqual([A]);
  });

  it('leaves a session still running alone and does not mark it', async () => {
    const made = home();
    made.writeSession(A, conversation().slice(0, -1));
    const report = await run(made, { clock: () => new Date('2026-09-25T09:30:00Z') });
    expect(report.sessions).toMatchObject([{ sessionId: A, outcome: 'running' }]);
    expect(made.ledger()).toEqual([]);
  });
});
