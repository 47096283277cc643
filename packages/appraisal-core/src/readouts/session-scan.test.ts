import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { corpusArbitrary, corpusNow } from '../__fixtures__/corpus-arbitrary.js';
import { type MemorySession, memoryPorts, partial } from '../__fixtures__/memory-ports.js';
import { at } from '../__fixtures__/records.js';
import type { AppraisalPorts, SessionListing } from '../ports/appraisal-ports.js';
import { projectTranscript } from '../ports/transcript-cache.js';
import { populationRule, scanPopulation, selectPopulation } from '../rules/population.js';
import type { SourceRead } from '../schemas/source-read.js';
import type { TranscriptEvent } from '../schemas/transcript.js';
import { appraiseCorpus } from './appraise-corpus.js';
import { health } from './health.js';

const now = new Date(at(24 * 40));

const listingArbitrary: fc.Arbitrary<SessionListing> = fc.record(
  {
    sessionId: fc.constantFrom('s-a', 's-b', 's-c', 's-d', 's-e'),
    startedAt: fc.integer({ min: 0, max: 24 * 40 }).map(at),
    kind: fc.constantFrom('ordinary', 'test', 'experiment'),
    surface: fc.constantFrom('cli', 'web', 'task'),
  },
  { requiredKeys: ['sessionId', 'startedAt'] },
);

const optionsArbitrary = fc.record(
  {
    days: fc.integer({ min: 1, max: 45 }),
    kind: fc.constantFrom('cli', 'web', 'test', 'experiment'),
    includeTests: fc.boolean(),
  },
  { requiredKeys: [] },
);

describe('populationRule', () => {
  it('stands each session exactly as selectPopulation counts it', () => {
    fc.assert(
      fc.property(fc.array(listingArbitrary, { maxLength: 8 }), optionsArbitrary, (list, extra) => {
        const options = { now, ...extra };
        const { standing } = populationRule(options);
        const population = selectPopulation(list, options);
        const firsts = [...new Map(list.map((entry) => [entry.sessionId, entry])).keys()].map(
          (id) => list.find((entry) => entry.sessionId === id) as SessionListing,
        );
        const count = (which: string) => firsts.filter((entry) => standing(entry) === which).length;
        expect(population.members.map((member) => member.sessionId)).toEqual(
          firsts
            .filter((entry) => standing(entry) === 'member')
            .map((entry) => entry.sessionId)
            .sort(),
        );
        expect(population.headUnreadable).toBe(count('head_unreadable'));
        expect(population.testsHidden).toBe(count('test_hidden'));
        expect(population.experimentsHidden).toBe(count('experiment_hidden'));
      }),
    );
  });
});

describe('scanPopulation over a port built by scanByListing', () => {
  it('hands over each member once, in listing order, and the listing list() gives', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(listingArbitrary, { maxLength: 8 }),
        optionsArbitrary,
        async (list, extra) => {
          const sessions: MemorySession[] = list.map((listing) => ({
            listing,
            transcript: [],
          }));
          const ports = memoryPorts({ sessions });
          const visited: string[] = [];
          const progress: [number, number][] = [];
          const { listing, population } = await scanPopulation(ports.sessions, {
            population: { now, ...extra },
            progress: (scanned, total) => progress.push([scanned, total]),
            visit: (member) => visited.push(member.sessionId),
          });
          expect(listing).toEqual(await ports.sessions.list());
          expect([...visited].sort()).toEqual(population.members.map((m) => m.sessionId));
          expect(new Set(visited).size).toBe(visited.length);
          expect(visited).toEqual(
            list
              .map((entry) => entry.sessionId)
              .filter((id, index, ids) => ids.indexOf(id) === index && visited.includes(id)),
          );
          expect(progress.at(-1)).toEqual([list.length, list.length]);
        },
      ),
    );
  });

  it('hands over every listed session once when asked for every one', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(listingArbitrary, { maxLength: 8 }), async (list) => {
        const ports = memoryPorts({
          sessions: list.map((listing) => ({ listing, transcript: [] })),
        });
        const visited: string[] = [];
        await ports.sessions.scan({
          population: 'every',
          visit: (member) => visited.push(member.sessionId),
        });
        expect(visited).toEqual([...new Set(list.map((entry) => entry.sessionId))]);
      }),
    );
  });

  it('reads nothing when the listing is unreadable, and says so', async () => {
    const ports = memoryPorts({ sessions: { state: 'unreadable', reason: 'gone' } });
    const visited: string[] = [];
    const { listing, population } = await scanPopulation(ports.sessions, {
      population: { now },
      visit: (member) => visited.push(member.sessionId),
    });
    expect(listing).toEqual({ state: 'unreadable', reason: 'gone' });
    expect(population.members).toEqual([]);
    expect(visited).toEqual([]);
  });
});

const filler = (runId: string, time: string, index: number): TranscriptEvent[] => [
  {
    v: 1,
    type: 'message',
    at: time,
    run_id: runId,
    turn: index,
    message_id: `m-${index}`,
    role: 'third_party',
    taint: 'third_party',
  },
  {
    v: 1,
    type: 'tool_call',
    at: time,
    run_id: runId,
    turn: index,
    call_id: `c-${index}`,
    tool: 'web_fetch',
    target: 'https://example.org/',
    args_digest: 'sha256:00',
  },
];

describe('projectTranscript', () => {
  it('keeps the chosen types in order, the last event always, and the read state', () => {
    const events: TranscriptEvent[] = [
      { v: 1, type: 'compaction', at: at(1), run_id: 'r', turn: 1 },
      ...filler('r', at(2), 2),
    ];
    const read: SourceRead<TranscriptEvent> = partial(events);
    const cut = projectTranscript(read, ['compaction']);
    expect(cut).toEqual({ ...read, records: [events[0], events[2]] });
    expect(projectTranscript(read, undefined)).toBe(read);
    expect(projectTranscript(read, ['compaction', 'message', 'tool_call'])).toBe(read);
  });
});

/**
 * The same ports, but a scan that hands over whole transcripts whatever the visitor's event
 * types: what a port that never projects gives.
 */
function unprojected(ports: AppraisalPorts): AppraisalPorts {
  return {
    ...ports,
    sessions: {
      ...ports.sessions,
      scan: ({ events: _ignored, ...visitor }) => ports.sessions.scan(visitor),
    },
  };
}

// Messages and tool calls (which the readouts never sign from) put between and after the
// recorded events, the last one sometimes later than every run's end, sometimes in a run no
// other line names; and sometimes one recorded event lost, as a damaged line loses it.
const withFiller = corpusArbitrary.chain((corpus) =>
  fc
    .array(
      fc.tuple(
        fc.nat({ max: 20 }),
        fc.boolean(),
        fc.option(fc.nat({ max: 20 })),
        fc.constantFrom('own', 'first'),
      ),
      { minLength: corpus.sessions.length, maxLength: corpus.sessions.length },
    )
    .map((plans) => ({
      ...corpus,
      sessions: corpus.sessions.map((session, index): MemorySession => {
        const [position, late, lost, run] = plans[index] as [
          number,
          boolean,
          number | null,
          'own' | 'first',
        ];
        const whole = Array.isArray(session.transcript)
          ? (session.transcript as TranscriptEvent[])
          : [];
        const records = lost === null ? whole : whole.filter((_, at) => at !== lost);
        const cut = Math.min(position, records.length);
        // The filler's run: the session's first, or one known only from these lines.
        const runId = run === 'own' ? 'r-seen-only-in-messages' : (records[0]?.run_id ?? 'r');
        const time = records[Math.max(0, cut - 1)]?.at ?? at(0);
        const lateTime = new Date(Date.parse(records.at(-1)?.at ?? at(0)) + 3_600_000);
        return {
          ...session,
          transcript: [
            ...records.slice(0, cut),
            ...filler(runId, time, cut),
            ...records.slice(cut),
            ...(late ? filler(runId, lateTime.toISOString(), 99) : []),
          ],
        };
      }),
    })),
);

describe('what the readouts read of a transcript', () => {
  it('appraises a corpus and reads its health the same from cut-down transcripts', async () => {
    await fc.assert(
      fc.asyncProperty(withFiller, fc.integer({ min: 1, max: 45 }), async (corpus, days) => {
        const ports = memoryPorts(corpus);
        const options = { now: corpusNow, days };
        expect(await appraiseCorpus(ports, options)).toEqual(
          await appraiseCorpus(unprojected(memoryPorts(corpus)), options),
        );
        expect(await health(ports, options)).toEqual(
          await health(unprojected(memoryPorts(corpus)), options),
        );
      }),
    );
  });
});
