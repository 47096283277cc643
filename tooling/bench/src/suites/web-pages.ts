import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWebServer } from '@mecha/web';
import type { ResultTable } from '../measure.js';
import type { Suite } from './index.js';
import { boardHome, cliReadout, page } from './web.js';

const cliBin = fileURLToPath(new URL('../../../../apps/cli/dist/bin.js', import.meta.url));

const ms = (value: number) =>
  value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);

/** A page's size, and the board's own time for it (`app` in `Server-Timing`) on this ask. */
async function firstAsk(url: string): Promise<{ bytes: number; server: number }> {
  const response = await fetch(url);
  const body = await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  const timing = /app;dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '');
  return { bytes: body.byteLength, server: Number(timing?.[1] ?? Number.NaN) };
}

async function run(): Promise<readonly ResultTable[]> {
  if (!existsSync(cliBin))
    throw new Error(
      `the web-pages suite compares with the built command: build it first (${cliBin} is missing)`,
    );
  const work = mkdtempSync(join(tmpdir(), 'mecha-bench-web-pages-'));
  try {
    const sessions = 10_000;
    const home = join(work, 'home');
    boardHome(home, sessions);
    const cli = cliReadout(home, 3);
    const server = await startWebServer({
      home,
      port: 0,
      version: 'bench',
      env: {},
      owner: 'bench',
      watch: false,
    });
    const base = server.origin;
    try {
      // The session with the most runs: the longest trace the session page draws.
      const longest = [...server.readout.rows()].sort((a, b) => (b.runs ?? 0) - (a.runs ?? 0))[0]
        ?.sessionId as string;
      const pages: readonly (readonly [string, string])[] = [
        ['runs (`/`)', '/'],
        ['runs, page 2', '/?page=2'],
        ['runs filtered (`/?days=30&label=distress`)', '/?days=30&label=distress'],
        ['session detail, the session with the most runs', `/sessions/${longest}`],
        ['board (`/board`)', '/board'],
        ['board, done tasks alone (`/board?status=done`)', '/board?status=done'],
        ['drafts (`/drafts`)', '/drafts'],
        ['questions (`/questions`)', '/questions'],
        ['charter (`/charter`)', '/charter'],
        ['corpus, last 30 days (kept after the first)', '/corpus?days=30'],
        ['successes (`/successes`)', '/successes'],
        ['honesty (`/honesty`)', '/honesty'],
        ['corpus, every session (`/corpus`)', '/corpus'],
        ['corpus, last 90 days (`/corpus?days=90`)', '/corpus?days=90'],
        ['graph review, no graph configured (`/review`)', '/review'],
      ];
      const rows: (readonly string[])[] = [];
      let largest = 0;
      let slowest = 0;
      let slowestCpu = 0;
      // Each page's first ask after start, before any page is asked again (in the table's order).
      const first = new Map<string, { bytes: number; server: number }>();
      for (const [, path] of pages) first.set(path, await firstAsk(`${base}${path}`));
      for (const [name, path] of pages) {
        const { bytes, server: cold } = first.get(path) as { bytes: number; server: number };
        const taken = await page(`${base}${path}`, 11);
        largest = Math.max(largest, bytes);
        slowest = Math.max(slowest, taken.server);
        slowestCpu = Math.max(slowestCpu, taken.cpu);
        rows.push([
          name,
          `${(bytes / 1024).toFixed(1)} KB`,
          ms(taken.server),
          ms(taken.cpu),
          ms(cold),
          ms(taken.trip),
          `1/${Math.round(cli / taken.server).toLocaleString('en')}`,
        ]);
      }
      return [
        {
          title: `Every page over a ${sessions.toLocaleString('en')}-session home`,
          columns: [
            'Page',
            'HTML (uncompressed)',
            'Server time, median (ms)',
            'Server CPU, median (ms)',
            'First ask after start (ms)',
            'Round trip, median (ms)',
            'Server time against the CLI readout',
          ],
          rows,
          notes: [
            `A home from \`generateHome\` (seed \`bench\`, ${sessions.toLocaleString('en')} sessions over 120 days). Each page is asked once in the table's order right after start (the first ask, which pays for whatever is derived on first use and for compiling the page's code), then, page by page, 3 times to warm up and 11 times measured; the server time is the board's own \`Server-Timing\` (\`app\`, wall clock), the server CPU its \`cpu\` (the process's CPU time during the answer, which a loaded machine does not inflate the way it does the wall clock), the round trip a loopback request from the same process with the body read whole. The baseline is \`mecha sessions appraise --json\` on the same home in the same run (cold Node, median of 3): ${ms(cli)} ms. The largest page is ${(largest / 1024).toFixed(1)} KB and the slowest takes ${ms(slowest)} ms (${ms(slowestCpu)} ms of CPU at most; the goal is under 100 KB and under 50 ms). The board, drafts and questions are paginated: the board shows the first 20 of each open status and collapses done and dropped, drafts and questions are 25 to a page (issue 28 reported, before they were, \`/board\` at 977 KB and 7.3 s and the drafts page at 1.44 MB on a home of this size; not measured in this run). Every page reads the live readout's memory: the lists, the navigation's counts, the session page's goal titles and the runs list's search text are derived once per change of the readout, and the stores beside the sessions are read at start. The session page alone reads from disk on each ask: the session's whole transcript, for its trace.`,
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

/** Every page of the web board at 10,000 sessions: its HTML size and server time. */
export const webPagesSuite: Suite = {
  id: 'web-pages',
  title: 'Web board: every page at 10,000 sessions',
  run,
};
