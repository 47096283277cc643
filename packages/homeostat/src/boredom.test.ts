import type { TranscriptEvent } from '@mecha/appraisal-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callAndResult, runStart } from './__fixtures__/events.js';
import { boredomDetector, boredomRungs, detectBoredom } from './boredom.js';

let next = 0;
const read = (target: string, digest: string, tool = 'read_file', turn = 0) =>
  callAndResult({ id: `c-${next++}`, tool, target, digest, turn });

/** `times` identical reads of one target. */
const repeated = (times: number, target = 'src/a.ts', digest = 'sha:aaa') =>
  Array.from({ length: times }, (_, turn) => read(target, digest, 'read_file', turn)).flat();

describe('detectBoredom', () => {
  it('climbs the rungs 3, 6 and 12, once each, and never fires per turn', () => {
    expect(boredomRungs).toEqual([3, 6, 12]);
    const notices = detectBoredom([runStart(), ...repeated(30)]);
    expect(notices.map((notice) => [notice.rung, notice.repeats, notice.turn])).toEqual([
      [1, 3, 2],
      [2, 6, 5],
      [3, 12, 11],
    ]);
  });

  it('stays quiet below the first rung', () => {
    expect(detectBoredom([runStart(), ...repeated(2)])).toEqual([]);
  });

  it('names the condition and what is reachable, and asks nothing', () => {
    const [notice] = detectBoredom([
      runStart({ tools: ['read_file', 'shell', 'grep', 'edit_file'] }),
      ...read('src/a.ts', 'sha:aaa', 'read_file'),
      ...read('src/a.ts', 'sha:aaa', 'shell'),
      ...read('src/a.ts', 'sha:aaa', 'read_file'),
    ]);
    expect(notice).toMatchObject({
      rung: 1,
      repeats: 3,
      target: 'src/a.ts',
      tools: ['read_file', 'shell'],
      untriedTools: ['grep', 'edit_file'],
    });
    expect(notice?.text).toMatchInlineSnapshot(
      `"Boredom, rung 1 of 3, from the harness: the last 3 results from \`src/a.ts\` (through \`read_file\` and \`shell\`) were the same bytes, so repeating that call has taught this run nothing since the first. Tools this run has that have not touched \`src/a.ts\`: \`grep\` and \`edit_file\`. This notice changes nothing; what to do next stays yours."`,
    );
  });

  it('counts two tools reading the same bytes as one thing learned twice', () => {
    const events = [
      runStart(),
      ...read('notes.md', 'sha:n', 'read_file'),
      ...read('notes.md', 'sha:n', 'cat'),
      ...read('notes.md', 'sha:n', 'open_url'),
    ];
    expect(detectBoredom(events)).toHaveLength(1);
  });

  it('says so when the run did not record its tools, and keys a call with no target on its arguments', () => {
    const events = [
      runStart(),
      ...Array.from({ length: 3 }, (_, turn) =>
        callAndResult({ id: `q-${turn}`, tool: 'search', args: 'args:1', digest: 'sha:r', turn }),
      ).flat(),
    ];
    const [notice] = detectBoredom(events);
    expect(notice?.target).toBeUndefined();
    expect(notice?.untriedTools).toBeUndefined();
    expect(notice?.text).toMatchInlineSnapshot(
      `"Boredom, rung 1 of 3, from the harness: the last 3 results from the same call of \`search\` with the same arguments were the same bytes, so repeating that call has taught this run nothing since the first. Which other tools this run has was not recorded. This notice changes nothing; what to do next stays yours."`,
    );
  });

  it('does not count denied calls, and a result with no digest breaks the run of repeats', () => {
    const denied = Array.from({ length: 5 }, (_, turn) =>
      callAndResult({
        id: `d-${turn}`,
        tool: 'shell',
        target: 'x',
        digest: 'sha:x',
        status: 'denied',
        turn,
      }),
    ).flat();
    expect(detectBoredom([runStart(), ...denied])).toEqual([]);
    const broken = [
      runStart(),
      ...read('x', 'sha:x'),
      ...read('x', 'sha:x'),
      ...callAndResult({ id: 'nd', tool: 'read_file', target: 'x' }),
      ...read('x', 'sha:x'),
      ...read('x', 'sha:x'),
    ];
    expect(detectBoredom(broken)).toEqual([]);
  });

  it('starts over for each run', () => {
    const notices = detectBoredom([
      runStart(),
      ...repeated(3),
      runStart({ runId: 'run-2' }),
      ...repeated(3),
    ]);
    expect(notices.map((notice) => notice.rung)).toEqual([1, 1]);
  });

  it('observes one event at a time, returning at most one notice per event', () => {
    const detector = boredomDetector();
    const seen = [runStart(), ...repeated(12)].map((event) => detector.observe(event));
    expect(seen.filter((notice) => notice !== undefined)).toHaveLength(3);
  });
});

describe('detectBoredom, as properties', () => {
  const digest = fc.constantFrom('sha:1', 'sha:2', 'sha:3');

  it('never fires on polling: the same call whose result keeps changing', () => {
    fc.assert(
      fc.property(
        fc.array(digest, { minLength: 1, maxLength: 60 }),
        fc.boolean(),
        (digests, withTarget) => {
          // Each result differs from the one before it; values may come back later (A, B, A, …).
          const changing = digests.filter(
            (value, index) => index === 0 || value !== digests[index - 1],
          );
          const events = changing.flatMap((value, turn) =>
            callAndResult({
              id: `p-${turn}`,
              tool: 'job_status',
              ...(withTarget ? { target: 'job/42' } : { args: 'args:same' }),
              digest: value,
              turn,
            }),
          );
          expect(detectBoredom([runStart(), ...events])).toEqual([]);
        },
      ),
    );
  });

  /** A random session: reads of a few targets, each giving one of a few results. */
  const calls = fc.array(
    fc.record({
      target: fc.constantFrom('a', 'b', 'c', 'd'),
      digest,
      tool: fc.constantFrom('read_file', 'cat'),
    }),
    { maxLength: 80 },
  );
  const toEvents = (list: readonly { target: string; digest: string; tool: string }[]) =>
    list.flatMap((call, turn) =>
      callAndResult({
        id: `r-${turn}`,
        tool: call.tool,
        target: call.target,
        digest: call.digest,
        turn,
      }),
    );

  it('fires at most once per rung, in rung order', () => {
    fc.assert(
      fc.property(calls, (list) => {
        const rungs = detectBoredom([runStart(), ...toEvents(list)]).map((notice) => notice.rung);
        expect(rungs).toEqual(rungs.map((_, index) => index + 1));
        expect(rungs.length).toBeLessThanOrEqual(boredomRungs.length);
      }),
    );
  });

  it('gives the same count however calls on unrelated targets are interleaved', () => {
    fc.assert(
      fc.property(calls, fc.infiniteStream(fc.nat()), (list, choices) => {
        // Regroup: keep each target's calls in order, but interleave targets at random.
        const byTarget = new Map<string, typeof list>();
        for (const call of list)
          byTarget.set(call.target, [...(byTarget.get(call.target) ?? []), call]);
        const queues = [...byTarget.values()].map((queue) => [...queue]);
        const shuffled: typeof list = [];
        const pick = choices[Symbol.iterator]();
        while (queues.some((queue) => queue.length > 0)) {
          const open = queues.filter((queue) => queue.length > 0);
          const queue = open[(pick.next().value as number) % open.length];
          const call = queue?.shift();
          if (call !== undefined) shuffled.push(call);
        }
        const count = (order: typeof list) =>
          detectBoredom([runStart(), ...toEvents(order)]).length;
        expect(count(shuffled)).toBe(count(list));
      }),
    );
  });

  it('ignores events that are not calls or results', () => {
    fc.assert(
      fc.property(calls, (list) => {
        const events = toEvents(list);
        const noisy: TranscriptEvent[] = events.flatMap((event, turn) => [
          event,
          { v: 1, at: '2026-09-25T09:00:00Z', run_id: 'run-1', type: 'compaction', turn },
        ]);
        expect(detectBoredom([runStart(), ...noisy])).toEqual(
          detectBoredom([runStart(), ...events]),
        );
      }),
    );
  });
});
