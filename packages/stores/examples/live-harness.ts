// A stand-in for an agent loop that records runs through the public API only: each run begins
// with beginRun (conditions + situation brief), a scripted "model" calls tools (one scenario
// loops on the same file, one polls, one hits the turn limit, one is steered and tries to close
// its task, one compacts), and the run ends with finish. It prints one JSON line per run: its
// session, the boredom notices it got, and the badge the live readout gives.
// Usage: MECHA_HOME=/tmp/home RUNS=50 node live-harness.js
import { homedir } from 'node:os';
import { appraiseRun, statusBadge } from '@mecha/appraisal-core';
import { readValue } from '@mecha/homeostat';
import { machineSensors } from '@mecha/homeostat/node';
import {
  assertTaskToolsGuarded,
  beginRun,
  guardTaskTool,
  openHome,
  resolveHome,
  rightOrThrow,
} from '@mecha/stores';

const home = openHome(
  resolveHome({ env: process.env, homeDirectory: homedir(), cwd: process.cwd() }).path,
);
const runs = Number(process.env.RUNS ?? '50');

const kgTask = guardTaskTool({
  name: 'kg_task',
  call: async (args: { id: string; status: string }) => args,
});
const tools = ['fs_read', 'http_get', 'kg_task'];
assertTaskToolsGuarded([kgTask], (tool) => tool.name === 'kg_task');

rightOrThrow(
  await home.board.put(
    Array.from({ length: 10 }, (_, index) => ({
      v: 1 as const,
      kind: 'task' as const,
      id: `task-${index}`,
      title: `Task ${index}`,
      status: 'next' as const,
    })),
  ),
);

const scenarios = ['looping', 'polling', 'turn_limit', 'steered', 'compacted'] as const;

for (let index = 0; index < runs; index += 1) {
  const scenario = scenarios[index % scenarios.length] ?? 'looping';
  const goal = index % 2 === 0 ? ({ kind: 'task', id: `task-${index % 10}` } as const) : undefined;
  const began = rightOrThrow(
    await beginRun(home, {
      surface: index % 3 === 0 ? 'task' : index % 3 === 1 ? 'web' : 'trigger',
      ...(goal === undefined ? {} : { goal }),
      sensors: machineSensors(),
      personPresent: index % 3 === 1,
      tools,
      workspace: '/work/example',
      // Every fourth run passes --no-situation-brief.
      ...(index % 4 === 3 ? { situationBrief: false } : {}),
      situation: {
        budget: readValue({
          maxTurns: 20,
          outputTokenCeiling: 'none',
          costCeilingUsd: 'none',
          contextWindow: 200_000,
          compactionThreshold: 150_000,
        }),
        slots: readValue({ kind: 'not_local' }),
      },
    }),
  );
  const { run } = began;
  rightOrThrow(
    await run.message({
      turn: 0,
      role: 'owner',
      taint: 'clean',
      text: began.firstMessage(`Run ${index}: ${scenario}.`),
    }),
  );
  const notices: number[] = [];
  const call = async (turn: number, tool: string, target: string, digest: string) => {
    const { callId } = rightOrThrow(await run.toolCall({ turn, tool, target }));
    const result = rightOrThrow(
      await run.toolResult({ turn, callId, status: 'ok', taint: 'clean', resultDigest: digest }),
    );
    // A notice is shown to the model as the next message; here it is only counted.
    if (result.boredom !== undefined) notices.push(result.boredom.rung);
  };
  let turns = 0;
  let stopCause: 'completed' | 'turn_ceiling' = 'completed';
  if (scenario === 'looping') {
    for (turns = 1; turns <= 12; turns += 1) await call(turns, 'fs_read', 'totals.csv', 'same');
  } else if (scenario === 'polling') {
    for (turns = 1; turns <= 12; turns += 1) {
      await call(turns, 'http_get', '/status', `status-${turns}`);
    }
  } else if (scenario === 'turn_limit') {
    for (turns = 1; turns <= 20; turns += 1) await call(turns, 'fs_read', `part-${turns}`, 'x');
    stopCause = 'turn_ceiling';
  } else if (scenario === 'steered') {
    turns = 1;
    rightOrThrow(await run.intervention({ turn: 1, kind: 'steer' }));
    const { callId } = rightOrThrow(await run.toolCall({ turn: 1, tool: 'kg_task' }));
    const outcome = await kgTask.call({ id: goal?.id ?? 'task-0', status: 'done' });
    rightOrThrow(
      await run.toolResult({
        turn: 1,
        callId,
        status: outcome.status,
        taint: 'clean',
        ...(outcome.status === 'denied' ? { text: outcome.reason } : {}),
      }),
    );
  } else {
    for (turns = 1; turns <= 3; turns += 1) await call(turns, 'fs_read', 'notes.md', 'same');
    rightOrThrow(await run.compaction({ turn: 3 }));
  }
  rightOrThrow(
    await began.finish({
      stopCause,
      turns,
      turnReadings: [{ promptTokens: 1000 + index, contextPressure: 0.01 }],
    }),
  );
  // The live readout of the run in hand, and the badge a terminal would show after it.
  const transcript = await home.sessions.transcript(began.session.sessionId);
  const events = transcript.state === 'unreadable' ? [] : transcript.records;
  const badge = statusBadge(appraiseRun(events));
  console.log(
    JSON.stringify({
      session: began.session.sessionId,
      scenario,
      delivered: began.brief.delivered,
      notices,
      badge: badge?.text ?? null,
      tone: badge?.tone ?? null,
    }),
  );
}
