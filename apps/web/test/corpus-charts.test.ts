import { appraiseCorpus } from '@mecha/appraisal-core';
import { generateHome } from '@mecha/fixtures/home';
import { createSessionRecorder, homePorts, openHome, rightOrThrow } from '@mecha/stores';
import { beforeAll, describe, expect, it } from 'vitest';
import { corpusBuckets } from '../src/pages/corpus-days.js';
import { corpusPage } from '../src/pages/corpus-page.js';
import { boardApp, emptyHome, origin } from './helpers.js';

// The corpus charts as the server draws them: a window for each address, every bar with its
// tooltip, today's bar marked as so far, and a day whose sessions could not be read drawn as
// unknown, never as a bar of 0.

let app: Awaited<ReturnType<typeof boardApp>>['app'];

beforeAll(async () => {
  const path = emptyHome();
  generateHome({
    path,
    seed: 'corpus-charts',
    sessions: 60,
    days: 20,
    start: new Date(Date.now() - 20 * 86_400_000),
  });
  // A session today, so today's bar has something in it.
  const recorder = createSessionRecorder(openHome(path));
  const run = rightOrThrow(await recorder.startRun({ surface: 'tui', personPresent: true }));
  rightOrThrow(await run.intervention({ turn: 1, kind: 'steer' }));
  rightOrThrow(await run.end({ stopCause: 'completed', turns: 1 }));
  ({ app } = await boardApp(path));
});

async function page(path: string): Promise<string> {
  const response = await app.request(`${origin}${path}`);
  expect(response.status).toBe(200);
  return response.text();
}

const bars = (text: string, chart: string) => {
  const svg = text.slice(
    text.indexOf(`id="${chart}"`),
    text.indexOf('</svg>', text.indexOf(`id="${chart}"`)),
  );
  return [
    ...svg.matchAll(/<g class="bucket[^"]*" data-day="([\d-]+)"><title>([^<]*)<\/title>/g),
  ].map((match) => ({ day: match[1], title: match[2] }));
};

describe('the corpus charts', () => {
  it('offers 7, 30, 90 days and all as addresses, marking the one shown', async () => {
    const text = await page('/corpus?days=7');
    expect(text).toContain('<a href="/corpus?days=7" aria-current="page">7 days</a>');
    expect(text).toContain('<a href="/corpus?days=30">30 days</a>');
    expect(text).toContain('<a href="/corpus">all</a>');
    // Seven days back to today: eight calendar days, none missing.
    expect(bars(text, 'valence-chart')).toHaveLength(8);
    expect(bars(await page('/corpus?days=30'), 'valence-chart')).toHaveLength(31);
    expect(await page('/corpus')).toContain('<a href="/corpus" aria-current="page">all</a>');
  });

  it('gives every bar a tooltip with its day and values, today’s as so far', async () => {
    const text = await page('/corpus?days=7');
    const valence = bars(text, 'valence-chart');
    for (const bar of valence) {
      expect(bar.title).toMatch(
        /^\d{4}-\d{2}-\d{2}( \(today, so far\))?: negative [\d.]+, positive [\d.]+ \(\d+ sessions?/,
      );
    }
    const today = new Date().toISOString().slice(0, 10);
    expect(valence[valence.length - 1]).toMatchObject({ day: today });
    expect(valence[valence.length - 1]?.title).toContain(`${today} (today, so far)`);
    expect(text).toContain('today, so far ▾');
    for (const bar of bars(text, 'labels-chart')) {
      expect(bar.title).toMatch(
        /^\d{4}-\d{2}-\d{2}( \(today, so far\))?: ((\w+ \d+)(, \w+ \d+)*|no label word)/,
      );
    }
  });
});

describe('a day none of whose sessions could be read', () => {
  it('is drawn as unknown with its own mark and tooltip, never as 0', async () => {
    const path = emptyHome();
    const corpus = await appraiseCorpus(homePorts(openHome(path)), { now: new Date() });
    const now = new Date('2026-06-15T12:00:00Z');
    const buckets = corpusBuckets(
      [
        {
          startedAt: '2026-06-13T09:00:00Z',
          valence: { positive: 1, negative: 2 },
          label: 'distress',
        },
        { startedAt: '2026-06-14T09:00:00Z', valence: null, label: null },
        { startedAt: '2026-06-14T10:00:00Z', valence: null, label: null },
      ],
      { now, days: 3 },
    );
    const text = String(
      await corpusPage(
        { ...corpus, labels: { ...corpus.labels, distress: 1 } as typeof corpus.labels },
        buckets,
        {
          days: 3,
          text: 'Sessions begun in the last 3 days',
        },
      ),
    );
    // In both charts: its own mark and tooltip, and no bar.
    for (const chart of ['valence-chart', 'labels-chart']) {
      expect(bars(text, chart)).toContainEqual({
        day: '2026-06-14',
        title: '2026-06-14: 2 sessions, none could be read: unknown, not 0',
      });
    }
    expect(text).toContain(
      '<tr data-day="2026-06-14" data-negative="" data-positive=""><td>2026-06-14</td><td class="number">unknown</td>',
    );
    // The day before it is a real bar.
    expect(text).toContain('2026-06-13: negative 2.0, positive 1.0 (1 session)');
  });
});
