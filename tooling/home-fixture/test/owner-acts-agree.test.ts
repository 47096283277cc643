import { join } from 'node:path';
import {
  appraiseCorpus,
  type RecordedAct,
  readSessionStores,
  recordedActs,
  type SourceRead,
  successes,
} from '@mecha/appraisal-core';
import { readValue } from '@mecha/homeostat';
import { homePorts, openHome, situationFromHome } from '@mecha/stores';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../src/__fixtures__/temp-dir.js';
import { generateHome } from '../src/generate-home.js';

const now = new Date('2027-01-01T00:00:00Z');

function all<T>(source: SourceRead<T>): readonly T[] {
  expect(source.state).toBe('read');
  return source.state === 'read' ? source.records : [];
}

const ids = (acts: readonly RecordedAct[]) => acts.map((act) => act.id).sort();

// One real home on disk, written by the generator through the stores' own record checks, read
// by every reader of the owner's acts: each must count what `recordedActs` derives from it.
describe('every reader of the owner acts agrees on one home', () => {
  it('successes, the corpus readout and the situation brief count the derived acts', async () => {
    const generated = generateHome({
      path: join(tempDir(), 'home'),
      seed: 'owner-acts',
      sessions: 240,
      // Within the brief's 90 days before `now`, so earlier attempts are found.
      start: new Date('2026-11-01T00:00:00Z'),
      days: 50,
      tornRate: 0,
    });
    const home = openHome(generated.path);
    const ports = homePorts(home);
    const stores = await readSessionStores(ports);
    const acts = recordedActs({
      outbox: all(stores.outbox),
      closures: all(stores.closures),
      workflows: all(stores.workflows),
      questions: all(stores.questions),
    });
    const of = (...kinds: RecordedAct['act'][]) => acts.filter((act) => kinds.includes(act.act));
    // The home holds every kind the readers below count, so no check passes on nothing.
    for (const kind of [
      'draft_sent_unchanged',
      'task_closed',
      'task_dropped',
      'task_reopened',
      'workflow_closed',
      'workflow_cancelled',
      'workflow_reopened',
      'question_answered',
    ] as const) {
      expect(of(kind).length, kind).toBeGreaterThan(0);
    }

    // successes: one success per (act, session), cited by the act's id.
    const listed = await ports.sessions.list();
    const readout = await successes(ports, { includeTests: true, examples: false });
    const cited = (kind: string) =>
      [
        ...new Set(
          readout.successes.filter((each) => each.kind === kind).map((each) => each.cite.id),
        ),
      ].sort();
    expect(cited('task_closed_done')).toEqual(
      ids(of('task_closed').filter((act) => act.session_ids.length > 0)),
    );
    const withdrawnCites = new Set(
      readout.successes
        .filter((each) => each.withdrawn_by !== undefined)
        .map((each) => each.cite.id),
    );
    for (const act of acts) {
      if (act.act !== 'task_closed' && act.act !== 'workflow_closed') continue;
      if (act.act === 'workflow_closed' && !(act.effective && act.checked)) continue;
      if (act.session_ids.length === 0) continue;
      expect(withdrawnCites.has(act.id), act.id).toBe(act.withdrawn_by !== undefined);
    }
    expect(cited('workflow_closed_after_check')).toEqual(
      ids(
        of('workflow_closed').filter(
          (act) =>
            act.act === 'workflow_closed' && act.effective && act.checked && act.started.length > 0,
        ),
      ),
    );
    expect(cited('draft_sent_unchanged')).toEqual(
      ids(
        of('draft_sent_unchanged').filter(
          (act) => act.act === 'draft_sent_unchanged' && act.deciding && act.sure,
        ),
      ),
    );

    // The corpus readout: each act once, when it signs on a session of the population.
    const population = new Set(
      all(listed)
        .filter((listing) => listing.kind !== undefined && listing.kind !== 'experiment')
        .map((listing) => listing.sessionId),
    );
    const inPopulation = (act: RecordedAct) => act.session_ids.some((id) => population.has(id));
    const standing = (act: RecordedAct) =>
      (act.act === 'task_closed' || act.act === 'task_dropped'
        ? act.withdrawn_by === undefined && (act.sure || act.act === 'task_dropped')
        : act.act === 'workflow_closed' || act.act === 'workflow_cancelled'
          ? act.effective && act.withdrawn_by === undefined
          : true) && inPopulation(act);
    const corpus = await appraiseCorpus(ports, { now, includeTests: true });
    expect(corpus.owner_acts).toMatchObject({
      task_closed: of('task_closed').filter(standing).length,
      task_dropped: of('task_dropped').filter(standing).length,
      task_reopened: of('task_reopened').filter(
        (act) => act.act === 'task_reopened' && act.from === 'done' && inPopulation(act),
      ).length,
      workflow_closed: of('workflow_closed').filter(standing).length,
      workflow_cancelled: of('workflow_cancelled').filter(standing).length,
      workflow_reopened: of('workflow_reopened').filter(
        (act) =>
          act.act === 'workflow_reopened' && act.reopened_from === 'closed' && inPopulation(act),
      ).length,
    });

    // The situation brief: the acts on each earlier attempt shown, by the brief's names.
    const briefNames: Partial<Record<RecordedAct['act'], string>> = {
      draft_rejected: 'draft_rejected',
      draft_sent_unchanged: 'draft_sent_unchanged',
      draft_sent_edited: 'draft_sent_edited',
      draft_cancelled: 'draft_cancelled',
      task_closed: 'task_closed',
      task_dropped: 'task_closed',
      task_reopened: 'task_reopened',
      question_answered: 'question_answered',
      question_abandoned: 'question_let_go',
    };
    const comparedKinds = new Set<string>();
    const taskIds = [
      ...new Set(
        of('task_closed', 'task_dropped', 'task_reopened').map(
          (act) => (act.record as { task_id: string }).task_id,
        ),
      ),
    ];
    for (const taskId of taskIds) {
      const input = await situationFromHome(home, {
        goal: { kind: 'task', id: taskId },
        now: now.getTime(),
        conditions: undefined,
        timeZone: readValue('UTC'),
      });
      expect(input.attempts.state).toBe('read');
      if (input.attempts.state !== 'read' || input.attempts.value.kind !== 'task') continue;
      for (const attempt of input.attempts.value.sessions) {
        if (attempt.ownerActs.state !== 'read') continue;
        const expected = acts
          .filter((act) => act.session_ids.includes(attempt.sessionId))
          .filter((act) => !act.act.startsWith('draft_') || act.sure)
          .flatMap((act) => briefNames[act.act] ?? [])
          .sort();
        expect(attempt.ownerActs.value.map((act) => act.act).sort(), attempt.sessionId).toEqual(
          expected,
        );
        for (const name of expected) comparedKinds.add(name);
      }
    }
    // Every kind the brief names was compared on some attempt.
    expect([...comparedKinds].sort()).toEqual(
      expect.arrayContaining([
        'draft_sent_unchanged',
        'question_answered',
        'question_let_go',
        'task_closed',
        'task_reopened',
      ]),
    );
  });
});
