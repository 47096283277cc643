import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appraiseRun, health, type TranscriptEvent } from '@mecha/appraisal-core';
import { rightOrThrow } from '@mecha/errors';
import { couldNotRead, readValue, recordedConditions, renderBrief } from '@mecha/homeostat';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from './__fixtures__/temp-dir.js';
import { homePorts } from './home-ports.js';
import { openHome } from './open-home.js';
import { createSessionRecorder } from './session-recorder.js';

const right = <T>(value: E.Either<unknown, T>): T => rightOrThrow(value, 'a write');

const brief = {
  ...renderBrief({
    goal: readValue({ anchor: 'no_anchor' }),
    attempts: readValue({ kind: 'not_a_task' }),
    board: couldNotRead('board/board.jsonl is torn'),
    conditions: { backlog: { outbox: { count: 0, complete: true } } },
    time: couldNotRead('no clock'),
    seats: couldNotRead('this harness has no background seats'),
    runs: readValue({ delegatedTasks: [], triggers: [] }),
    slots: readValue({ kind: 'not_local' }),
    voice: readValue({ inCall: false }),
    budget: couldNotRead('the harness gave no ceilings'),
  }),
  delivered: false,
};

async function events(home: ReturnType<typeof openHome>, sessionId: string) {
  const read = await home.sessions.transcript(sessionId);
  if (read.state !== 'read') throw new Error(`transcript ${read.state}`);
  return read.records;
}

describe('the recorder on the live path', () => {
  it('records conditions and the brief at the start and conditions at the end, and health counts the brief field by field', async () => {
    const home = openHome(tempDir());
    const session = createSessionRecorder(home);
    const run = right(
      await session.startRun({
        surface: 'task',
        conditions: { load_avg_1m: 0.5, unread: { mem_available_kb: 'no sensor' } },
        brief,
      }),
    );
    right(
      await run.end({
        stopCause: 'completed',
        conditions: { peak_prompt_tokens: 900, unread: { peak_context_pressure: 'not measured' } },
      }),
    );
    const recorded = await events(home, session.sessionId);
    const start = recorded[0];
    expect(start?.type === 'run_start' && start.brief).toEqual(brief);
    expect(recordedConditions(recorded)).toMatchObject({
      load_avg_1m: 0.5,
      peak_prompt_tokens: 900,
      unread: { mem_available_kb: 'no sensor', peak_context_pressure: 'not measured' },
    });

    // A second run with no brief, on another surface.
    const bare = right(await session.startRun({ surface: 'slack' }));
    right(await bare.end({ stopCause: 'completed' }));
    const readout = await health(homePorts(home), { now: new Date() });
    expect(readout.situation_brief).toMatchObject({
      runs_with_brief: 1,
      delivered: 0,
      without_brief: { slack: 1 },
      fields: {
        goal: { no_anchor: 1 },
        attempts: { not_a_task: 1 },
        board: { unread: 1 },
        runs: { read: 1 },
        slots: { not_local: 1 },
        budget: { unread: 1 },
      },
    });
  });

  it('refuses a brief or conditions that break the record schema, and writes nothing', async () => {
    const home = openHome(tempDir());
    const session = createSessionRecorder(home);
    const refused = await session.startRun({
      surface: 'task',
      // A brief that leaves a field out, as a harness with a stale type might send it.
      brief: { text: 'x', fields: { goal: { state: 'read' } } } as never,
    });
    expect(E.isLeft(refused) && refused.left.kind).toBe('invalid_record');
    const badConditions = await session.startRun({
      surface: 'task',
      conditions: { load_avg_1m: -1 },
    });
    expect(E.isLeft(badConditions) && badConditions.left.message).toMatch(/load_avg_1m/);
    expect((await home.sessions.transcript(session.sessionId)).state).toBe('unreadable');

    const run = right(await session.startRun({ surface: 'task' }));
    const file = join(home.path, 'sessions', `${session.sessionId}.jsonl`);
    const before = readFileSync(file);
    const end = await run.end({
      stopCause: 'completed',
      conditions: { peak_context_pressure: 'high' } as never,
    });
    expect(E.isLeft(end)).toBe(true);
    expect(readFileSync(file)).toEqual(before);
    // The run did not end: a valid end still goes through.
    right(await run.end({ stopCause: 'completed' }));
  });

  it('feeds each tool call to the boredom detector: notices at 3, 6 and 12 repeats, each recorded and signed −0.5', async () => {
    const home = openHome(tempDir());
    const session = createSessionRecorder(home);
    const run = right(await session.startRun({ surface: 'task', tools: ['fs_read', 'shell'] }));
    const notices: { turn: number; rung: number; text: string }[] = [];
    for (let turn = 1; turn <= 14; turn += 1) {
      const { callId } = right(await run.toolCall({ turn, tool: 'fs_read', target: 'a.csv' }));
      const result = right(
        await run.toolResult({ turn, callId, status: 'ok', taint: 'clean', resultDigest: 'same' }),
      );
      if (result.boredom !== undefined) {
        notices.push({ turn, rung: result.boredom.rung, text: result.boredom.text });
      }
    }
    right(await run.end({ stopCause: 'completed' }));
    expect(notices.map(({ turn, rung }) => [turn, rung])).toEqual([
      [3, 1],
      [6, 2],
      [12, 3],
    ]);
    expect(notices[0]?.text).toContain('`shell`');
    const recorded = await events(home, session.sessionId);
    const counters = recorded.filter(
      (event): event is Extract<TranscriptEvent, { type: 'counter' }> => event.type === 'counter',
    );
    expect(counters.map((event) => [event.name, event.value])).toEqual([
      ['boredom_notice', 1],
      ['boredom_notice', 1],
      ['boredom_notice', 1],
    ]);
    const reading = appraiseRun(recorded);
    expect(reading.valence.negative).toBe(1.5);
    expect(reading.errors.map((error) => error.sign)).toEqual([-0.5, -0.5, -0.5]);
    const readout = await health(homePorts(home), { now: new Date() });
    expect(readout.counters.boredom_fired).toEqual({ runs_recorded: 1, runs_fired: 1, total: 3 });
  });

  it('never fires on polling: the same call with a changing result', async () => {
    const home = openHome(tempDir());
    const session = createSessionRecorder(home);
    const run = right(await session.startRun({ surface: 'task' }));
    for (let turn = 1; turn <= 30; turn += 1) {
      const { callId } = right(await run.toolCall({ turn, tool: 'http_get', target: '/status' }));
      const result = right(
        await run.toolResult({
          turn,
          callId,
          status: 'ok',
          taint: 'clean',
          resultDigest: `digest-${turn % 2}`,
        }),
      );
      expect(result.boredom).toBeUndefined();
    }
    right(await run.end({ stopCause: 'completed' }));
    expect(appraiseRun(await events(home, session.sessionId)).errors).toEqual([]);
  });
});
