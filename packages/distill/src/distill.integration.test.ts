import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { textAppraisalRecordSchema } from '@mecha/appraisal-core';
import { generateHome } from '@mecha/fixtures/home';
import { openHome } from '@mecha/stores';
import { afterEach, describe, expect, it } from 'vitest';
import { readGraph, tempFolder, writeGraphConfig } from './__fixtures__/graph-home.js';
import { scriptedDistiller } from './__fixtures__/scripted-distiller.js';
import { testNow } from './__fixtures__/test-home.js';
import { distill } from './distill/distill.js';
import type { DistillOptions } from './distill/distill-options.js';
import type { DistillReport } from './distill/distill-report.js';

// The whole path with real parts: a generated home on disk, a real mecha-graph-mcp process
// spoken to by the MCP SDK's client, the stores' ledger under its lock, and the scripted model.

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

interface Generated {
  readonly home: string;
  readonly db: string;
  readonly pidFile: string;
}

function generated(
  seed: string,
  sessions: number,
  options: { readonly pidFile?: boolean } = {},
): Generated {
  const { folder, remove } = tempFolder();
  cleanups.push(remove);
  const home = join(folder, 'home');
  const db = join(folder, 'graph.db');
  const pidFile = join(folder, 'graph.pid');
  // A few torn transcripts (a crash leaves them) so that unknown taint is exercised too.
  generateHome({ path: home, seed, sessions, tornRate: 0.05 });
  writeGraphConfig(home, db, options.pidFile === true ? { pidFile } : {});
  return { home, db, pidFile };
}

/** What the scripted distiller says about a session: decided by its id, so reruns agree. */
function replyFor(sessionId: string): string {
  const pick = Number.parseInt(sessionId.slice(-2), 16) % 5;
  const correction = {
    wrong: `${sessionId} is at Brown`,
    right: `${sessionId} is at Yale`,
    about: sessionId,
  };
  if (pick === 0) return JSON.stringify({ skip: true, corrections: [correction] });
  if (pick === 1) {
    return JSON.stringify({
      skip: false,
      episode: `Session ${sessionId} settled where Priya Nair works.`,
      corrections: [correction],
      surprises: [{ about: sessionId, graph_said: 'the 14th', found: 'the 9th' }],
    });
  }
  return JSON.stringify({
    skip: false,
    episode: `Session ${sessionId} worked on the totals report.`,
  });
}

async function run(
  target: Generated,
  options: Partial<DistillOptions> = {},
): Promise<DistillReport> {
  const result = await distill({
    home: openHome(target.home, { clock: () => testNow }),
    model: scriptedDistiller(replyFor),
    clock: () => testNow,
    ...options,
  });
  if (result.state !== 'done') throw new Error(result.message);
  return result.report;
}

/** The taint of a transcript read straight from its bytes, independently of the code under test. */
function rawTaint(home: string, sessionId: string): 'clean' | 'untrusted' | 'unknown' {
  const text = readFileSync(join(home, 'sessions', `${sessionId}.jsonl`), 'utf8');
  const lines = text.split('\n');
  const torn =
    !text.endsWith('\n') ||
    lines.slice(0, -1).some((line) => {
      try {
        JSON.parse(line);
        return false;
      } catch {
        return true;
      }
    });
  if (torn || text.includes('"taint":"unknown"')) return 'unknown';
  return text.includes('"taint":"third_party"') ? 'untrusted' : 'clean';
}

function ledger(home: string): { session_id: string; outcome: string }[] {
  return readFileSync(join(home, 'learning', 'distilled.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { session_id: string; outcome: string });
}

const metaKeys = new Set([
  'taint',
  'distilled_by',
  'affect',
  'goal_errors',
  'goal',
  'serves_charter',
  'corrections',
  'surprises',
  'entities',
  'relations',
  'facts_by',
]);

describe('distilling a generated home of 200 sessions into a real graph server', () => {
  it('pushes every closed session, gates corrections on clean timelines, and a rerun does nothing', {
    timeout: 120_000,
  }, async () => {
    const target = generated('distill-200', 200);
    const ledgerBefore = ledger(target.home);
    const appraisalsBefore = readFileSync(
      join(target.home, 'appraisals', 'appraisals.jsonl'),
      'utf8',
    )
      .split('\n')
      .filter((line) => line !== '').length;

    const report = await run(target);
    expect(report.listed).toBe(200);
    expect(report.alreadyDistilled).toBe(new Set(ledgerBefore.map((mark) => mark.session_id)).size);
    expect(report.counts.pushed).toBeGreaterThan(30);
    expect(report.counts.skipped).toBeGreaterThan(3);
    const taints = report.sessions.map((session) => rawTaint(target.home, session.sessionId));
    expect(new Set(taints)).toEqual(new Set(['clean', 'untrusted', 'unknown']));
    expect(report.counts.push_failed + report.counts.model_failed + report.counts.unreadable).toBe(
      0,
    );
    expect(report.stopped).toBeUndefined();

    const { episodes, corrections } = readGraph(target.db);
    const pushed = report.sessions
      .filter((session) => session.outcome === 'pushed')
      .map((s) => s.sessionId);
    expect(episodes.map((row) => row.source_id).sort()).toEqual([...pushed].sort());

    let cleanWithCorrections = 0;
    for (const row of episodes) {
      expect(row).toMatchObject({
        kind: 'episode',
        source: 'agent:mecha',
        source_ref: join(target.home, 'sessions', `${row.source_id}.jsonl`),
        body: JSON.parse(replyFor(row.source_id)).episode,
        version: 1,
      });
      for (const key of Object.keys(row.meta)) expect(metaKeys.has(key), key).toBe(true);
      const taint = rawTaint(target.home, row.source_id);
      if (taint === 'unknown') expect(row.meta.taint).toStrictEqual({ unknown: true });
      else expect(row.meta.taint).toMatchObject({ untrusted: taint === 'untrusted' });
      const reported = JSON.parse(replyFor(row.source_id)).corrections !== undefined;
      expect('corrections' in row.meta, row.source_id).toBe(reported && taint === 'clean');
      expect('surprises' in row.meta, row.source_id).toBe(reported && taint === 'clean');
      if (reported && taint === 'clean') cleanWithCorrections += 1;
      expect(typeof row.meta.distilled_by).toBe('string');
    }

    // Corrections in the graph came only from sessions whose whole timeline is known clean.
    expect(corrections.length).toBeGreaterThan(0);
    for (const correction of corrections) {
      expect(correction.source).toBe('agent:mecha');
      expect(rawTaint(target.home, correction.source_id ?? ''), correction.source_id ?? '').toBe(
        'clean',
      );
    }
    const skippedClean = report.sessions.filter(
      (session) =>
        session.outcome === 'skipped' && rawTaint(target.home, session.sessionId) === 'clean',
    ).length;
    expect(corrections).toHaveLength(cleanWithCorrections + skippedClean);
    expect(report.corrections.sent).toBe(corrections.length);
    expect(report.corrections.withheld).toBe(report.corrections.reported - report.corrections.sent);
    expect(report.corrections.withheld).toBeGreaterThan(0);

    // The ledger gained exactly the pushed, skipped and too-short sessions, each once.
    const added = ledger(target.home).slice(ledgerBefore.length);
    const marked = report.sessions.filter((session) =>
      ['pushed', 'skipped', 'too_short'].includes(session.outcome),
    );
    expect(added.map((mark) => mark.session_id).sort()).toEqual(
      marked.map((session) => session.sessionId).sort(),
    );

    // One text appraisal per pushed session that had none, each valid and carrying its taint.
    const appraisals = readFileSync(join(target.home, 'appraisals', 'appraisals.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .slice(appraisalsBefore)
      .map((line) => textAppraisalRecordSchema.parse(JSON.parse(line)));
    expect(appraisals).toHaveLength(report.appraisals.written);
    expect(report.appraisals.written + report.appraisals.onRecord).toBe(report.counts.pushed);
    for (const appraisal of appraisals) {
      const taint = rawTaint(target.home, appraisal.session_id);
      expect(appraisal.taint).toBe(taint === 'untrusted' ? 'third_party' : taint);
    }

    const rerun = await run(target, {
      model: () => Promise.reject(new Error('a rerun must not need a model')),
    });
    expect(rerun).toMatchObject({ modelCalls: 0, graphCalls: 0, ledgerReads: 1 });
    expect(rerun.counts.pushed + rerun.counts.skipped + rerun.counts.too_short).toBe(0);
    expect(readGraph(target.db)).toEqual({ episodes, corrections });
  });

  it('leaves unpushed sessions unmarked when the server is killed mid-run; a rerun finishes them without duplicates', {
    timeout: 120_000,
  }, async () => {
    const target = generated('distill-kill', 120, { pidFile: true });
    let pushes = 0;
    const first = await run(target, {
      appraise: false,
      onProgress: (progress) => {
        if (progress.step === 'finished' && progress.outcome === 'pushed') {
          pushes += 1;
          if (pushes === 5)
            process.kill(Number(readFileSync(target.pidFile, 'utf8').trim()), 'SIGKILL');
        }
      },
    });
    expect(first.counts.pushed).toBe(5);
    expect(first.counts.push_failed).toBe(1);
    expect(first.stopped?.reason).toBe('graph_unavailable');
    const failed =
      first.sessions.find((session) => session.outcome === 'push_failed')?.sessionId ?? '';
    const markedFirst = ledger(target.home).map((mark) => mark.session_id);
    expect(markedFirst).not.toContain(failed);
    const firstPushed = first.sessions
      .filter((session) => session.outcome === 'pushed')
      .map((s) => s.sessionId);
    expect(
      readGraph(target.db)
        .episodes.map((row) => row.source_id)
        .sort(),
    ).toEqual([...firstPushed].sort());

    const second = await run(target, { appraise: false });
    expect(second.stopped).toBeUndefined();
    expect(second.sessions.find((session) => session.sessionId === failed)?.outcome).toBe('pushed');
    expect(second.sessions.map((session) => session.sessionId)).not.toContain(firstPushed[0]);

    const rows = readGraph(target.db).episodes;
    const ids = rows.map((row) => row.source_id);
    expect(new Set(ids).size).toBe(ids.length);
    const pushedEver = [...first.sessions, ...second.sessions]
      .filter((session) => session.outcome === 'pushed')
      .map((session) => session.sessionId);
    expect(ids.sort()).toEqual([...pushedEver].sort());
    const marks = ledger(target.home).map((mark) => mark.session_id);
    expect(new Set(marks).size).toBe(marks.length);
    expect(rows.every((row) => row.version === 1)).toBe(true);

    const third = await run(target);
    expect(third).toMatchObject({ modelCalls: 0, graphCalls: 0, ledgerReads: 1 });
  });
});
