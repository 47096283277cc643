import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWebServer } from '@mecha/web';
import { chromium } from 'playwright-core';
import { median, type ResultTable } from '../measure.js';
import type { Suite } from './index.js';
import { boardHome } from './web.js';

const chromiumPath = '/usr/bin/chromium';
const samples = 5;

/** Runs in the page: its first contentful paint and load event, from the navigation's start. */
const paintScript = `new Promise((resolve) => {
  const navigation = performance.getEntriesByType('navigation')[0];
  const load = navigation === undefined ? NaN : navigation.loadEventEnd;
  new PerformanceObserver((list) => {
    const entry = list.getEntries().find((found) => found.name === 'first-contentful-paint');
    if (entry !== undefined) resolve({ paint: entry.startTime, load });
  }).observe({ type: 'paint', buffered: true });
  setTimeout(() => resolve({ paint: NaN, load }), 5000);
})`;

const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));

async function run(): Promise<readonly ResultTable[]> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `the web-paint suite drives Debian's chromium at ${chromiumPath}: apt-get install -y chromium`,
    );
  }
  const work = mkdtempSync(join(tmpdir(), 'mecha-bench-web-paint-'));
  try {
    const sessions = 10_000;
    const home = join(work, 'home');
    boardHome(home, sessions);
    const server = await startWebServer({
      home,
      port: 0,
      version: 'bench',
      env: {},
      owner: 'bench',
      watch: false,
    });
    const browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--no-sandbox'],
      headless: true,
    });
    try {
      const longest = [...server.readout.rows()].sort((a, b) => (b.runs ?? 0) - (a.runs ?? 0))[0]
        ?.sessionId as string;
      const pages: readonly (readonly [string, string])[] = [
        ['runs (`/`)', '/'],
        ['runs, searched and ordered (`/?q=report&sort=negative`)', '/?q=report&sort=negative'],
        ['session detail, the session with the most runs', `/sessions/${longest}`],
        ['board (`/board`)', '/board'],
        ['board, done tasks alone', '/board?status=done'],
        ['drafts (`/drafts`)', '/drafts'],
        ['questions (`/questions`)', '/questions'],
        ['charter (`/charter`)', '/charter'],
        ['corpus, last 30 days', '/corpus?days=30'],
        ['successes (`/successes`)', '/successes'],
        ['honesty (`/honesty`)', '/honesty'],
        ['graph review, no graph configured', '/review'],
      ];
      // The baseline: a page of the same origin with nothing in it, painted in the same run.
      const blank = ['a near-empty page (`/healthz`, JSON)', '/healthz'] as const;
      const rows: (readonly string[])[] = [];
      let slowest = 0;
      let baseline = Number.NaN;
      for (const [name, path] of [blank, ...pages]) {
        const paints: number[] = [];
        const loads: number[] = [];
        // One warm-up load (the server derives what a page derives on first use), then samples,
        // each in a fresh context: no cache, a new renderer.
        for (let index = 0; index <= samples; index += 1) {
          const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
          const page = await context.newPage();
          await page.goto(`${server.origin}${path}`, { waitUntil: 'load' });
          // The paint entry may be recorded after the load event: wait for it (5 s at most). A
          // string, so the bundler's helpers never reach the page.
          const timing = (await page.evaluate(paintScript)) as { paint: number; load: number };
          await context.close();
          if (index === 0) continue;
          paints.push(timing.paint);
          loads.push(timing.load);
        }
        const paint = median(paints);
        if (path === blank[1]) baseline = paint;
        else slowest = Math.max(slowest, paint);
        rows.push([
          name,
          ms(paint),
          ms(median(loads)),
          path === blank[1] ? '1' : `${(paint / baseline).toFixed(2)}×`,
        ]);
      }
      return [
        {
          title: `First paint in chromium over a ${sessions.toLocaleString('en')}-session home`,
          columns: [
            'Page',
            'First contentful paint, median (ms)',
            'Load event, median (ms)',
            'Paint against the near-empty page',
          ],
          rows,
          notes: [
            `The same home as the web-pages suite (\`generateHome\`, seed \`bench\`). Debian's chromium, headless, through playwright-core, 1280 × 800; each page loaded once to warm the server, then ${samples} times, each in a fresh browser context (nothing cached), timed by the page's own \`first-contentful-paint\` entry and its navigation's load event, from the start of the navigation. The baseline is \`/healthz\` (a few bytes of JSON) painted in the same run. The slowest page paints in ${ms(slowest)} ms (the goal is under 500 ms). Every page carries its stylesheet inline (allowed by its hash in the Content-Security-Policy), so no request blocks its first paint; the one script is deferred.`,
          ],
        },
      ];
    } finally {
      await browser.close();
      await server.close();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** First paint of every page of the web board in chromium at 10,000 sessions. */
export const webPaintSuite: Suite = {
  id: 'web-paint',
  title: 'Web board: first paint in chromium at 10,000 sessions',
  run,
};
