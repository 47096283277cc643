// The callbacks handed to the page run in the browser: they need the DOM's types.
/// <reference lib="dom" />
// The web board in a real browser: `mecha web` as a person starts it (a subprocess on a random
// loopback port over a generated home), driven by Debian's chromium through playwright-core.
// One browser for the whole file; screenshots go to test-artifacts/web (git-ignored).
import type { ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateHome } from '@mecha/fixtures/home';
import { createSessionRecorder, openHome, rightOrThrow } from '@mecha/stores';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeBoard, launchChromium } from './browser.js';
import { jsonl, mecha, mechaJson, snapshot, startWeb, tempDir } from './helpers.js';

const artifacts = fileURLToPath(new URL('../test-artifacts/web/', import.meta.url));
const require = createRequire(import.meta.url);

interface SessionJson {
  readonly label: string;
  readonly valence: {
    readonly positive: number;
    readonly negative: number;
    readonly partial: boolean;
  };
  readonly errors: readonly {
    readonly agency: string;
    readonly sign: number;
    readonly channel: string;
    readonly cite: Record<string, unknown>;
  }[];
}

let home: string;
let server: ChildProcess;
let exited: Promise<number | null>;
let base: string;
let browser: Browser;
let context: BrowserContext;
let taskDone: string;
let taskStale: string;
let draftSession: string;
let draftId: string;
let hostileSession: string;

function env(): Record<string, string> {
  return { MECHA_HOME: home };
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
}

/** A raw HTTP request (Host header and all), for what a browser would never send. */
function raw(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; text: string }> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: options.method ?? 'GET',
        headers: options.headers,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  home = join(tempDir('mecha-web-'), 'home');
  generateHome({
    path: home,
    seed: 'web-board',
    sessions: 30,
    days: 20,
    start: new Date(Date.now() - 20 * 86_400_000),
  });
  // Two tasks of our own, a session with a staged draft, and one whose answer is hostile markup.
  taskDone = mechaJson<{ id: string }>(
    ['tasks', 'add', 'Ship the quarterly report', '--status', 'next', '--json'],
    env(),
  ).json.id;
  taskStale = mechaJson<{ id: string }>(
    ['tasks', 'add', 'Book the venue', '--status', 'next', '--json'],
    env(),
  ).json.id;
  const opened = openHome(home);
  const drafting = createSessionRecorder(opened);
  const run = rightOrThrow(await drafting.startRun({ surface: 'web', personPresent: true }));
  rightOrThrow(
    await run.message({ turn: 1, role: 'assistant', taint: 'clean', text: 'I drafted the reply.' }),
  );
  rightOrThrow(await run.end({ stopCause: 'completed', turns: 1 }));
  draftSession = drafting.sessionId;
  draftId = rightOrThrow(
    await drafting.stageDraft({
      tool: 'mail_send',
      taint: 'clean',
      text: 'Dear Ana, <b>yes</b> to Friday.',
    }),
  ).draftId;
  const hostile = createSessionRecorder(opened);
  const hostileRun = rightOrThrow(await hostile.startRun({ surface: 'web' }));
  rightOrThrow(
    await hostileRun.message({
      turn: 1,
      role: 'assistant',
      taint: 'third_party',
      text: 'Done. <script>window.pwned = true</script><img src=x onerror="window.pwned = true">',
    }),
  );
  rightOrThrow(await hostileRun.intervention({ turn: 1, kind: 'steer' }));
  rightOrThrow(await hostileRun.end({ stopCause: 'completed', turns: 1 }));
  hostileSession = hostile.sessionId;
  // Its text appraisal echoes the markup in a judgment and a lesson, as a model's prose may.
  appendFileSync(
    join(home, 'appraisals', 'appraisals.jsonl'),
    `${JSON.stringify({
      v: 1,
      appraisal_id: 'ta-hostile',
      session_id: hostileSession,
      at: new Date().toISOString(),
      taint: 'third_party',
      interpretation: 'The page held markup.',
      claims_kept: 0,
      claims_dropped: {},
      judgments: [
        { outcome: 'went_badly', text: 'It echoed <script>window.pwned = true</script>' },
      ],
      owner_wants: 'Nothing from the page.',
      lessons: ['Never run <img src=x onerror="window.pwned = true">'],
    })}\n`,
  );

  ({ server, base, exited } = await startWeb({ MECHA_HOME: home }));
  browser = await launchChromium();
  context = await browser.newContext();
});

afterAll(async () => {
  await closeBoard(browser, server, exited);
});

describe('the web board in a browser', () => {
  it('renders the runs page, and every chip and bar agrees with `mecha sessions appraise --json`', async () => {
    const page = await context.newPage();
    const response = await page.goto(`${base}/`);
    expect(response?.status()).toBe(200);
    await expect(page.title()).resolves.toBe('Runs · mecha');
    const rows = await page.$$eval('#runs > li', (items) =>
      items.map((item) => {
        const chip = item.querySelector<HTMLElement>('[data-chip]');
        return {
          session: item.dataset.session as string,
          chip:
            chip === null
              ? null
              : {
                  word: chip.dataset.word,
                  positive: Number(chip.dataset.positive),
                  negative: Number(chip.dataset.negative),
                  partial: chip.dataset.partial === 'true',
                  text: chip.querySelector('.chip__valence')?.textContent,
                  bar: chip.querySelector('svg.bar')?.getAttribute('aria-label'),
                  negativeRect: ['x', 'width'].map((name) =>
                    Number(chip.querySelector('.bar__negative')?.getAttribute(name)),
                  ),
                  positiveRect: ['x', 'width'].map((name) =>
                    Number(chip.querySelector('.bar__positive')?.getAttribute(name)),
                  ),
                },
        };
      }),
    );
    expect(rows.length).toBeGreaterThanOrEqual(10);
    expect(rows.length).toBeLessThanOrEqual(25);
    let chips = 0;
    for (const row of rows) {
      const { json } = mechaJson<SessionJson>(
        ['sessions', 'appraise', row.session, '--json'],
        env(),
      );
      const signed = json.valence.positive > 0 || json.valence.negative > 0;
      if (!signed) {
        expect(row.chip, `${row.session} is silent`).toBeNull();
        continue;
      }
      chips += 1;
      expect(row.chip, row.session).not.toBeNull();
      expect(row.chip?.positive).toBe(json.valence.positive);
      expect(row.chip?.negative).toBe(json.valence.negative);
      expect(row.chip?.partial).toBe(json.valence.partial);
      expect(row.chip?.word).toBe(json.label === 'neutral' ? '' : json.label);
      expect(row.chip?.bar).toBe(
        `negative ${json.valence.negative.toFixed(1)}, positive ${json.valence.positive.toFixed(1)}${json.valence.partial ? ', partial' : ''}`,
      );
      // The bar: negative drawn left of the centre tick (x = 60), positive right of it, each
      // side present exactly when it holds something.
      const [negativeX, negativeWidth] = row.chip?.negativeRect ?? [];
      const [positiveX, positiveWidth] = row.chip?.positiveRect ?? [];
      expect((negativeX ?? 0) + (negativeWidth ?? 0)).toBeCloseTo(60, 5);
      expect(positiveX).toBe(60);
      expect((negativeWidth ?? 0) > 0).toBe(json.valence.negative > 0);
      expect((positiveWidth ?? 0) > 0).toBe(json.valence.positive > 0);
      // Never netted: each side that holds something is written on its own.
      if (json.valence.positive > 0)
        expect(row.chip?.text).toContain(`+${json.valence.positive.toFixed(1)}`);
      if (json.valence.negative > 0)
        expect(row.chip?.text).toContain(`\u2212${json.valence.negative.toFixed(1)}`);
    }
    expect(chips).toBeGreaterThan(3);
    await shot(page, 'runs');
    await page.close();
  });

  it('shows the corpus readout the CLI gives, with its charts', async () => {
    const page = await context.newPage();
    await page.goto(`${base}/corpus`);
    const { json } = mechaJson<{
      valence: { positive: number; negative: number };
      labels: Record<string, number>;
    }>(['sessions', 'appraise', '--json'], env());
    const valence = await page.$eval('#corpus-valence', (element) => ({
      positive: Number((element as HTMLElement).dataset.positive),
      negative: Number((element as HTMLElement).dataset.negative),
    }));
    expect(valence.positive).toBeCloseTo(json.valence.positive, 9);
    expect(valence.negative).toBeCloseTo(json.valence.negative, 9);
    const labels = await page.$$eval('#corpus-labels tr[data-label]', (rows) =>
      Object.fromEntries(
        rows.map((row) => [
          (row as HTMLElement).dataset.label,
          Number((row as HTMLElement).dataset.count),
        ]),
      ),
    );
    expect(labels).toEqual(
      Object.fromEntries(Object.entries(json.labels).filter(([, n]) => n > 0)),
    );
    expect(await page.locator('svg.chart').count()).toBeGreaterThan(0);
    await shot(page, 'corpus');
    await page.close();
  });

  it('shows a transcript’s injected <script> as text and never runs it', async () => {
    const page = await context.newPage();
    await page.goto(`${base}/`);
    const answer = page.locator(`#run-${hostileSession} .run__answer`);
    await expect(answer.textContent()).resolves.toContain('<script>window.pwned = true</script>');
    expect(
      await page.evaluate(() => (window as unknown as { pwned?: boolean }).pwned),
    ).toBeUndefined();
    expect(await page.locator(`#run-${hostileSession} .taint`).count()).toBe(1);
    await page.goto(`${base}/sessions/${hostileSession}`);
    expect(
      await page.evaluate(() => (window as unknown as { pwned?: boolean }).pwned),
    ).toBeUndefined();
    // The text appraisal's judgment and lesson, under its not-clean mark, as text.
    await expect(page.locator('#appraisal-judgments').textContent()).resolves.toBe(
      'no goal: went badly — It echoed <script>window.pwned = true</script>',
    );
    await expect(page.locator('#appraisal-lessons').textContent()).resolves.toBe(
      'Never run <img src=x onerror="window.pwned = true">',
    );
    await expect(page.locator('#appraisal-owner-wants').textContent()).resolves.toBe(
      'Nothing from the page.',
    );
    await shot(page, 'session');
    await page.close();
  });

  it('closes a task with Done: the closure record is written and its line shown beside the task', async () => {
    const page = await context.newPage();
    await page.goto(`${base}/board`);
    await page.locator(`#task-${taskDone} button[value="done"]`).click();
    await page.waitForSelector('#said');
    const said = await page.locator('#said').textContent();
    expect(said).toContain(`Closed ${taskDone}: next → done`);
    const closure = jsonl<{
      task_id: string;
      to: string;
      surface: string;
      who: string;
      appraisal_line: string;
    }>(join(home, 'closures', 'closures.jsonl')).at(-1);
    expect(closure).toMatchObject({ task_id: taskDone, to: 'done', surface: 'web', who: 'owner' });
    const beside = await page.locator(`#task-${taskDone} .closure__line`).textContent();
    expect(beside).toBe(closure?.appraisal_line);
    expect(
      mechaJson<{ tasks: { id: string; status: string }[] }>(
        ['tasks', 'list', '--all', '--json'],
        env(),
      ).json.tasks.find((task) => task.id === taskDone)?.status,
    ).toBe('done');
    await shot(page, 'board-done');

    // Reopen with a reason, through the same path.
    await page.locator(`#task-${taskDone} input[name="reason"]`).fill('the figures were wrong');
    await page.locator(`#task-${taskDone} button:has-text("Reopen")`).click();
    await page.waitForSelector('#said');
    expect(await page.locator('#said').textContent()).toContain(
      `Reopened ${taskDone}: done → next`,
    );
    const reopen = jsonl<{ reason?: string; reopens?: string }>(
      join(home, 'closures', 'closures.jsonl'),
    ).at(-1);
    expect(reopen?.reason).toBe('the figures were wrong');
    await page.close();
  });

  it('a stale Done on a task closed in the CLI changes nothing and says so', async () => {
    const page = await context.newPage();
    await page.goto(`${base}/board`);
    expect(mecha(['tasks', 'set', taskStale, '--status', 'done'], env()).code).toBe(0);
    const before = snapshot(home);
    const [response] = await Promise.all([
      page.waitForResponse((answer) => answer.url().endsWith(`/board/${taskStale}/close`)),
      page.locator(`#task-${taskStale} button[value="dropped"]`).click(),
    ]);
    expect(response.status()).toBe(409);
    await page.waitForSelector('#said');
    expect(await page.locator('#said').textContent()).toContain(`${taskStale} is already done`);
    expect(snapshot(home)).toEqual(before);
    await shot(page, 'board-stale');
    await page.close();
  });

  it('a draft rejected in the browser reads as −1.0 owner in the CLI', async () => {
    const page = await context.newPage();
    await page.goto(`${base}/drafts`);
    await expect(page.locator(`#draft-${draftId} pre`).textContent()).resolves.toBe(
      'Dear Ana, <b>yes</b> to Friday.',
    );
    await page.locator(`#draft-${draftId} input[name="reason"]`).fill('wrong day');
    await page.locator(`#draft-${draftId} button[value="reject"]`).click();
    await page.waitForSelector('#said');
    expect(await page.locator('#said').textContent()).toContain(`Rejected ${draftId}.`);
    const { json } = mechaJson<SessionJson>(
      ['sessions', 'appraise', draftSession, '--json'],
      env(),
    );
    expect(json.valence.negative).toBe(1);
    expect(json.errors).toContainEqual(
      expect.objectContaining({
        sign: -1,
        agency: 'owner',
        cite: { kind: 'draft', draft_id: draftId },
      }),
    );
    await page.close();
  });

  it('shows a run a recorder appends while the page is open, without a reload', async () => {
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await page.waitForSelector('body[data-live-connected="true"]');
    // The live indicator is there for sighted users too, saying it is live.
    const indicator = page.locator('#live-indicator');
    expect(await indicator.isVisible()).toBe(true);
    expect(await indicator.getAttribute('data-state')).toBe('on');
    expect(await indicator.textContent()).toContain('Live:');
    const countBefore = Number(await page.locator('#runs-count').textContent());
    const marker = await page.evaluate(() => {
      (window as unknown as { marker: number }).marker = 42;
      return 42;
    });
    const recorder = createSessionRecorder(openHome(home));
    const run = rightOrThrow(await recorder.startRun({ surface: 'tui', personPresent: true }));
    rightOrThrow(
      await run.message({
        turn: 1,
        role: 'assistant',
        taint: 'clean',
        text: 'Live answer arrives.',
      }),
    );
    rightOrThrow(await run.intervention({ turn: 1, kind: 'stop' }));
    rightOrThrow(await run.end({ stopCause: 'stopped', turns: 1 }));
    const row = page.locator(`#run-${recorder.sessionId}`);
    await row.waitFor({ timeout: 60_000 });
    await expect(row.locator('.run__answer').textContent()).resolves.toBe('Live answer arrives.');
    expect(await row.locator('[data-chip]').count()).toBe(1);
    // The new row is marked, and the count follows it.
    expect(await row.getAttribute('class')).toContain('run--new');
    expect(await row.locator('.flag--new').textContent()).toBe('new');
    expect(Number(await page.locator('#runs-count').textContent())).toBe(countBefore + 1);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(
      marker,
    );
    expect(await page.locator('.logo').getAttribute('class')).toContain('logo--negative');
    await shot(page, 'runs-live');
    await page.close();
  });

  it('refuses a cross-origin POST, a missing CSRF token and a foreign Host header, writing nothing', async () => {
    const page = await context.newPage();
    await page.goto(`${base}/board`);
    const csrf = await page.locator('input[name="csrf"]').first().inputValue();
    const before = snapshot(home);

    // A page on another origin that submits the board's own form, token and all.
    const attacker: Server = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(
        `<form id="f" method="post" action="${base}/board/${taskDone}/close"><input name="csrf" value="${csrf}"><input name="to" value="dropped"></form>`,
      );
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    const attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
    await page.goto(attackerUrl);
    const [refused] = await Promise.all([
      page.waitForResponse((answer) => answer.url().includes('/close')),
      page.evaluate(() => (document.getElementById('f') as HTMLFormElement).submit()),
    ]);
    expect(refused.status()).toBe(403);
    expect(await refused.text()).toContain('another origin');
    attacker.close();

    const form = 'application/x-www-form-urlencoded';
    const missing = await raw(`/board/${taskDone}/close`, {
      method: 'POST',
      headers: { origin: base, 'content-type': form },
      body: 'to=dropped',
    });
    expect(missing.status).toBe(403);
    expect(missing.text).toContain('CSRF');
    const foreign = await raw(`/board/${taskDone}/close`, {
      method: 'POST',
      headers: { host: 'evil.example', origin: 'http://evil.example', 'content-type': form },
      body: `to=dropped&csrf=${csrf}`,
    });
    expect(foreign.status).toBe(421);
    const rebound = await raw('/', { headers: { host: 'attacker.example:80' } });
    expect(rebound.status).toBe(421);
    expect(snapshot(home)).toEqual(before);
    await page.close();
  });

  it('offers <mecha-appraisal> to a harness’s own chat page on another origin', async () => {
    const page = await context.newPage();
    const chat: Server = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(
        `<!doctype html><meta charset="utf-8"><title>chat</title><p>An answer.<mecha-appraisal id="a" word="distress" valence="\u22120.5" positive="0" negative="0.5" tone="negative"></mecha-appraisal></p><p>A silent one.<mecha-appraisal id="b"></mecha-appraisal></p><script src="${base}/assets/mecha-appraisal.js"></script>`,
      );
    });
    await new Promise<void>((resolve) => chat.listen(0, '127.0.0.1', resolve));
    await page.goto(`http://127.0.0.1:${(chat.address() as AddressInfo).port}/`);
    await page.waitForFunction(() => customElements.get('mecha-appraisal') !== undefined);
    const shown = await page.evaluate(() => {
      const root = document.getElementById('a')?.shadowRoot;
      return {
        text: root?.textContent,
        bar: root?.querySelector('svg')?.getAttribute('aria-label'),
        negativeWidth: root?.querySelector('rect.negative')?.getAttribute('width'),
        silent: document.getElementById('b')?.shadowRoot?.textContent,
        silentHeight: document.getElementById('b')?.getBoundingClientRect().height,
      };
    });
    expect(shown.text).toBe('distress\u22120.5');
    expect(shown.bar).toBe('negative 0.5, positive 0.0');
    expect(Number(shown.negativeWidth)).toBeGreaterThan(0);
    expect(shown.silent).toBe('');
    expect(shown.silentHeight).toBe(0);
    await shot(page, 'element');
    chat.close();
    await page.close();
  });

  it('has no serious accessibility finding, works from the keyboard and reflows at 400% zoom', async () => {
    // axe is injected into each page; this context lets its script run under the page's CSP.
    const audit = await browser.newContext({ bypassCSP: true });
    const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
    const page = await audit.newPage();
    const findings: string[] = [];
    for (const path of [
      '/',
      '/board',
      '/drafts',
      '/questions',
      '/board?status=done',
      '/charter',
      '/corpus',
      '/successes',
      '/honesty',
      '/review',
      `/sessions/${draftSession}`,
    ]) {
      await page.goto(`${base}${path}`);
      await page.evaluate(axeSource);
      const violations = await page.evaluate(async () => {
        const axe = (
          window as unknown as {
            axe: {
              run: (context: Document) => Promise<{
                violations: { id: string; impact: string | null; nodes: unknown[] }[];
              }>;
            };
          }
        ).axe;
        const result = await axe.run(document);
        return result.violations.map((violation) => ({
          id: violation.id,
          impact: violation.impact,
          nodes: violation.nodes.length,
        }));
      });
      for (const violation of violations) {
        if (violation.impact === 'serious' || violation.impact === 'critical') {
          findings.push(`${path}: ${violation.id} (${violation.impact}, ${violation.nodes} nodes)`);
        }
      }
    }
    expect(findings).toEqual([]);

    // Keyboard: the first Tab lands on the skip link, the next ones walk the navigation.
    await page.goto(`${base}/`);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe('/');

    // 400% zoom of a 1280-pixel window is a 320-pixel one: nothing may need sideways scrolling.
    // 390 px is a phone; 320 px is 400% zoom of a 1280-pixel window.
    for (const width of [390, 320]) {
      await page.setViewportSize({ width, height: 640 });
      // Every page (and the runs table with its search and order in use).
      for (const path of [
        '/',
        '/?q=report&sort=negative',
        '/board',
        '/board?status=done',
        '/drafts',
        '/questions',
        '/charter',
        '/corpus',
        '/successes',
        '/honesty',
        '/review',
        `/sessions/${draftSession}`,
      ]) {
        await page.goto(`${base}${path}`);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `${path} at ${width} px`).toBeLessThanOrEqual(1);
        // axe again at 320 px (400% zoom): the reflowed page must be as clean.
        if (width === 320) {
          await page.evaluate(axeSource);
          const narrow = await page.evaluate(async () => {
            const axe = (
              window as unknown as {
                axe: {
                  run: (context: Document) => Promise<{
                    violations: { id: string; impact: string | null }[];
                  }>;
                };
              }
            ).axe;
            return (await axe.run(document)).violations
              .filter((found) => found.impact === 'serious' || found.impact === 'critical')
              .map((found) => found.id);
          });
          expect(narrow, `${path} at 320 px`).toEqual([]);
        }
      }
    }
    await shot(page, 'runs-400-percent');
    await audit.close();
  });

  it('stops cleanly on Ctrl-C', async () => {
    server.kill('SIGINT');
    expect(await exited).toBe(0);
  });
});
