import { health } from '@mecha/appraisal-core';
import { rightOrThrow } from '@mecha/errors';
import type * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from './__fixtures__/temp-dir.js';
import { homePorts } from './home-ports.js';
import { openHome } from './open-home.js';
import { createSessionRecorder } from './session-recorder.js';

const right = <T>(value: E.Either<unknown, T>): T => rightOrThrow(value, 'a write');

describe('plan steps on the live path', () => {
  it('reads each ticked step from its own span, and health counts null and reopened steps', async () => {
    const home = openHome(tempDir());
    const session = createSessionRecorder(home);
    const run = right(await session.startRun({ surface: 'cli', workspace: '/w/app' }));
    // Step 1: a call, then a declared check that fails.
    const { callId } = right(await run.toolCall({ turn: 1, tool: 'shell' }));
    right(await run.toolResult({ turn: 1, callId, status: 'ok', taint: 'clean' }));
    right(await run.stepCheck({ turn: 1, stepId: 'step-1', passed: false }));
    const first = right(await run.stepDone({ stepId: 'step-1' }));
    expect(first).toMatchObject({ stepId: 'step-1', calls: 1, isNull: false });
    expect(first.reading.errors.map((error) => error.sign)).toEqual([-1]);
    // Step 2: ticked with nothing done since: a null step, and step 1's failure is not in it.
    const second = right(await run.stepDone({ stepId: 'step-2' }));
    expect(second).toMatchObject({ calls: 0, isNull: true });
    expect(second.reading.errors).toEqual([]);
    right(await run.stepReopened({ stepId: 'step-1' }));
    right(await run.end({ stopCause: 'completed' }));
    // A run that ticks no step records neither counter: unknown, not zero.
    const other = right(await session.startRun({ surface: 'cli' }));
    right(await other.end({ stopCause: 'completed' }));
    const readout = await health(homePorts(home), { now: new Date() });
    expect(readout.counters.null_steps).toEqual({ runs_recorded: 1, runs_fired: 1, total: 1 });
    expect(readout.counters.reopened_steps).toEqual({ runs_recorded: 1, runs_fired: 1, total: 1 });
  });

  it('records both counters at zero for a run whose steps all did something', async () => {
    const home = openHome(tempDir());
    const run = right(await createSessionRecorder(home).startRun({ surface: 'cli' }));
    const { callId } = right(await run.toolCall({ turn: 1, tool: 'fs_write' }));
    right(await run.toolResult({ turn: 1, callId, status: 'ok', taint: 'clean' }));
    expect(right(await run.stepDone({ stepId: 'a' })).isNull).toBe(false);
    right(await run.end({ stopCause: 'completed' }));
    const readout = await health(homePorts(home), { now: new Date() });
    expect(readout.counters.null_steps).toEqual({ runs_recorded: 1, runs_fired: 0, total: 0 });
    expect(readout.counters.reopened_steps).toEqual({ runs_recorded: 1, runs_fired: 0, total: 0 });
  });

  it('refuses a tick after the run ended', async () => {
    const home = openHome(tempDir());
    const run = right(await createSessionRecorder(home).startRun({ surface: 'cli' }));
    right(await run.end({ stopCause: 'completed' }));
    const late = await run.stepDone({ stepId: 'a' });
    expect(late._tag).toBe('Left');
  });
});
