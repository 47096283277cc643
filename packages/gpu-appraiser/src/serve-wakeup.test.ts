import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDeviceScheduler } from '@mecha/local-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedAppraiserModel } from './__fixtures__/scripted-appraiser.js';
import { openAppraiser, openServedMemory } from './appraiser.js';
import type { RunReport } from './appraiser-types.js';
import { serveLoop } from './serve.js';

// The serve loop's wait, with the interleaving that once hung a CLI test forced on purpose: a
// control is committed by another connection after a round has applied the pending controls and
// before it waits. The wait must still wake for it. Nothing here waits for a length of time: the
// loop is bounded by how often it looks at the list of other memories (once a round, once per
// idle poll), so a server that missed the commit is stopped after a fixed number of polls
// however fast or slow the machine is. The model is scripted (no real model can run here); the
// memory is a real SQLite store, and the control goes through a second real connection.

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'mecha-serve-wakeup-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const report = (text: string) => ({ text, owner: 'alice', scope: 'team', subject: 'bob' });

describe('serveLoop: a control committed mid-round', () => {
  it('wakes the wait at once when the control lands between the flags and the wait', async () => {
    const directory = join(root, 'memory');
    // Another process's connection: appraisal on, one source queued, background still off.
    const here = openAppraiser({ directory });
    here.setAppraisal('on');
    const queued = here.retainSource(report('Bob fixed the build and will pay the fee.'));

    const model = createDeviceScheduler(scriptedAppraiserModel(() => ({ quotes: [] })));
    const served = openServedMemory(directory, { directory, model });
    // The server applies the pending controls at the start of its tick; right after, before it
    // reads the flags and goes idle, the other connection turns background on.
    let committed = false;
    const appraiser = {
      ...served.appraiser,
      applyPending: () => {
        const applied = served.appraiser.applyPending();
        if (!committed) {
          committed = true;
          here.setAppraisal({ background: true });
        }
        return applied;
      },
    };

    const stop = new AbortController();
    let looks = 0;
    const runs: RunReport[] = [];
    const result = await serveLoop({
      core: served.core,
      appraiser,
      signal: stop.signal,
      pollMs: 1,
      open: (other) => openServedMemory(other, { directory: other, model }),
      others: async () => {
        looks += 1;
        // 20 looks is 18 idle polls past the two rounds the server needs: it missed the commit.
        if (looks > 20) stop.abort();
        return [];
      },
      onRun: (run) => {
        runs.push(run);
        stop.abort();
      },
    });

    expect(result).toEqual({ _tag: 'Right', right: { runs: runs.length } });
    expect(committed).toBe(true);
    // The first round found background off and waited; the commit woke it without one poll, and
    // the second round applied the control and appraised the source in the background.
    expect(runs).toHaveLength(1);
    expect(runs[0]?.items).toEqual([
      expect.objectContaining({ queueId: queued.queueId, state: 'complete' }),
    ]);
    expect(looks).toBe(2);
    served.appraiser.close();
    here.close();
  });
});
