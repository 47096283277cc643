// The callbacks handed to the page run in the browser: they need the DOM's types.
/// <reference lib="dom" />
// The corpus charts and the Honesty page in a real browser (`mecha web` as a subprocess over a
// generated home, Debian's chromium through playwright-core): the window control is a link per
// window, every bar has a tooltip, the label fills differ in light and dark, today's bar is
// marked as so far; the Honesty page shows the numbers `mecha verdicts claims --json` gives;
// each page reads at 390 and 320 px without sideways scrolling and is axe-clean there.
import type { ChildProcess } from 'node:child_process';
import { readFileSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { generateHome } from '@mecha/fixtures/home';
import { createSessionRecorder, openHome, rightOrThrow } from '@mecha/stores';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeBoard, launchChromium } from './browser.js';
import { mecha, mechaJson, startWeb, tempDir } from './helpers.js';

const require = createRequire(import.meta.url);

let home: string;
let server: ChildProcess;
let exited: Promise<number | null>;
let base: string;
let browser: Browser;

beforeAll(async () => {
  home = join(tempDir('mecha-web-charts-'), 'home');
  generateHome({
    path: home,
    seed: 'web-charts',
    sessions: 300,
    days: 40,
    start: new Date(Date.now() - 40 * 86_400_000),
  });
  // A session begun today, so today's bar holds one.
  const recorder = createSessionRecorder(openHome(home));
  const run = rightOrThrow(await recorder.startRun({ surface: 'tui', personPresent: true }));
  rightOrThrow(await run.intervention({ turn: 1, kind: 'steer' }));
  rightOrThrow(await run.end({ stopCause: 'completed', turns: 1 }));
  ({ server, base, exited } = await startWeb({ MECHA_HOME: home }));
  browser = await launchChromium();
});

afterAll(async () => {
  await closeBoard(browser, server, exited);
});

/** Serious and critical axe findings on the page now open. */
async function axeFindings(page: Page): Promise<string[]> {
  await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  return page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: {
        run: (context: Document) => Promise<{
          violations: { id: string; impact: string | null; nodes: unknown[] }[];
        }>;
      };
    };
    return (await axe.run(document)).violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id} (${violation.nodes.length} nodes)`);
  });
}

/** Each label's fill colour in the labels chart, as the browser computes it. */
function labelColours(page: Page): Promise<string[]> {
  return page.$$eval('#labels-chart pattern > rect', (rects) =>
    rects.map((rect) => getComputedStyle(rect).fill),
  );
}

describe('the corpus charts in a browser', () => {
  it('switches window by link, and the address says which', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${base}/corpus`);
    expect(await page.locator('nav.window [aria-current="page"]').textContent()).toBe('all');
    await Promise.all([page.waitForURL(/days=7$/), page.click('nav.window >> text=7 days')]);
    expect(await page.locator('nav.window [aria-current="page"]').textContent()).toBe('7 days');
    // Seven days back to today: eight days, none left out.
    expect(await page.locator('#valence-chart g.bucket').count()).toBe(8);
    await Promise.all([page.waitForURL(/days=30$/), page.click('nav.window >> text=30 days')]);
    expect(await page.locator('#valence-chart g.bucket').count()).toBe(31);
    await page.close();
  });

  it('gives every bar a tooltip naming its day and values, and marks today as so far', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${base}/corpus?days=7`);
    const tips = await page.$$eval('#valence-chart g.bucket > title', (titles) =>
      titles.map((title) => title.textContent ?? ''),
    );
    const rows = await page.$$eval('#valence-table tr[data-day]', (trs) =>
      trs.map((tr) => ({
        day: (tr as HTMLElement).dataset.day ?? '',
        negative: (tr as HTMLElement).dataset.negative ?? '',
        positive: (tr as HTMLElement).dataset.positive ?? '',
      })),
    );
    expect(tips).toHaveLength(rows.length);
    rows.forEach((row, index) => {
      const tip = tips[index] ?? '';
      expect(tip.startsWith(row.day)).toBe(true);
      if (row.negative !== '') {
        expect(tip).toContain(`negative ${Number(row.negative).toFixed(1)}`);
        expect(tip).toContain(`positive ${Number(row.positive).toFixed(1)}`);
      }
    });
    const today = new Date().toISOString().slice(0, 10);
    expect(tips.at(-1)).toMatch(new RegExp(`^${today} \\(today, so far\\): .*\\(\\d+ sessions?`));
    expect(await page.locator('#valence-chart g.bucket').last().getAttribute('class')).toContain(
      'bucket--today',
    );
    expect(await page.locator('#valence-chart text', { hasText: 'today, so far' }).count()).toBe(1);
    // The labels chart's tooltips name each label with its count.
    const labelTips = await page.$$eval('#labels-chart g.bucket > title', (titles) =>
      titles.map((title) => title.textContent ?? ''),
    );
    expect(labelTips.some((tip) => /: [a-z]+ \d+/.test(tip))).toBe(true);
    await page.close();
  });

  it('gives each label its own fill and pattern with a legend, in light and in dark', async () => {
    const seen: string[][] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await (await browser.newContext({ colorScheme })).newPage();
      await page.goto(`${base}/corpus?days=30`);
      const legend = await page.locator('#labels-legend li').allTextContents();
      expect(legend.length).toBeGreaterThan(1);
      const colours = (await labelColours(page)).slice(0, legend.length);
      expect(new Set(colours).size).toBe(colours.length);
      // Each label has a pattern of its own, so colour is not the only difference.
      const marks = await page.$$eval('#labels-chart pattern', (patterns) =>
        patterns.map((pattern) => pattern.innerHTML.replace(/class="label-\d"/, '')),
      );
      expect(new Set(marks.slice(0, legend.length)).size).toBe(Math.min(legend.length, 6));
      seen.push(colours);
      await page.close();
    }
    expect(seen[0]).not.toEqual(seen[1]);
  });
});

describe('the Honesty page in a browser', () => {
  it('shows the belief, behaviour and gap `mecha verdicts claims --json` gives', async () => {
    const { json } = mechaJson<{
      grades: {
        skill: string;
        belief: number;
        behaviour: number | null;
        attempts: number;
        verdict: string;
        reason: string;
      }[];
      gap: number | null;
      portrait: { honest: boolean };
    }>(['verdicts', 'claims', '--json'], { MECHA_HOME: home });
    expect(json.grades.length).toBeGreaterThan(0);
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${base}/`);
    await Promise.all([page.waitForURL(/\/honesty$/), page.click('nav >> text=Honesty')]);
    const shown = await page.$$eval('#honesty-skills tr[data-skill]', (trs) =>
      trs.map((tr) => {
        const data = (tr as HTMLElement).dataset;
        return {
          skill: data.skill,
          belief: Number(data.belief),
          behaviour: data.behaviour === '' ? null : Number(data.behaviour),
          attempts: Number(data.attempts),
          verdict: data.verdict,
          reason: data.reason,
        };
      }),
    );
    expect(shown).toEqual(
      json.grades.map(({ skill, belief, behaviour, attempts, verdict, reason }) => ({
        skill,
        belief,
        behaviour,
        attempts,
        verdict,
        reason,
      })),
    );
    const gap = await page.locator('#honesty-gap').getAttribute('data-gap');
    expect(gap === '' ? null : Number(gap)).toBe(json.gap);
    expect(await page.locator('#honesty-portrait').getAttribute('data-honest')).toBe(
      String(json.portrait.honest),
    );
    await page.close();
  });

  it('names an unreadable store as unread, as the command does', async () => {
    const scores = join(home, 'appraisals', 'scores.jsonl');
    renameSync(scores, `${scores}.away`);
    try {
      const cli = mecha(['verdicts', 'claims'], { MECHA_HOME: home });
      expect(cli.stderr).toContain('scores cannot be read');
      const page = await (await browser.newContext()).newPage();
      await page.goto(`${base}/honesty`);
      expect(await page.locator('#honesty-unread-stores li').allTextContents()).toEqual([
        'scores: unread',
      ]);
      await page.close();
    } finally {
      renameSync(`${scores}.away`, scores);
    }
  });
});

describe('the new pages on a phone', () => {
  it('read at 390 and 320 px without sideways scrolling, axe-clean in light and dark', async () => {
    const findings: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ colorScheme, bypassCSP: true });
      const page = await context.newPage();
      for (const width of [390, 320]) {
        await page.setViewportSize({ width, height: 640 });
        for (const path of [
          '/corpus?days=7',
          '/corpus?days=30',
          '/corpus?days=90',
          '/corpus',
          '/honesty',
        ]) {
          await page.goto(`${base}${path}`);
          // The tables under the charts open too: they scroll in their own box, never the page.
          await page.evaluate(() => {
            document.querySelectorAll('details').forEach((details) => {
              details.open = true;
            });
          });
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
          );
          expect(overflow, `${path} at ${width} px`).toBeLessThanOrEqual(1);
          if (width === 320) {
            for (const finding of await axeFindings(page)) {
              findings.push(`${path} (${colorScheme}, ${width} px): ${finding}`);
            }
          }
        }
      }
      await context.close();
    }
    expect(findings).toEqual([]);
  });
});
