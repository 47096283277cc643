// The callbacks handed to the page run in the browser: they need the DOM's types.
/// <reference lib="dom" />
// The board's keyboard shortcuts, dark mode and icon in a real browser (`mecha web` as a
// subprocess over a generated home, Debian's chromium through playwright-core). An act taken
// from the keyboard is read back through `@mecha/stores`, as the CLI reads it.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { generateHome } from '@mecha/fixtures/home';
import { addTask, openHome, rightOrThrow } from '@mecha/stores';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeBoard, launchChromium } from './browser.js';
import { startWeb, tempDir } from './helpers.js';

const require = createRequire(import.meta.url);

let home: string;
let server: ChildProcess;
let exited: Promise<number | null>;
let base: string;
let browser: Browser;

beforeAll(async () => {
  home = join(tempDir('mecha-web-keys-'), 'home');
  generateHome({
    path: home,
    seed: 'web-keys',
    sessions: 60,
    days: 20,
    start: new Date(Date.now() - 20 * 86_400_000),
  });
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

describe('keyboard, dark mode and icon', () => {
  it('walks the runs list with j and k, pages with n, and leaves typing in the search box alone', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${base}/`);
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    const second = await page.locator('#runs > li').nth(1).getAttribute('id');
    expect(await page.locator('[data-selected]').getAttribute('id')).toBe(second);
    await page.keyboard.press('k');
    expect(await page.locator('[data-selected]').getAttribute('id')).toBe(
      await page.locator('#runs > li').first().getAttribute('id'),
    );
    // Typing j, k, n and / into the search box types them; nothing moves.
    await page.keyboard.press('/');
    await page.keyboard.type('jkn/');
    expect(await page.locator('input[name="q"]').inputValue()).toBe('jkn/');
    expect(page.url()).toBe(`${base}/`);
    await page.locator('input[name="q"]').fill('');
    await page.locator('h1').click();
    await Promise.all([page.waitForURL(/page=2/), page.keyboard.press('n')]);
    expect(await page.locator('.pager__current').textContent()).toBe('2');
    // Every shortcut is listed on the page.
    await page.keyboard.press('?');
    expect(await page.locator('#keys').getAttribute('open')).not.toBeNull();
    expect(await page.locator('#keys dt').allTextContents()).toContain('j / k');
    await page.close();
  });

  it('closes the selected task with d: the closure is on the board the CLI reads', async () => {
    const added = rightOrThrow(
      await addTask(openHome(home), { title: 'Water the ferns', status: 'next' }),
    );
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${base}/board?status=next`);
    const ids = await page
      .locator('li[data-task]')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-task')));
    const index = ids.indexOf(added.task.id);
    expect(index).toBeGreaterThanOrEqual(0);
    for (let step = 0; step <= index; step += 1) await page.keyboard.press('j');
    expect(await page.locator('[data-selected]').getAttribute('data-task')).toBe(added.task.id);
    await Promise.all([page.waitForURL(/said=/), page.keyboard.press('d')]);
    const board = await openHome(home).board.read();
    if (board.state === 'unreadable') throw new Error(board.reason);
    const task = board.records
      .filter((record) => record.kind === 'task' && record.id === added.task.id)
      .at(-1);
    expect(task?.kind === 'task' ? task.status : undefined).toBe('done');
    await page.close();
  });

  it('follows the system’s dark setting, stays axe-clean in it, and has an icon', async () => {
    const context = await browser.newContext({ colorScheme: 'dark', bypassCSP: true });
    const page = await context.newPage();
    const findings: string[] = [];
    for (const path of ['/', '/board', '/drafts', '/corpus']) {
      await page.goto(`${base}${path}`);
      for (const finding of await axeFindings(page)) findings.push(`${path}: ${finding}`);
    }
    expect(findings).toEqual([]);
    const background = await page.evaluate(
      () => getComputedStyle(document.documentElement).backgroundColor,
    );
    expect(background).toBe('rgb(18, 22, 27)');
    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    const response = await page.request.get(`${base}${icon}`);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('image/svg+xml');
    await context.close();
  });
});
