import { type PopulationOptions, successes } from '@mecha/appraisal-core';
import type { Hono } from 'hono';
import { corpusBuckets } from '../pages/corpus-days.js';
import { corpusPage, successesPage } from '../pages/corpus-page.js';
import { type BoardContext, layoutNote } from './board-context.js';

/** Corpus and successes: the core's readouts over the in-memory readout. */
export function corpusRoutes(app: Hono, board: BoardContext): void {
  const { readout, render, now } = board;
  app.get('/corpus', async (context) => {
    const daysText = context.req.query('days');
    const days =
      daysText === undefined || daysText === ''
        ? undefined
        : /^\d{1,6}$/.test(daysText) && Number(daysText) >= 1
          ? Number(daysText)
          : null;
    if (days === null) {
      return render(
        context,
        {
          title: 'Corpus',
          current: '/corpus',
          content: layoutNote('Give days as a whole number from 1.'),
          said: { ok: false, lines: ['days takes a whole number of days from 1'] },
        },
        400,
      );
    }
    const population: PopulationOptions = { now: now(), ...(days === undefined ? {} : { days }) };
    const { corpus, notReadWhole } = await readout.corpusRead(population);
    // The charts count each session on the day it began: its valence, or null when unreadable.
    const sessions = readout.population(population).map((row) => ({
      startedAt: row.listing.startedAt,
      valence: row.valence === null || row.label === null ? null : row.valence,
      label:
        row.chip !== undefined && row.label !== null && row.label !== 'neutral' ? row.label : null,
    }));
    return render(context, {
      title: 'Corpus',
      current: '/corpus',
      content: corpusPage(
        corpus,
        corpusBuckets(sessions, population),
        {
          days,
          text: days === undefined ? 'Every session' : `Sessions begun in the last ${days} days`,
        },
        notReadWhole,
      ),
    });
  });
  // The successes readout, kept until the readout changes.
  let successesKept: { version: number; read: ReturnType<typeof successes> } | undefined;
  app.get('/successes', async (context) => {
    if (successesKept?.version !== readout.version) {
      successesKept = {
        version: readout.version,
        read: successes(readout.ports(), { includeTests: false }),
      };
    }
    return render(context, {
      title: 'Successes',
      current: '/successes',
      content: successesPage(await successesKept.read),
    });
  });
}
