import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appraiseCorpus } from '@mecha/appraisal-core';
import { generateHome } from '@mecha/fixtures/home';
import { createSessionRecorder, homePorts, openHome, rightOrThrow } from '@mecha/stores';
import { startWebServer } from '@mecha/web';
import { measure, median, type ResultTable } from '../measure.js';
import type { Suite } from './index.js';

const cliBin = fileURLToPath(new URL('../../../../apps/cli/dist/bin.js', import.meta.url));
const day = 86_400_000;

const ms = (value: number) =>
  value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The CLI's readout as a person runs it: `mecha sessions appraise --json`, a cold Node each time. */
/**
 * The home every web suite measures: `generateHome` with seed `bench`, `sessions` sessions spread
 * over the last 120 days.
 */
export function boardHome(home: string, sessions: number): void {
  generateHome({
    path: home,
    seed: 'bench',
    sessions,
    start: new Date(Date.now() - 120 * day),
    days: 120,
  });
}

export function cliReadout(home: string, count: number): number {
  spawnSync(process.execPath, [cliBin, '--home', home, 'sessions', 'appraise', '--json'], {
    stdio: 'ignore',
  });
  const times: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const started = performance.now();
    const result = spawnSync(
      process.execPath,
      [cliBin, '--home', home, 'sessions', 'appraise', '--json'],
      {
        stdio: 'ignore',
      },
    );
    times.push(performance.now() - started);
    if (result.status !== 0) throw new Error(`mecha sessions appraise exited ${result.status}`);
  }
  return median(times);
}

async function get(url: string): Promise<number> {
  const response = await fetch(url);
  const body = await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  return body.byteLength;
}

/** A page's server time (its `Server-Timing`) and round trip, medians over `count` requests. */
export async function page(
  url: string,
  count: number,
  warmup = 3,
): Promise<{ server: number; cpu: number; trip: number }> {
  const server: number[] = [];
  const cpu: number[] = [];
  const trip: number[] = [];
  for (let index = 0; index < warmup + count; index += 1) {
    globalThis.gc?.();
    const started = performance.now();
    const response = await fetch(url);
    await response.arrayBuffer();
    const took = performance.now() - started;
    if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
    const header = response.headers.get('server-timing') ?? '';
    const timing = /app;dur=([\d.]+)/.exec(header);
    const cpuTiming = /cpu;dur=([\d.]+)/.exec(header);
    if (index < warmup) continue;
    trip.push(took);
    server.push(Number(timing?.[1] ?? Number.NaN));
    cpu.push(Number(cpuTiming?.[1] ?? Number.NaN));
  }
  return { server: median(server), cpu: median(cpu), trip: median(trip) };
}

/**
 * Opens the live stream and measures, for each sample, the time from a recorder appending a
 * finished run (its `run_end`) to the board pushing that run to the stream.
 */
async function liveLatency(base: string, home: string, count: number): Promise<number[]> {
  const controller = new AbortController();
  const response = await fetch(`${base}/events`, { signal: controller.signal });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  const waitFor = async (needle: string) => {
    while (!buffered.includes(needle)) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the live stream ended');
      buffered += decoder.decode(value, { stream: true });
    }
    buffered = buffered.slice(buffered.indexOf(needle) + needle.length);
  };
  await waitFor('event: hello');
  const times: number[] = [];
  for (let index = 0; index < count + 1; index += 1) {
    const recorder = createSessionRecorder(openHome(home));
    const run = rightOrThrow(await recorder.startRun({ surface: 'tui', personPresent: true }));
    rightOrThrow(
      await run.message({ turn: 1, role: 'assistant', taint: 'clean', text: 'Measured.' }),
    );
    rightOrThrow(await run.intervention({ turn: 1, kind: 'steer' }));
    const started = performance.now();
    rightOrThrow(await run.end({ stopCause: 'completed', turns: 1 }));
    await waitFor(`"session":"${recorder.sessionId}"`);
    if (index > 0) times.push(performance.now() - started);
  }
  controller.abort();
  return times;
}

async function run(): Promise<readonly ResultTable[]> {
  if (!existsSync(cliBin))
    throw new Error(
      `the web suite compares with the built command: build it first (${cliBin} is missing)`,
    );
  const work = mkdtempSync(join(tmpdir(), 'mecha-bench-web-'));
  try {
    const sessions = 10_000;
    const home = join(work, 'home');
    boardHome(home, sessions);
    const cli = cliReadout(home, 5);
    const inProcess = await measure(
      'appraiseCorpus over homePorts, in process',
      () => appraiseCorpus(homePorts(openHome(home)), { now: new Date() }),
      { samples: 5 },
    );

    const starts: number[] = [];
    for (let index = 0; index < 3; index += 1) {
      const started = await startWebServer({
        home,
        port: 0,
        version: 'bench',
        env: {},
        owner: 'bench',
        watch: false,
      });
      starts.push(started.startMs);
      await started.close();
    }
    const heapBefore = process.memoryUsage().heapUsed;
    const server = await startWebServer({
      home,
      port: 0,
      version: 'bench',
      env: {},
      owner: 'bench',
    });
    const heapAfter = process.memoryUsage().heapUsed;
    const base = server.origin;
    try {
      const sample = server.readout.rows()[0]?.sessionId as string;
      const runsPage = await page(`${base}/`, 21);
      const filtered = await page(`${base}/?days=30&label=distress`, 21);
      const detail = await page(`${base}/sessions/${sample}`, 21);
      const corpusCold: { server: number[]; trip: number[] } = { server: [], trip: [] };
      for (let days = 11; days < 18; days += 1) {
        // A window not asked for before: the corpus readout is derived from memory.
        const taken = await page(`${base}/corpus?days=${days}`, 1, 0);
        corpusCold.server.push(taken.server);
        corpusCold.trip.push(taken.trip);
      }
      const corpusWarm = await page(`${base}/corpus?days=30`, 21);
      const live = await liveLatency(base, home, 9);
      const liveMedian = median(live);
      const rows: (readonly string[])[] = [];
      const ratio = (value: number) => {
        const share = value / cli;
        if (share >= 0.1) return `${share.toFixed(2)}×`;
        if (share >= 0.01) return `${share.toFixed(3)}×`;
        return `1/${Math.round(1 / share).toLocaleString('en')}`;
      };
      rows.push([
        '`mecha sessions appraise --json` (the CLI readout, cold Node; the baseline)',
        ms(cli),
        '—',
        ratio(cli),
      ]);
      rows.push([inProcess.name, ms(inProcess.median), '—', ratio(inProcess.median)]);
      rows.push([
        'board start: derive the whole readout once (median of 3)',
        ms(median(starts)),
        '—',
        ratio(median(starts)),
      ]);
      for (const [name, taken] of [
        ['runs page (`/`, first 25 of every session)', runsPage],
        ['runs page filtered (`/?days=30&label=distress`)', filtered],
        ['session detail (`/sessions/ID`)', detail],
        [
          'corpus page, readout derived from memory (a window not asked for before)',
          { server: median(corpusCold.server), trip: median(corpusCold.trip) },
        ],
        ['corpus page, same window again (kept until a file changes)', corpusWarm],
      ] as const) {
        rows.push([name, ms(taken.server), ms(taken.trip), ratio(taken.server)]);
      }
      rows.push([
        `recorder appends a run's end → the board pushes it (median of ${live.length})`,
        '—',
        ms(liveMedian),
        ratio(liveMedian),
      ]);

      const weights: (readonly string[])[] = [];
      for (const [name, path] of [
        ['runs page (HTML)', '/'],
        ['corpus page (HTML, SVG charts inline)', '/corpus?days=120'],
        ['board.css', '/assets/board.css'],
        ['board.js', '/assets/board.js'],
        ['mecha-appraisal.js', '/assets/mecha-appraisal.js'],
      ] as const) {
        weights.push([name, kb(await get(`${base}${path}`))]);
      }
      return [
        {
          title: `The web board over a ${sessions.toLocaleString('en')}-session home`,
          columns: [
            'Work',
            'Server time, median (ms)',
            'Round trip, median (ms)',
            'Ratio to the CLI readout',
          ],
          rows,
          notes: [
            `A home from \`generateHome\` (seed \`bench\`, ${sessions.toLocaleString('en')} sessions over 120 days). The board derives the readout once at start and keeps it in memory; then it re-derives only the sessions whose files changed (nothing is persisted; a restart derives again). Server time is the board's own \`Server-Timing\` (from the request reaching the app to the page rendered); the round trip is a loopback HTTP request to the real server from the same process, response read whole, after warm-up. Ratios are of the server time (the start and the CLI rows: wall time; the live row: the round trip). The live row times a recorder's \`run_end\` append to the event arriving on an open \`/events\` stream (the home is watched with \`fs.watch\`). The goal for the runs page is under 50 ms, under a tenth of the CLI's cold readout. The readout held ${((heapAfter - heapBefore) / 1024 / 1024).toFixed(0)} MB more heap after start.`,
          ],
        },
        {
          title: 'Page weight',
          columns: ['What', 'Size (uncompressed)'],
          rows: weights,
          notes: [
            'No chart library: the corpus charts are SVG drawn by the server, so the corpus page needs nothing beyond its HTML, the stylesheet and the one script (which only adds live updates and confirmations).',
          ],
        },
      ];
    } finally {
      await server.close();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The web board: start, pages and the live push against the CLI's readout of the same home. */
export const webSuite: Suite = { id: 'web', title: 'Web board: incremental readout', run };
