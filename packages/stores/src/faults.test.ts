import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  boardRecordSchema,
  compactionEventSchema,
  counterEventSchema,
  interventionEventSchema,
  messageEventSchema,
  ownerOutcomeRecordSchema,
  questionRecordSchema,
  reflectionRecordSchema,
  requestRecordSchema,
  type SourceRead,
  stepCheckEventSchema,
  toolCallEventSchema,
  toolResultEventSchema,
  workflowRecordSchema,
} from '@mecha/appraisal-core';
import { rightOrThrow } from '@mecha/errors';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempDir } from './__fixtures__/temp-dir.js';
import { arbitraryOf } from './__fixtures__/zod-arbitrary.js';
import { homeLayout, sessionsEntry } from './home-layout.js';
import { renderRecords } from './jsonl-store.js';
import { type MechaHome, openHome } from './open-home.js';
import { closureWriter, outboxWriter } from './store-schemas.js';

interface StoreUnderTest {
  readonly file: string;
  readonly schema: z.ZodType;
  readonly read: (home: MechaHome) => Promise<SourceRead<unknown>>;
}

const session = 's-fault';
// The events of a run's middle: run_start and run_end carry the large conditions snapshot,
// whose generation would dominate this property's time; the recorder tests cover them.
const transcriptEvents = z.discriminatedUnion('type', [
  messageEventSchema,
  toolCallEventSchema,
  toolResultEventSchema,
  interventionEventSchema,
  stepCheckEventSchema,
  counterEventSchema,
  compactionEventSchema,
]);
const stores: readonly StoreUnderTest[] = [
  { file: homeLayout.outbox, schema: outboxWriter, read: (home) => home.outbox.read() },
  {
    file: homeLayout.questions,
    schema: questionRecordSchema,
    read: (home) => home.questions.read(),
  },
  { file: homeLayout.requests, schema: requestRecordSchema, read: (home) => home.requests.read() },
  { file: homeLayout.closures, schema: closureWriter, read: (home) => home.closures.read() },
  {
    file: homeLayout.workflows,
    schema: workflowRecordSchema,
    read: (home) => home.workflows.read(),
  },
  { file: homeLayout.board, schema: boardRecordSchema, read: (home) => home.board.history() },
  {
    file: homeLayout.reflections,
    schema: reflectionRecordSchema,
    read: (home) => home.learning.reflections.read(),
  },
  {
    file: homeLayout.ownerOutcomes,
    schema: ownerOutcomeRecordSchema,
    read: (home) => home.ownerOutcomes.read(),
  },
  {
    file: `${homeLayout.sessions}/${session}.jsonl`,
    schema: transcriptEvents,
    read: (home) => home.sessions.transcript(session),
  },
];

type Damage =
  | { readonly kind: 'truncate'; readonly at: number }
  | { readonly kind: 'garbage'; readonly at: number; readonly line: string }
  | { readonly kind: 'utf8'; readonly at: number }
  | { readonly kind: 'directory' }
  | { readonly kind: 'vanished' };

const damage: fc.Arbitrary<Damage> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('garbage' as const),
    at: fc.nat(),
    line: fc.oneof(
      fc.string({ minLength: 1 }).map((text) => `#${text.replaceAll('\n', ' ')}`),
      fc.constantFrom('{"v":999}', '42', 'null', '[]', '{"v":1'),
    ),
  }),
  fc.record({ kind: fc.constant('utf8' as const), at: fc.nat() }),
  fc.constant({ kind: 'directory' as const }),
  fc.constant({ kind: 'vanished' as const }),
);

/** Each store's records (as the schema outputs them: what a writer puts on disk) and maybe a damage. */
const homeContent = fc.tuple(
  ...stores.map((store) =>
    fc.record({
      records: fc.array(arbitraryOf(store.schema), { minLength: 1, maxLength: 5 }),
      damage: fc.option(damage, { nil: undefined }),
    }),
  ),
);

/** What a reader must answer for a store after its damage: its state, the records, the line. */
function expected(lines: readonly string[], hurt: Damage | undefined) {
  const records = lines.map((line) => JSON.parse(line) as unknown);
  if (hurt === undefined)
    return { state: 'read', records, skipped: [] as number[], text: `${lines.join('\n')}\n` };
  switch (hurt.kind) {
    case 'truncate': {
      // Cut inside one line, keeping at least its first character: that line is torn.
      const index = hurt.at % lines.length;
      const line = lines[index] as string;
      const keep = 1 + (hurt.at % (line.length - 1));
      const text = `${[...lines.slice(0, index), line.slice(0, keep)].join('\n')}`;
      return { state: 'partial', records: records.slice(0, index), skipped: [index + 1], text };
    }
    case 'garbage': {
      const index = hurt.at % (lines.length + 1);
      const text = `${[...lines.slice(0, index), hurt.line, ...lines.slice(index)].join('\n')}\n`;
      return { state: 'partial', records, skipped: [index + 1], text };
    }
    case 'utf8': {
      const index = hurt.at % lines.length;
      return {
        state: 'partial',
        records: records.filter((_, at) => at !== index),
        skipped: [index + 1],
        text: '',
      };
    }
    default:
      return { state: 'unreadable', records: [], skipped: [], text: '' };
  }
}

function writeDamaged(path: string, lines: readonly string[], hurt: Damage | undefined): void {
  // One home serves every run: clear what the last run left at this path first.
  rmSync(path, { recursive: true, force: true });
  mkdirSync(dirname(path), { recursive: true });
  const plan = expected(lines, hurt);
  if (hurt?.kind === 'directory') {
    mkdirSync(path);
  } else if (hurt?.kind === 'vanished') {
    // Written once (the manifest lists it), then gone.
  } else if (hurt?.kind === 'utf8') {
    const index = hurt.at % lines.length;
    const bytes = lines.map((line, at) => {
      const data = Buffer.from(`${line}\n`);
      if (at === index) data[hurt.at % (data.length - 1)] = 0xff;
      return data;
    });
    writeFileSync(path, Buffer.concat(bytes));
  } else {
    writeFileSync(path, plan.text);
  }
}

describe('readers of a damaged home', () => {
  it('never throw, report exactly the damaged stores, and return every intact record', async () => {
    const path = tempDir('mecha-faults-', { inMemory: true });
    await fc.assert(
      fc.asyncProperty(homeContent, async (content) => {
        const created: string[] = [sessionsEntry];
        const plans = stores.map((store, index) => {
          const { records, damage: hurt } = content[index] as {
            records: unknown[];
            damage?: Damage;
          };
          const rendered = rightOrThrow(renderRecords(store.schema, records), 'rendering');
          const lines = rendered.toString('utf8').trimEnd().split('\n');
          writeDamaged(join(path, store.file), lines, hurt);
          if (!store.file.startsWith(homeLayout.sessions)) created.push(store.file);
          return expected(lines, hurt);
        });
        writeFileSync(
          join(path, homeLayout.manifest),
          JSON.stringify({ v: 1, created: created.sort() }),
        );

        const home = openHome(path);
        for (const [index, store] of stores.entries()) {
          const plan = plans[index] as ReturnType<typeof expected>;
          const read = await store.read(home);
          expect(read.state, store.file).toBe(plan.state);
          if (read.state === 'unreadable') continue;
          expect(read.records, store.file).toEqual(plan.records);
          const skipped = read.state === 'partial' ? read.skipped.map((line) => line.line) : [];
          expect(skipped, store.file).toEqual(plan.skipped);
          if (read.state === 'partial') expect(read.skipped[0]?.file).toBe(store.file);
        }
      }),
    );
  }, 120_000);

  it('lists sessions beside a damaged transcript, and a vanished folder as unreadable', async () => {
    const path = tempDir();
    const home = openHome(path);
    await home.sessions.append('s-1', [
      {
        v: 1,
        at: '2026-09-25T09:00:00Z',
        run_id: 'r',
        type: 'run_start',
        session_id: 's-1',
        surface: 'web',
      },
    ]);
    writeFileSync(join(path, 'sessions', 's-2.jsonl'), Buffer.from([0xff, 0x0a]));
    const listing = await home.sessions.list();
    expect(listing.state === 'read' && listing.records.map((entry) => entry.kind)).toEqual([
      'ordinary',
      undefined,
    ]);
    rmSync(join(path, 'sessions'), { recursive: true });
    writeFileSync(join(path, 'sessions'), 'not a folder');
    expect((await home.sessions.list()).state).toBe('unreadable');
    expect(readFileSync(join(path, 'manifest.json'), 'utf8')).toContain('sessions/');
  });
});
