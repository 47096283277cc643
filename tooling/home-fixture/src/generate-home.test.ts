import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { appraiseCorpus } from '@mecha/appraisal-core';
import { homePorts, openHome } from '@mecha/stores';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from './__fixtures__/temp-dir.js';
import { generateHome } from './generate-home.js';

function filesOf(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(root, path), readFileSync(path, 'latin1'));
    }
  };
  walk(root);
  return files;
}

describe('generateHome', () => {
  it('makes byte-identical homes from one seed', () => {
    const first = generateHome({ path: join(tempDir(), 'home'), seed: 'same', sessions: 150 });
    const second = generateHome({ path: join(tempDir(), 'home'), seed: 'same', sessions: 150 });
    expect(filesOf(second.path)).toEqual(filesOf(first.path));
    expect({ ...second, path: '' }).toEqual({ ...first, path: '' });
  });

  it('makes a different home from another seed', () => {
    const first = generateHome({ path: join(tempDir(), 'home'), seed: 1, sessions: 50 });
    const second = generateHome({ path: join(tempDir(), 'home'), seed: 2, sessions: 50 });
    expect(filesOf(second.path)).not.toEqual(filesOf(first.path));
  });

  it('writes only records that read back valid; only the torn transcripts are partial', async () => {
    const generated = generateHome({
      path: join(tempDir(), 'home'),
      seed: 'valid',
      sessions: 400,
      tornRate: 0.02,
    });
    expect(generated.tornLines).toBeGreaterThan(0);
    const home = openHome(generated.path);
    const listing = await home.sessions.list();
    expect(listing.state === 'read' && listing.records).toHaveLength(400);
    let events = 0;
    let partial = 0;
    for (const entry of listing.state === 'read' ? listing.records : []) {
      expect(entry.kind).toBeDefined();
      const transcript = await home.sessions.transcript(entry.sessionId);
      expect(transcript.state).not.toBe('unreadable');
      if (transcript.state === 'partial') {
        partial += 1;
        expect(transcript.skipped.map((line) => line.reason)).toEqual([
          'torn final line: no newline and not JSON',
        ]);
      }
      if (transcript.state !== 'unreadable') events += transcript.records.length;
    }
    expect(partial).toBe(generated.tornLines);
    expect(events).toBe((generated.lines['sessions/'] ?? 0) - generated.tornLines);

    const stores = [
      home.outbox,
      home.questions,
      home.requests,
      home.closures,
      home.workflows,
      home.learning.reflections,
      home.learning.rules,
      home.learning.distilled,
      home.ownerOutcomes,
      home.appraisals.textAppraisals,
      home.appraisals.scores,
      home.appraisals.counterfactuals,
      home.appraisals.comparisons,
      home.predictions,
    ];
    for (const store of stores) {
      const read = await store.read();
      expect(read.state, store.file).toBe('read');
      expect(read.state === 'read' && read.records.length, store.file).toBe(
        generated.lines[store.file] ?? 0,
      );
    }
    expect((await home.board.history()).state).toBe('read');
    expect(home.readCharter().state).toBe('read');
    expect(E.isRight(home.readConfig())).toBe(true);
  });

  it('covers the cases a readout has to tell apart', async () => {
    const generated = generateHome({
      path: join(tempDir(), 'home'),
      seed: 'cover',
      sessions: 1000,
    });
    const home = openHome(generated.path);
    const listing = await home.sessions.list();
    const kinds = new Set(
      listing.state === 'read' ? listing.records.map((entry) => entry.kind) : [],
    );
    expect(kinds).toEqual(new Set(['ordinary', 'test', 'experiment']));

    const seen = new Set<string>();
    for (const entry of listing.state === 'read' ? listing.records : []) {
      const transcript = await home.sessions.transcript(entry.sessionId);
      for (const event of transcript.state === 'unreadable' ? [] : transcript.records) {
        if (event.type === 'run_start' && event.resumed) seen.add('resumed');
        if (event.type === 'intervention') seen.add(event.kind);
        if (event.type === 'compaction') seen.add('compaction');
        if (event.type === 'run_end') seen.add(event.stop_cause);
        if (event.type === 'tool_result' && event.taint === 'third_party') seen.add('third_party');
        if (event.type === 'step_check' && !event.passed) seen.add('step_failed');
      }
    }
    for (const expected of [
      'resumed',
      'steer',
      'deny',
      'stop',
      'compaction',
      'turn_ceiling',
      'parked',
      'third_party',
      'step_failed',
    ]) {
      expect(seen, expected).toContain(expected);
    }

    const outbox = await home.outbox.read();
    const senders = new Set(
      outbox.state === 'read'
        ? outbox.records.flatMap((r) => (r.type === 'outcome' ? [`${r.outcome}:${r.sender}`] : []))
        : [],
    );
    for (const expected of [
      'sent_unchanged:owner',
      'sent_unchanged:run_shell',
      'sent_unchanged:unrecorded',
      'sent_edited:owner',
      'rejected:owner',
      'cancelled:owner',
    ]) {
      expect(senders, expected).toContain(expected);
    }
    const closures = await home.closures.read();
    const moves = new Set(
      closures.state === 'read'
        ? closures.records.map(
            (r) => `${r.to}:${r.who}:${r.reopens === undefined ? 'close' : 'reopen'}`,
          )
        : [],
    );
    for (const expected of [
      'done:owner:close',
      'dropped:owner:close',
      'done:unknown:close',
      'next:owner:reopen',
      'done:agent_with_approval:close',
    ]) {
      expect(moves, expected).toContain(expected);
    }
    const workflows = await home.workflows.read();
    const lifecycle = new Set(
      workflows.state === 'read' ? workflows.records.map((r) => r.type) : [],
    );
    expect(lifecycle).toEqual(new Set(['started', 'verified', 'closed', 'cancelled', 'reopened']));
  });

  it('gives the appraisal core a home it can read through the ports', async () => {
    const generated = generateHome({ path: join(tempDir(), 'home'), seed: 'ports', sessions: 200 });
    const readout = await appraiseCorpus(homePorts(openHome(generated.path)), {
      now: new Date('2026-12-01T00:00:00Z'),
    });
    expect(readout.sessions_read).toBeGreaterThan(100);
    expect(readout.outbox_read).toBe(true);
    expect(readout.closures_read).toBe(true);
  });
});
