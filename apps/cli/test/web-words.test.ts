// The callbacks handed to the page run in the browser: they need the DOM's types.
/// <reference lib="dom" />
// The owner's words on the web board, in a real browser: `mecha web` as a person starts it (a
// subprocess on a random loopback port), driven by Debian's chromium through playwright-core.
// The owner edits a stranger's draft and answers a parked question; the words are then read
// back the way a harness reads them, through @mecha/stores. Screenshots go to
// test-artifacts/web (git-ignored).
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createSessionRecorder,
  initHome,
  openHome,
  readDraftVerdict,
  readQuestionAnswer,
  rightOrThrow,
} from '@mecha/stores';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeBoard, launchChromium } from './browser.js';
import { startWeb, tempDir } from './helpers.js';

const require = createRequire(import.meta.url);
const artifacts = fileURLToPath(new URL('../test-artifacts/web/', import.meta.url));

// A stranger's mail the run drafted from: markup that tries to close the edit box and run.
const strangerDraft =
  'Re: invoice </textarea><script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">';
const edit = [
  'Dear Ana,',
  'Friday works. <script>window.pwned = 3</script>',
  '— Sam \u001b[31m(sent from the board)\u001b[0m',
].join('\n');
const answer = 'Use the Lakeside totals, <b>not</b> Northwind.\nAnd copy Priya.';
// The question the run asked, in its transcript: a model's words may carry a stranger's markup.
const asked =
  'Which totals, <b>Lakeside</b> or Northwind?</pre><script>window.pwned = 4</script>\u001b[31m\nI can do either by Friday.';
// A question too long to show whole beside its box.
const longQuestion = Array.from(
  { length: 60 },
  (_, line) => `Point ${line}: ${'which-of-the-totals '.repeat(4)}`,
).join('\n');
// A draft whose box cannot show all of it: a leading line break and control characters.
const controlDraft = '\nDear Ana,\u001b[31m\tsee below\u202e\r\nSam';

let home: string;
let server: ChildProcess;
let exited: Promise<number | null>;
let base: string;
let browser: Browser;
let draftId: string;
let controlDraftId: string;
let typedDraftId: string;
let questionId: string;
let longQuestionId: string;
let sessionId: string;

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
}

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  home = join(tempDir('mecha-web-words-'), 'home');
  rightOrThrow(initHome(home));
  const session = createSessionRecorder(openHome(home));
  sessionId = session.sessionId;
  const run = rightOrThrow(await session.startRun({ surface: 'web', personPresent: true }));
  draftId = rightOrThrow(
    await session.stageDraft({ tool: 'mail_send', taint: 'third_party', text: strangerDraft }),
  ).draftId;
  controlDraftId = rightOrThrow(
    await session.stageDraft({ tool: 'mail_send', taint: 'clean', text: controlDraft }),
  ).draftId;
  typedDraftId = rightOrThrow(
    await session.stageDraft({ tool: 'mail_send', taint: 'clean', text: 'See you Monday.' }),
  ).draftId;
  rightOrThrow(
    await run.message({ turn: 1, role: 'assistant', taint: 'third_party', text: asked }),
  );
  questionId = rightOrThrow(await session.parkQuestion({ purpose: 'goal' })).questionId;
  rightOrThrow(await run.end({ stopCause: 'parked', turns: 1 }));
  const other = createSessionRecorder(openHome(home));
  const otherRun = rightOrThrow(await other.startRun({ surface: 'tui' }));
  rightOrThrow(
    await otherRun.message({ turn: 1, role: 'assistant', taint: 'clean', text: longQuestion }),
  );
  longQuestionId = rightOrThrow(await other.parkQuestion()).questionId;
  rightOrThrow(await otherRun.end({ stopCause: 'parked', turns: 1 }));

  ({ server, base, exited } = await startWeb({ MECHA_HOME: home }));
  browser = await launchChromium();
});

afterAll(async () => {
  await closeBoard(browser, server, exited);
});

describe('the owner’s words from the web board, in a browser', () => {
  it('edits a stranger’s draft in its box and sends it; the harness reads the edited words', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${base}/drafts`);
    const box = page.locator(`#draft-${draftId} textarea[name="text"]`);
    // The stranger's markup fills the box as text: it neither closed the box nor ran.
    await expect(box.inputValue()).resolves.toBe(strangerDraft);
    await box.fill(edit);
    await page.locator(`#draft-${draftId} button[value="send_edited"]`).click();
    await page.waitForSelector('#said');
    expect(await page.locator('#said p').first().textContent()).toBe(
      `Sent ${draftId} with your edits.`,
    );
    // Shown back as text, control characters stripped, line breaks kept.
    expect(await page.locator('#said pre').textContent()).toBe(edit.split('\u001b').join(''));
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBe(
      undefined,
    );
    await shot(page, 'drafts-edited');

    const read = await readDraftVerdict(openHome(home), draftId);
    expect(read).toMatchObject({
      state: 'send',
      outcome: 'sent_edited',
      sender: 'owner',
      sessionId,
      taint: 'third_party',
    });
    // The browser sent the box's line breaks as \r\n; they are kept as \n, the rest as typed.
    expect(read.state === 'send' && read.text).toBe(edit);
    await page.close();
  });

  it('types into the box and clicks Send beside it: the edit is sent, and a reload sends nothing', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${base}/drafts`);
    await page.locator(`#draft-${typedDraftId} textarea[name="text"]`).fill('See you Friday.');
    await page.locator(`#draft-${typedDraftId} button[value="send"]`).click();
    await page.waitForSelector('#said');
    expect(await page.locator('#said p').first().textContent()).toBe(
      `Sent ${typedDraftId} with your edits.`,
    );
    // POST, redirect, GET: the address is the page's, with the act's message kept.
    expect(new URL(page.url()).pathname).toBe('/drafts');
    const read = await readDraftVerdict(openHome(home), typedDraftId);
    expect(read).toMatchObject({ state: 'send', outcome: 'sent_edited', sender: 'owner' });
    expect(read.state === 'send' && read.text).toBe('See you Friday.');
    const outbox = readFileSync(join(home, 'outbox', 'outbox.jsonl'), 'utf8');
    await page.reload();
    expect(await page.locator('#said p').first().textContent()).toBe(
      `Sent ${typedDraftId} with your edits.`,
    );
    expect(readFileSync(join(home, 'outbox', 'outbox.jsonl'), 'utf8')).toBe(outbox);
    await page.close();
  });

  it('refuses an edit box sent back untouched, though it could not show all of the draft', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${base}/drafts`);
    const box = page.locator(`#draft-${controlDraftId} textarea[name="text"]`);
    expect(await box.inputValue()).toBe('\nDear Ana,[31m see below\nSam');
    await page.locator(`#draft-${controlDraftId} button[value="send_edited"]`).click();
    await page.waitForSelector('#said');
    expect(await page.locator('#said').textContent()).toContain(
      `the edit is the draft as written: use Send to send ${controlDraftId} unchanged`,
    );
    expect((await readDraftVerdict(openHome(home), controlDraftId)).state).toBe('pending');
    await page.close();
  });

  it('shortens a long question, opens the rest from the keyboard, and stays accessible at 400% zoom', async () => {
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${base}/questions`);
    const item = page.locator(`#question-${longQuestionId}`);
    const shown = (await item.locator('.question__words').textContent()) ?? '';
    expect(shown.endsWith('…')).toBe(true);
    expect(longQuestion.startsWith(shown.slice(0, -1))).toBe(true);
    const whole = item.locator('details pre');
    expect(await whole.isVisible()).toBe(false);
    await item.locator('summary').focus();
    await page.keyboard.press('Enter');
    expect(await whole.isVisible()).toBe(true);
    expect(await whole.textContent()).toBe(longQuestion);
    // axe runs in the page (the context bypasses the CSP for its script only).
    await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
    const serious = await page.evaluate(async () => {
      const { axe } = window as unknown as {
        axe: {
          run: (context: Document) => Promise<{
            violations: { id: string; impact: string | null }[];
          }>;
        };
      };
      return (await axe.run(document)).violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => violation.id);
    });
    expect(serious).toEqual([]);
    await page.setViewportSize({ width: 320, height: 640 });
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    ).toBeLessThanOrEqual(1);
    await shot(page, 'questions-long-400-percent');
    await context.close();
  });

  it('answers a parked question in its box; the harness resuming the session reads the answer', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${base}/questions`);
    // The question is beside its box, as text: the stranger's markup neither closed it nor ran.
    const words = page.locator(`#question-${questionId} .question__words`);
    expect(await words.textContent()).toBe(
      'Which totals, <b>Lakeside</b> or Northwind?</pre><script>window.pwned = 4</script>[31m\nI can do either by Friday.',
    );
    expect(await page.locator(`#question-${questionId} b`).count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBe(
      undefined,
    );
    expect(await page.locator(`#question-${questionId} .taint`).textContent()).toBe(
      'third-party content',
    );
    expect(
      await page
        .locator(`#question-${questionId} textarea[name="answer"]`)
        .getAttribute('aria-describedby'),
    ).toBe(`asked-${questionId}`);
    await shot(page, 'questions-asked');
    await page.locator(`#question-${questionId} textarea[name="answer"]`).fill(answer);
    await page.locator(`#question-${questionId} button[type="submit"]`).click();
    await page.waitForSelector('#said');
    expect(await page.locator('#said p').first().textContent()).toBe(
      `Answered ${questionId} (session ${sessionId}).`,
    );
    expect(await page.locator('#said pre').textContent()).toBe(answer);
    expect(await page.locator('#said pre b').count()).toBe(0);
    expect(await page.locator(`#question-${questionId}`).count()).toBe(0);
    await shot(page, 'questions-answered');

    expect(await readQuestionAnswer(openHome(home), questionId)).toEqual({
      state: 'answered',
      questionId,
      sessionId,
      purpose: 'goal',
      skipped: 0,
      at: expect.any(String),
      text: answer,
    });
    await page.close();
  });
});
