import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appraiseCorpus, transcriptEventSchema } from '@mecha/appraisal-core';
import { generateHome } from '@mecha/fixtures/home';
import { createSessionRecorder, homePorts, openHome } from '@mecha/stores';
import { recordValidator } from '@mecha/stores/testing';
import { type Measurement, measure, type ResultTable } from '../measure.js';
import type { Suite } from './index.js';

const now = new Date('2026-12-01T00:00:00Z');

function ms(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toFixed(1);
}

function perItem(median: number, items: number): string {
  const micro = (median * 1000) / items;
  return micro >= 1000 ? `${(micro / 1000).toFixed(2)} ms` : `${micro.toFixed(2)} µs`;
}

function ratio(measurement: Measurement, baseline: Measurement): string {
  return `${(measurement.median / baseline.median).toFixed(2)}×`;
}

function jsonlFiles(folder: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) files.push(...jsonlFiles(path));
    else if (name.endsWith('.jsonl')) files.push(path);
  }
  return files;
}

/** The floor: read every JSONL file of the home and `JSON.parse` every line, nothing else. */
function readAndParse(files: readonly string[]): number {
  let lines = 0;
  for (const file of files) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line === '') continue;
      try {
        JSON.parse(line);
        lines += 1;
      } catch {
        // A torn line: the floor skips it too.
      }
    }
  }
  return lines;
}

/**
 * Everything the readers return for a home: the listing, every transcript, every store. The
 * transcripts come from one scan (each file opened once), or from `list` and then one
 * `transcript` per session (each file opened twice: its head, then the whole of it).
 */
async function readHome(path: string, transcripts: 'scan' | 'list-then-read'): Promise<number> {
  const home = openHome(path);
  const ports = homePorts(home);
  let records = 0;
  if (transcripts === 'scan') {
    await ports.sessions.scan({
      population: { now, includeTests: true },
      visit: (_member, transcript) => {
        if (transcript.state !== 'unreadable') records += transcript.records.length;
      },
    });
  } else {
    const listing = await ports.sessions.list();
    for (const entry of listing.state === 'unreadable' ? [] : listing.records) {
      const transcript = await ports.sessions.transcript(entry.sessionId);
      if (transcript.state !== 'unreadable') records += transcript.records.length;
    }
  }
  const stores = await Promise.all([
    ports.outbox.read(),
    ports.questions.read(),
    ports.requests.read(),
    ports.closures.read(),
    ports.workflows.read(),
    ports.board.read(),
    ports.learning.reflections(),
    ports.learning.textAppraisals(),
    ports.learning.scores(),
    ports.learning.counterfactuals(),
    ports.learning.comparisons(),
    ports.ownerOutcomes.read(),
    ports.predictions.read(),
  ]);
  for (const store of stores) if (store.state !== 'unreadable') records += store.records.length;
  return records;
}

async function validationTable(): Promise<ResultTable> {
  const folder = mkdtempSync(join(tmpdir(), 'mecha-bench-'));
  try {
    const generated = generateHome({ path: join(folder, 'home'), seed: 'bench', sessions: 2000 });
    const lines: string[] = [];
    for (const file of jsonlFiles(join(generated.path, 'sessions'))) {
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        if (line !== '' && line.endsWith('}')) lines.push(line);
      }
    }
    const compiled = recordValidator(transcriptEventSchema);
    const bare = await measure('JSON.parse', () => {
      for (const line of lines) JSON.parse(line);
    });
    const zod = await measure('JSON.parse + zod safeParse', () => {
      for (const line of lines) transcriptEventSchema.safeParse(JSON.parse(line));
    });
    const ours = await measure('JSON.parse + recordValidator', () => {
      for (const line of lines) compiled.validate(JSON.parse(line));
    });
    return {
      title: 'Validation cost per transcript line',
      columns: ['Work', 'Lines', 'Median (ms)', 'Per line', 'Ratio to JSON.parse alone'],
      rows: [bare, zod, ours].map((m) => [
        m.name,
        lines.length.toLocaleString('en'),
        ms(m.median),
        perItem(m.median, lines.length),
        ratio(m, bare),
      ]),
      notes: [
        `Every line of the transcripts of a generated 2,000-session home (${lines.length.toLocaleString('en')} events, unique ids and timestamps). \`recordValidator\` recognises a record already in the form zod outputs with code generated from the schema's own definition (reusing its patterns) and hands anything else to zod; its agreement with zod is a property test.`,
      ],
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function readingTable(): Promise<ResultTable> {
  const rows: string[][] = [];
  for (const sessions of [1000, 10_000]) {
    const folder = mkdtempSync(join(tmpdir(), 'mecha-bench-'));
    try {
      const generated = generateHome({ path: join(folder, 'home'), seed: 'bench', sessions });
      const files = jsonlFiles(generated.path);
      const samples = sessions > 5000 ? 5 : 7;
      const floor = await measure(
        'read + JSON.parse every line (floor)',
        () => readAndParse(files),
        {
          samples,
        },
      );
      const twoPass = await measure(
        'stores readers: list(), then transcript() per session, every store',
        () => readHome(generated.path, 'list-then-read'),
        { samples },
      );
      const read = await measure(
        'stores readers: one scan of the sessions, every store',
        () => readHome(generated.path, 'scan'),
        { samples },
      );
      const appraised = await measure(
        'appraiseCorpus over homePorts (what `sessions appraise` does)',
        () => appraiseCorpus(homePorts(openHome(generated.path)), { now }),
        { samples },
      );
      for (const m of [floor, twoPass, read, appraised]) {
        rows.push([
          sessions.toLocaleString('en'),
          m.name,
          ms(m.median),
          perItem(m.median, sessions),
          ratio(m, floor),
        ]);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }
  return {
    title: 'Reading and appraising a generated home',
    columns: ['Sessions', 'Work', 'Median (ms)', 'Per session', 'Ratio to the floor'],
    rows,
    notes: [
      "The floor reads every `.jsonl` file of the home with `readFileSync` and `JSON.parse`s every line, keeping nothing. The readers also validate every record, report torn lines and return the records. `list()` reads each transcript's head and `transcript()` then opens it again; a scan opens each once, lists it from its head and decodes the rest from the same bytes (experiment sessions, which no ordinary readout reads, are listed but not decoded). `appraiseCorpus` scans too, and is handed only the event types it reads (every line is still read and checked). Wall-clock medians on a shared machine: compare the ratios, measured in the same run.",
    ],
  };
}

async function writingTable(): Promise<ResultTable> {
  const folder = mkdtempSync(join(tmpdir(), 'mecha-bench-'));
  try {
    const home = openHome(join(folder, 'home'), { create: true });
    const at = '2026-09-25T09:00:00Z';
    let next = 0;
    const single = 200;
    const one = await measure(
      'one record per append (lock, write, fdatasync)',
      async () => {
        for (let index = 0; index < single; index += 1) {
          await home.requests.append([{ v: 1, type: 'received', at, request_id: `one-${next++}` }]);
        }
      },
      { samples: 3 },
    );
    const batch = 100;
    const batches = 50;
    const batched = await measure(
      `${batch} records per append`,
      async () => {
        for (let round = 0; round < batches; round += 1) {
          await home.requests.append(
            Array.from({ length: batch }, () => ({
              v: 1 as const,
              type: 'received' as const,
              at,
              request_id: `b-${next++}`,
            })),
          );
        }
      },
      { samples: 3 },
    );
    const recorded = await measure(
      'recorder events (one message per call)',
      async () => {
        const session = createSessionRecorder(home);
        const run = await session.startRun({ surface: 'cli' });
        if (run._tag === 'Left') throw new Error(run.left.message);
        for (let turn = 0; turn < single; turn += 1) {
          await run.right.message({
            turn,
            role: 'assistant',
            taint: 'clean',
            text: 'a short reply',
          });
        }
      },
      { samples: 3 },
    );
    const read = await measure('reading the store back (all records)', () => home.requests.read(), {
      samples: 5,
    });
    const stored = await home.requests.read();
    const storedCount = stored.state === 'unreadable' ? 0 : stored.records.length;
    const perSecond = (m: Measurement, records: number) =>
      Math.round((records * 1000) / m.median).toLocaleString('en');
    return {
      title: 'Records written and read per second',
      columns: ['Work', 'Records', 'Median (ms)', 'Records per second'],
      rows: [
        [one.name, String(single), ms(one.median), perSecond(one, single)],
        [
          batched.name,
          String(batch * batches),
          ms(batched.median),
          perSecond(batched, batch * batches),
        ],
        [recorded.name, String(single), ms(recorded.median), perSecond(recorded, single)],
        [
          read.name,
          storedCount.toLocaleString('en'),
          ms(read.median),
          perSecond(read, storedCount),
        ],
      ],
      notes: [
        "Every append validates its records, takes the store's lock file, checks the file's tail, writes and `fdatasync`s before it returns, so one record per append is bounded by the disk's sync latency; a batch pays that once.",
      ],
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function generationTable(): Promise<ResultTable> {
  const rows: string[][] = [];
  for (const sessions of [1000, 10_000]) {
    const folder = mkdtempSync(join(tmpdir(), 'mecha-bench-'));
    try {
      let size = 0;
      let files = 0;
      let lines = 0;
      const made = await measure(
        `generateHome ${sessions}`,
        () => {
          const generated = generateHome({ path: join(folder, 'home'), seed: 'bench', sessions });
          size = generated.bytes;
          files = generated.files;
          lines = Object.values(generated.lines).reduce((sum, count) => sum + count, 0);
        },
        { samples: sessions > 5000 ? 3 : 5 },
      );
      rows.push([
        sessions.toLocaleString('en'),
        (made.median / 1000).toFixed(2),
        (size / 1_000_000).toFixed(1),
        files.toLocaleString('en'),
        lines.toLocaleString('en'),
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }
  return {
    title: 'generateHome: size and time',
    columns: ['Sessions', 'Median time (s)', 'Size (MB)', 'Files', 'Lines'],
    rows,
    notes: [
      'Deterministic (seed `bench`): the same seed gives byte-identical files. Lines are validated as they are made and written as they go, so memory stays flat; 50,000 sessions need no more memory than 10,000.',
    ],
  };
}

/** The on-disk home: validation cost, reading and appraising, writing, and the synthetic home. */
export const storesSuite: Suite = {
  id: 'stores',
  title: 'Stores: reading, writing and the synthetic home',
  run: async () => [
    await validationTable(),
    await readingTable(),
    await writingTable(),
    await generationTable(),
  ],
};
