// The callbacks handed to the page run in the browser: they need the DOM's types.
/// <reference lib="dom" />
// The session page in a real browser (`mecha web` as a subprocess, Debian's chromium through
// playwright-core): a cite is a link that takes you to its turn and highlights it, long text is
// folded, and neither the page nor the runs list scrolls sideways on a phone; on the runs list
// every chip's bar starts at the same x, so runs can be compared at a glance.
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import {
  createSessionRecorder,
  decideDraft,
  initHome,
  openHome,
  rightOrThrow,
} from '@mecha/stores';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeBoard, launchChromium } from './browser.js';
import { startWeb, tempDir } from './helpers.js';

let home: string;
let server: ChildProcess;
let exited: Promise<number | null>;
let base: string;
let browser: Browser;
let sessionId: string;

beforeAll(async () => {
  home = join(tempDir('mecha-web-session-'), 'home');
  rightOrThrow(initHome(home));
  // Three sessions with different label words (or none), so their chips differ in width.
  for (const [index, stop] of (['stopped', 'completed', 'completed'] as const).entries()) {
    const recorder = createSessionRecorder(openHome(home));
    const run = rightOrThrow(await recorder.startRun({ surface: 'tui', personPresent: true }));
    for (let turn = 1; turn <= 8; turn += 1) {
      rightOrThrow(
        await run.message({
          turn,
          role: 'assistant',
          taint: 'clean',
          // Answers of different lengths: the chips must line up however long the answer.
          text: `Turn ${turn}: ${'a-very-long-unbroken-word-'.repeat(turn === 2 ? 40 : 1)}${'and more '.repeat(turn === 8 ? index * 9 : 0)}`,
        }),
      );
    }
    if (index === 1) rightOrThrow(await run.stepCheck({ turn: 6, stepId: 'check', passed: false }));
    if (index === 0) rightOrThrow(await run.intervention({ turn: 6, kind: 'steer' }));
    // A draft the owner sends as written: a positive word, so the chips differ in width.
    const draft =
      index === 2
        ? rightOrThrow(await recorder.stageDraft({ tool: 'mail_send', taint: 'clean', text: 'Hi' }))
            .draftId
        : undefined;
    rightOrThrow(await run.end({ stopCause: stop, turns: 8 }));
    if (draft !== undefined) {
      const sent = await decideDraft(openHome(home), { query: draft, verdict: 'send', env: {} });
      expect(rightOrThrow(sent).state).toBe('decided');
    }
    // The steered session: its steer is cited as turn 6.
    if (index === 0) sessionId = recorder.sessionId;
  }
  ({ server, base, exited } = await startWeb({ MECHA_HOME: home }));
  browser = await launchChromium();
});

afterAll(async () => {
  await closeBoard(browser, server, exited);
});

describe('the session page in a browser', () => {
  it('links a cite to its turn and highlights the turn it takes you to', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${base}/sessions/${sessionId}`);
    expect(await page.locator('#why').textContent()).toContain('because');
    const cite = page.locator('ul.errors a[href="#turn-6"]');
    expect(await cite.count()).toBe(1);
    await cite.click();
    expect(new URL(page.url()).hash).toBe('#turn-6');
    const highlighted = await page.evaluate(() => {
      const target = document.querySelector(':target');
      return target === null
        ? null
        : { id: target.id, outline: getComputedStyle(target).outlineStyle };
    });
    expect(highlighted).toEqual({ id: 'turn-6', outline: 'solid' });
    // The long message is folded: its start shown, the whole a click away.
    const fold = page.locator('#turn-2 details');
    expect(await fold.locator('pre').isVisible()).toBe(false);
    await fold.locator('summary').click();
    expect(await fold.locator('pre').isVisible()).toBe(true);
    await page.close();
  });

  it('scrolls sideways neither on a phone nor at 400% zoom', async () => {
    const page = await (await browser.newContext()).newPage();
    for (const width of [390, 320]) {
      await page.setViewportSize({ width, height: 700 });
      for (const path of [`/sessions/${sessionId}`, '/']) {
        await page.goto(`${base}${path}`);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `${path} at ${width} px`).toBeLessThanOrEqual(1);
      }
    }
    await page.close();
  });

  it('puts every chip, and its bar, at the same x on the runs list', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${base}/`);
    // Each chip's left edge and its bar's: one column, one x.
    const xs = await page.evaluate(() =>
      Array.from(document.querySelectorAll('#runs .chip')).map((chip) => {
        const bar = chip.querySelector('.bar');
        return `${Math.round(chip.getBoundingClientRect().left)}/${Math.round(bar?.getBoundingClientRect().left ?? -1)}`;
      }),
    );
    const words = await page.evaluate(() =>
      Array.from(document.querySelectorAll('#runs .chip')).map((chip) =>
        chip.getAttribute('data-word'),
      ),
    );
    // Different words (or none) make chips of different widths.
    expect(new Set(words).size).toBeGreaterThan(1);
    expect(xs.length).toBe(3);
    expect(new Set(xs).size).toBe(1);
    await page.close();
  });
});
