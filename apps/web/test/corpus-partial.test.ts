import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { appraiseCorpus } from '@mecha/appraisal-core';
import {
  createSessionRecorder,
  homePorts,
  openHome,
  rightOrThrow,
  withReadLog,
} from '@mecha/stores';
import { describe, expect, it } from 'vitest';
import { boardApp, emptyHome, origin } from './helpers.js';

// The corpus page says why its valence is partial as `mecha sessions appraise --json` does:
// the sources not read whole, named with their reasons, or a run that compacted.

async function compactedHome(): Promise<string> {
  const path = emptyHome();
  const recorder = createSessionRecorder(openHome(path));
  const run = rightOrThrow(await recorder.startRun({ surface: 'tui', personPresent: true }));
  rightOrThrow(await run.intervention({ turn: 1, kind: 'steer' }));
  rightOrThrow(await run.compaction({ turn: 2 }));
  rightOrThrow(await run.end({ stopCause: 'completed', turns: 2 }));
  return path;
}

async function corpusPage(path: string): Promise<string> {
  const { app } = await boardApp(path);
  const response = await app.request(`${origin}/corpus`);
  expect(response.status).toBe(200);
  return response.text();
}

describe('why the corpus is partial', () => {
  it('says a run compacted when every source was read whole', async () => {
    const path = await compactedHome();
    const logged = withReadLog(homePorts(openHome(path)));
    const corpus = await appraiseCorpus(logged.ports, { now: new Date() });
    expect(corpus.valence.partial).toBe(true);
    expect(logged.problems()).toEqual([]);
    const page = await corpusPage(path);
    expect(page).toContain('(partial: a run compacted, so its interventions could not be scoped)');
    expect(page).not.toContain('not read whole (listed below)');
  });

  it('names each source not read whole and why, as --json does', async () => {
    const path = await compactedHome();
    // A damaged line in the outbox: the readout is partial because of it.
    mkdirSync(join(path, 'outbox'), { recursive: true });
    appendFileSync(join(path, 'outbox', 'outbox.jsonl'), '{"v":1,"type":"staged"}\n');
    const logged = withReadLog(homePorts(openHome(path)));
    await appraiseCorpus(logged.ports, { now: new Date() });
    const problems = logged.problems();
    expect(problems.length).toBeGreaterThan(0);
    const page = await corpusPage(path);
    expect(page).toContain('not read whole (listed below)');
    expect(page).not.toContain('a run compacted');
    for (const problem of problems) {
      expect(page).toContain(`<li><code>${problem.source}</code>: ${problem.what}</li>`);
    }
  });
});
