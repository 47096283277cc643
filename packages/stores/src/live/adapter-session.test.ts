import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { homePorts } from '../home-ports.js';
import { openHome } from '../open-home.js';
import { adapterSession } from './adapter-session.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'mecha-adapter-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

describe('adapterSession', () => {
  it('writes calls made without awaiting in call order, and ends a run once', async () => {
    const session = adapterSession({ home, surface: 'web', warn: () => expect.fail('no warning') });
    const run = session.startRun({ tools: ['fs_read'] });
    for (let turn = 0; turn < 5; turn += 1) {
      void run.record((recorder) =>
        recorder.message({ turn, role: 'assistant', taint: 'clean', text: `step ${turn}` }),
      );
    }
    void run.end('completed', 5);
    void run.end('stopped');
    await run.flushed();
    const read = await homePorts(openHome(home)).sessions.transcript(session.sessionId);
    expect(read.state).toBe('read');
    const events = read.state === 'read' ? read.records : [];
    expect(events.map((event) => (event.type === 'message' ? event.text : event.type))).toEqual([
      'run_start',
      'step 0',
      'step 1',
      'step 2',
      'step 3',
      'step 4',
      'run_end',
    ]);
    expect(events[0]).toMatchObject({ surface: 'web', tools: ['fs_read'] });
    expect(events.at(-1)).toMatchObject({ stop_cause: 'completed', turns: 5 });
    expect(run.runId()).toBe(events[0]?.run_id);
  });

  it('never creates a missing home: one warning, and every call is a quiet no-op', async () => {
    const missing = join(home, 'absent');
    const warnings: string[] = [];
    const session = adapterSession({ home: missing, warn: (line) => warnings.push(line) });
    for (let index = 0; index < 3; index += 1) {
      const run = session.startRun();
      await run.record((recorder) => recorder.counter('loop_stop', 1));
      await run.end('completed');
    }
    expect(session.recording()).toBe(false);
    expect(warnings).toEqual([
      `mecha: no mecha home at ${missing} (run \`mecha init\`), so this session is not recorded; the agent keeps running`,
    ]);
    expect(existsSync(missing)).toBe(false);
  });

  it('turns recording off after a failed write, with one warning, and never throws', async () => {
    writeFileSync(join(home, 'sessions'), 'a file where the folder should be');
    const warnings: string[] = [];
    const session = adapterSession({ home, warn: (line) => warnings.push(line) });
    const run = session.startRun();
    await run.record((recorder) => recorder.counter('loop_stop', 1));
    await run.record(() => {
      throw new Error('a recorder call that throws');
    });
    await run.end('completed');
    expect(session.recording()).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/could not record the run start .*so recording stopped/);
  });
});
