import { fc, test } from '@fast-check/vitest';
import { addTask, createSessionRecorder, openHome, type RunRow, rightOrThrow } from '@mecha/stores';
import { beforeAll, describe, expect, it } from 'vitest';
import { pageNumbers, runsPerPage, sortRuns } from '../src/pages/runs-page.js';
import { boardApp, generatedHome, origin } from './helpers.js';

// The runs list as a table: ordered by either side of the valence or by time, searched over the
// last answer and the titles of the tasks a session worked on, with page numbers; all in the
// address, so every link works without the script.

let app: Awaited<ReturnType<typeof boardApp>>['app'];
let rows: readonly RunRow[];
let taskSession: string;

beforeAll(async () => {
  const path = generatedHome(80, 'runs-table');
  const home = openHome(path);
  const added = rightOrThrow(
    await addTask(home, { title: 'Renew the Zanzibar permit', status: 'next' }),
  );
  const recorder = createSessionRecorder(home);
  taskSession = recorder.sessionId;
  const run = rightOrThrow(
    await recorder.startRun({
      surface: 'web',
      personPresent: true,
      goal: { kind: 'task', id: added.task.id },
    }),
  );
  rightOrThrow(await run.message({ turn: 1, role: 'assistant', taint: 'clean', text: 'Filed.' }));
  rightOrThrow(await run.end({ stopCause: 'completed', turns: 1 }));
  const board = await boardApp(path);
  app = board.app;
  // The list's own population: ordinary sessions (test and experiment ones are kept out).
  rows = board.readout.population({ now: new Date() });
});

const shownIds = (page: string) => [...page.matchAll(/<li id="run-([^"]+)"/g)].map((m) => m[1]);

describe('the runs table', () => {
  it('orders by the negative side, the positive side, and oldest first', async () => {
    for (const side of ['negative', 'positive'] as const) {
      const page = await (await app.request(`${origin}/?sort=${side}`)).text();
      const expected = sortRuns(rows, side)
        .slice(0, runsPerPage)
        .map((row) => row.sessionId);
      expect(shownIds(page)).toEqual(expected);
      const values = expected.map(
        (id) => rows.find((row) => row.sessionId === id)?.valence?.[side] ?? -1,
      );
      expect(values).toEqual([...values].sort((a, b) => b - a));
      expect(values[0]).toBeGreaterThan(0);
    }
    const oldest = await (await app.request(`${origin}/?sort=oldest`)).text();
    expect(shownIds(oldest)[0]).toBe(rows[rows.length - 1]?.sessionId);
  });

  it('finds words in the last answer and in the title of a task the session worked on', async () => {
    const byTitle = await (await app.request(`${origin}/?q=zanzibar+PERMIT`)).text();
    expect(shownIds(byTitle)).toEqual([taskSession]);
    const source = rows.find((row) => (row.lastAnswer ?? '').split(' ').length > 3) as RunRow;
    const words = (source.lastAnswer as string).split(' ').slice(0, 3).join(' ').toUpperCase();
    const found = await (
      await app.request(`${origin}/?q=${encodeURIComponent(words)}&sort=negative`)
    ).text();
    const count = Number(/data-count="(\d+)"/.exec(found)?.[1]);
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(rows.length);
    // Every session whose answer holds the words is found (its task titles may add more).
    const holding = rows.filter((row) =>
      words
        .toLowerCase()
        .split(' ')
        .every((word) => (row.lastAnswer ?? '').toLowerCase().includes(word)),
    );
    expect(count).toBeGreaterThanOrEqual(holding.length);
    expect(holding.map((row) => row.sessionId)).toContain(source.sessionId);
    const none = await (await app.request(`${origin}/?q=qqxqqnothing`)).text();
    expect(shownIds(none)).toEqual([]);
    expect(none).toContain('No runs in this window.');
  });

  it('numbers the pages and keeps the order and search in every page link', async () => {
    const page = await (await app.request(`${origin}/?sort=positive&page=2`)).text();
    expect(page).toContain('<span class="pager__current" aria-current="page">2</span>');
    expect(page).toContain('<a href="/?sort=positive">1</a>');
    expect(page).toContain('<a href="/?sort=positive&amp;page=3">3</a>');
    expect(shownIds(page)).toEqual(
      sortRuns(rows, 'positive')
        .slice(runsPerPage, 2 * runsPerPage)
        .map((row) => row.sessionId),
    );
  });

  it('refuses an order it does not know, with the orders it takes', async () => {
    const response = await app.request(`${origin}/?sort=loudest`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('sort takes one of newest, oldest, negative, positive');
  });
});

test.prop([fc.integer({ min: 1, max: 500 }), fc.integer({ min: 1, max: 500 })])(
  'page numbers: first, last and current always shown, ascending, never two gaps together',
  (a, b) => {
    const pages = Math.max(a, b);
    const page = Math.min(a, b);
    const shown = pageNumbers(page, pages);
    if (pages === 1) {
      expect(shown).toEqual([]);
      return;
    }
    const numbers = shown.filter((entry): entry is number => entry !== null);
    expect(numbers).toContain(1);
    expect(numbers).toContain(pages);
    expect(numbers).toContain(page);
    expect(numbers).toEqual([...numbers].sort((x, y) => x - y));
    expect(new Set(numbers).size).toBe(numbers.length);
    shown.forEach((entry, index) => {
      if (entry === null) expect(shown[index + 1]).not.toBeNull();
    });
    expect(shown.length).toBeLessThanOrEqual(9);
  },
);

test.prop([
  fc.array(
    fc.option(
      fc.record({
        positive: fc.double({ min: 0, max: 3, noNaN: true }),
        negative: fc.double({ min: 0, max: 3, noNaN: true }),
      }),
      { nil: null },
    ),
    { maxLength: 40 },
  ),
  fc.constantFrom('negative' as const, 'positive' as const),
])(
  'sorting by a side keeps every row, larger first, unknown last, ties in list order',
  (valences, side) => {
    const list = valences.map(
      (valence, index) =>
        ({
          sessionId: `s-${index}`,
          valence: valence === null ? null : { ...valence, partial: false },
        }) as unknown as RunRow,
    );
    const sorted = sortRuns(list, side);
    expect(sorted.map((row) => row.sessionId).sort()).toEqual(
      list.map((row) => row.sessionId).sort(),
    );
    for (let index = 1; index < sorted.length; index += 1) {
      const before = sorted[index - 1] as RunRow;
      const after = sorted[index] as RunRow;
      if (before.valence === null) expect(after.valence).toBeNull();
      if (before.valence !== null && after.valence !== null) {
        expect(before.valence[side]).toBeGreaterThanOrEqual(after.valence[side]);
        if (before.valence[side] === after.valence[side]) {
          expect(Number(before.sessionId.slice(2))).toBeLessThan(Number(after.sessionId.slice(2)));
        }
      }
    }
  },
);
