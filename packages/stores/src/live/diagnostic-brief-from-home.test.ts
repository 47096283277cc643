import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rightOrThrow } from '@mecha/errors';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../__fixtures__/temp-dir.js';
import { type MechaHome, openHome } from '../open-home.js';
import { createSessionRecorder } from '../session-recorder.js';
import { diagnosticBriefFromHome } from './diagnostic-brief-from-home.js';

async function recordedSession(home: MechaHome, words: string): Promise<string> {
  const recorder = createSessionRecorder(home);
  const run = rightOrThrow(await recorder.startRun({ surface: 'cli' }), 'start');
  rightOrThrow(await run.end({ stopCause: 'completed' }), 'end');
  rightOrThrow(
    await home.appraisals.textAppraisals.append([
      {
        v: 1,
        appraisal_id: `appraisal-${recorder.sessionId}`,
        session_id: recorder.sessionId,
        at: '2026-09-20T09:00:00.000Z',
        taint: 'clean',
        interpretation: words,
        claims_kept: 0,
        claims_dropped: {},
      },
    ]),
    'appraisal',
  );
  return recorder.sessionId;
}

async function homeWith(config: string) {
  const home = openHome(tempDir());
  writeFileSync(join(home.path, 'config.toml'), config);
  const kept = await recordedSession(home, 'HELD-IN words');
  const confirming = await recordedSession(home, 'HELD-OUT words');
  return { home, question: { candidate: 'c-1', heldIn: [kept], heldOut: [confirming] } };
}

describe('diagnosticBriefFromHome', () => {
  it('delivers both parts by default, and only the held-in session’s words', async () => {
    const { home, question } = await homeWith('');
    const brief = await diagnosticBriefFromHome(home, question);
    expect(brief.sensors).toMatchObject({ state: 'read', runsWithoutConditions: 1 });
    expect(brief.appraisals).toMatchObject({
      state: 'read',
      appraisals: [{ interpretation: 'HELD-IN words' }],
    });
    expect(JSON.stringify(brief)).not.toContain('HELD-OUT');
  });

  it('leaves the sensors out when [agent] sensors_in_brief is off', async () => {
    const { home, question } = await homeWith('[agent]\nsensors_in_brief = false\n');
    const brief = await diagnosticBriefFromHome(home, question);
    expect(brief.sensors).toEqual({ state: 'off', switch: 'agent.sensors_in_brief' });
    expect(brief.appraisals).toMatchObject({ state: 'read' });
  });

  it('leaves the appraisals out when [agent] appraisals_in_brief is off', async () => {
    const { home, question } = await homeWith('[agent]\nappraisals_in_brief = false\n');
    const brief = await diagnosticBriefFromHome(home, question);
    expect(brief.appraisals).toEqual({ state: 'off', switch: 'agent.appraisals_in_brief' });
    expect(JSON.stringify(brief)).not.toContain('HELD-IN');
  });

  it('says the config could not be used rather than falling back to the defaults', async () => {
    const { home, question } = await homeWith('[agent]\nsensors_in_brief = "yes"\n');
    const brief = await diagnosticBriefFromHome(home, question);
    expect(brief.sensors).toMatchObject({ state: 'unreadable' });
    expect(brief.appraisals).toMatchObject({ state: 'unreadable' });
  });
});
