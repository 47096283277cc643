import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTinyLlamaGguf } from '@mecha/fixtures';
import { createLocalModel } from '@mecha/local-model';
import { afterAll, describe, expect, it } from 'vitest';
import { openAppraiser } from './appraiser.js';
import { reservedTokens } from './kv-reservation.js';

// A run that loads its own model reserves the configured key/value pages when it first has
// work, before the model is given any input. The real path: node-llama-cpp loads a tiny
// random-weight GGUF trained with a 2,048-token context, so 128 pages of 16 tokens fit and 200
// do not. One thread: see local-model.

const root = mkdtempSync(join(tmpdir(), 'mecha-appraiser-reserve-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const files = (directory: string) =>
  ['memory.sqlite', 'journal.jsonl'].map((name) =>
    existsSync(join(directory, name)) ? readFileSync(join(directory, name)) : undefined,
  );

describe('a run reserves the page pool before its first input', () => {
  it('loads nothing with nothing pending, and refuses an oversized pool with nothing written', async () => {
    const path = join(root, 'tiny.gguf');
    await writeTinyLlamaGguf({ path, seed: 3 });
    const directory = join(root, 'memory');
    const pages = 200;
    const model = createLocalModel({
      path,
      threads: 1,
      gpu: false,
      contextSize: reservedTokens(pages),
    });
    // Counts the loads the run asks for; each is the real model's load.
    let loads = 0;
    const reservable = {
      load: () => {
        loads += 1;
        return model.load();
      },
    };
    try {
      const setup = openAppraiser({ directory });
      setup.setAppraisal('on');
      setup.setLimits({ pagesPerSequence: pages });
      setup.applyPending();
      setup.close();

      const idle = openAppraiser({ directory, model, reservable });
      expect(await idle.run()).toEqual({ state: 'done', items: [], modelCalls: 0 });
      idle.close();
      expect(loads).toBe(0);

      const intake = openAppraiser({ directory });
      const { queueId } = intake.retainSource({
        text: 'Bob fixed the build.',
        owner: 'alice',
        scope: 'team',
        subject: 'bob',
      });
      intake.close();
      const before = files(directory);

      const appraiser = openAppraiser({ directory, model, reservable });
      const report = await appraiser.run();
      expect(loads).toBe(1);
      expect(report).toEqual({
        state: 'unreserved',
        items: [],
        modelCalls: 0,
        reason:
          'cannot reserve 200 key/value pages (3200 tokens per sequence): the model holds at most 2048 tokens per sequence (trained context 2048); set at most 128 pages (mecha appraiser limits --pages 128)',
      });
      expect(appraiser.queueState(queueId ?? -1)).toBe('pending');
      appraiser.close();
      expect(files(directory)).toEqual(before);
    } finally {
      await model.dispose();
    }
  }, 600_000);
});
