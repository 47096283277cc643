import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rightOrThrow } from '@mecha/errors';
import type * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../__fixtures__/temp-dir.js';
import { closeTask } from '../close-task.js';
import { type MechaHome, openHome } from '../open-home.js';
import { createSessionRecorder } from '../session-recorder.js';
import { goalContext } from './goal-context.js';

const right = <T>(value: E.Either<unknown, T>): T => rightOrThrow(value, 'a write');
const goal = { kind: 'task', id: 'task-1' } as const;
let tick = 0;
const clock = () => new Date(Date.UTC(2026, 8, 20, 9, 0, tick++));

async function session(
  home: MechaHome,
  options: { workspace: string; taint: 'clean' | 'third_party'; calls: string[] },
) {
  const recorder = createSessionRecorder(home);
  const run = right(
    await recorder.startRun({
      surface: 'task',
      goal,
      workspace: options.workspace,
      tools: ['fs_read', 'shell'],
    }),
  );
  right(await run.message({ turn: 0, role: 'owner', taint: 'clean', text: 'do it' }));
  for (const [turn, tool] of options.calls.entries()) {
    const { callId } = right(await run.toolCall({ turn: turn + 1, tool }));
    right(await run.toolResult({ turn: turn + 1, callId, status: 'ok', taint: options.taint }));
  }
  right(await run.end({ stopCause: 'completed' }));
  right(
    await home.appraisals.textAppraisals.append([
      {
        v: 1,
        appraisal_id: `appraisal-${recorder.sessionId}`,
        session_id: recorder.sessionId,
        at: clock().toISOString(),
        taint: options.taint,
        interpretation: `INTERPRETATION of ${options.workspace} ${options.taint}`,
        claims_kept: 0,
        claims_dropped: {},
      },
    ]),
  );
  return recorder.sessionId;
}

async function home(config: string) {
  const built = openHome(tempDir(), { clock });
  writeFileSync(join(built.path, 'config.toml'), config);
  right(await built.board.put([{ v: 1, kind: 'task', id: 'task-1', title: 'T', status: 'next' }]));
  const clean = await session(built, {
    workspace: '/w',
    taint: 'clean',
    calls: ['fs_read', 'shell', 'shell'],
  });
  await session(built, { workspace: '/w', taint: 'third_party', calls: ['fs_read'] });
  await session(built, { workspace: '/elsewhere', taint: 'clean', calls: ['shell'] });
  right(
    await closeTask(built, {
      taskId: 'task-1',
      to: 'done',
      who: 'owner',
      surface: 'cli',
      personPresent: true,
      sessionIds: [clean],
    }),
  );
  return { home: built, clean };
}

const request = { goal, workspace: '/w', surface: 'task', tools: ['fs_read', 'shell'] };

describe('goalContext', () => {
  it('returns nothing while both switches are off (as they ship), and says so', async () => {
    const { home: built } = await home('');
    expect(await goalContext(built, request)).toEqual({
      private: true,
      appraisals: { state: 'off', key: 'agent.past_appraisals' },
      examples: { state: 'off', key: 'agent.success_examples' },
    });
  });

  it('returns only clean appraisals from the same situation, and the verified call trace', async () => {
    const { home: built, clean } = await home(
      '[agent]\npast_appraisals = true\nsuccess_examples = true\n',
    );
    const context = await goalContext(built, request);
    expect(context.private).toBe(true);
    expect(context.appraisals).toMatchObject({
      state: 'read',
      partial: false,
      items: [
        {
          session_id: clean,
          interpretation: 'INTERPRETATION of /w clean',
          note: expect.stringMatching(/not a fact about this run/),
        },
      ],
    });
    expect(context.examples).toMatchObject({
      state: 'read',
      items: [
        {
          session_id: clean,
          trace: 'fs_read \u2192 shell \u00d72',
          verified_by: expect.stringMatching(/^closure close-\S+ closed as done$/),
          note: expect.stringMatching(/call trace .* not a plan/),
        },
      ],
    });
    // A run without one of the tools the success had is not in the same situation.
    const fewer = await goalContext(built, { ...request, tools: ['fs_read'] });
    expect(fewer.examples).toMatchObject({ state: 'read', items: [] });
  });
});
