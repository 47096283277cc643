import { spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { openHome } from '@mecha/stores';
import { afterEach, describe, expect, it } from 'vitest';
import { conversation, events } from '../__fixtures__/events.js';
import { scriptedDistiller } from '../__fixtures__/scripted-distiller.js';
import { testHome, testNow } from '../__fixtures__/test-home.js';
import { distill } from './distill.js';
import { distillOnSessionEnd, nightly, nightlyLockFile } from './nightly.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const A = '20260925T090000-aaaaaaa1';
const B = '20260925T100000-bbbbbbb2';

describe('the nightly pass', () => {
  it('does nothing while another pass holds the lock, and runs once it is free', async () => {
    const made = testHome();
    cleanups.push(made.remove);
    made.writeSession(A, conversation());
    const model = scriptedDistiller();
    const options = { home: made.open(), model, clock: () => testNow };
    // Another live process holds the lock, as a pass started by a timer would.
    const other = spawn('sleep', ['600'], { stdio: 'ignore' });
    cleanups.push(() => other.kill());
    const lock = join(made.path, nightlyLockFile);
    writeFileSync(lock, `${other.pid}\n${hostname()}\nother-pass\n`);
    const inner = await nightly(options);
    expect(inner).toMatchObject({ state: 'busy' });
    expect(inner?.state === 'busy' && inner.message).toMatch(/another nightly pass is running/);
    expect(model.prompts).toHaveLength(0);
    expect(made.ledger()).toEqual([]);
    other.kill();
    rmSync(lock);
    const ran = await nightly(options);
    expect(ran.state).toBe('done');
    expect(made.ledger()).toEqual([{ session_id: A, outcome: 'pushed' }]);
  });
});

describe('reflect in the nightly pass', () => {
  it('reflects on the owner’s corrections before it distils, both in one report', async () => {
    const made = testHome();
    cleanups.push(made.remove);
    const steered = [
      ...conversation(),
      {
        v: 1 as const,
        at: '2026-09-25T09:20:00Z',
        run_id: 'run-1',
        type: 'intervention' as const,
        turn: 3,
        kind: 'steer' as const,
      },
      { ...events.owner('m-steer', 'Use the other template.', '2026-09-25T09:20:01Z'), turn: 3 },
    ];
    made.writeSession(A, steered);
    const ran = await nightly({
      home: made.open(),
      model: scriptedDistiller(),
      clock: () => testNow,
      dryRun: true,
    });
    expect(ran.state).toBe('done');
    if (ran.state !== 'done') return;
    expect(ran.reflected?.state === 'ran' && ran.reflected.report.corrections).toEqual([
      expect.objectContaining({ kind: 'steer', sessionId: A, outcome: 'would_reflect' }),
    ]);
    expect(ran.report.dryRun).toBe(true);
  });
});

describe('a home that does not exist', () => {
  it('is refused (no_home, naming mecha init) by nightly and distill, and nothing is made', async () => {
    const made = testHome();
    cleanups.push(made.remove);
    const absent = join(made.path, 'absent');
    const model = scriptedDistiller();
    const home = openHome(absent);
    for (const ran of [
      await nightly({ home, model, clock: () => testNow }),
      await distill({ home, model, clock: () => testNow, dryRun: true }),
    ]) {
      expect(ran).toMatchObject({ state: 'cannot_run', reason: 'no_home' });
      expect(ran.state === 'cannot_run' && ran.message).toContain('mecha init --home');
    }
    expect(model.prompts).toHaveLength(0);
    expect(existsSync(absent)).toBe(false);
  });
});

describe('the session_end hook', () => {
  it('distills only the session that closed, and a second firing does nothing', async () => {
    const made = testHome();
    cleanups.push(made.remove);
    made.writeSession(A, conversation());
    made.writeSession(B, conversation());
    const model = scriptedDistiller();
    const fire = () =>
      distillOnSessionEnd({ home: made.open(), model, clock: () => testNow, sessionId: B });
    const first = await fire();
    expect(first.state === 'done' && first.report.sessions).toEqual([
      { sessionId: B, outcome: 'pushed', graph: 'inserted' },
    ]);
    const second = await fire();
    expect(second.state === 'done' && second.report.considered).toBe(0);
    expect(made.ledger()).toEqual([{ session_id: B, outcome: 'pushed' }]);
  });
});
