// A harness that records one full run into a mecha home: the run begins with its conditions and
// situation brief, its shell is registered, a scripted "model" loops on a file (and is told so
// by the boredom detector) and tries to close its task through a guarded tool, the run ends with
// its end-of-run conditions, the terminal badge is drawn, and then the owner acts. It is
// TypeScript (strict, module nodenext); compile it and run it with node (or `npx tsx
// harness.ts`); it uses $MECHA_HOME when set (a home `mecha init` made: one that does not exist
// is an error) and a fresh temporary home otherwise, and prints what it recorded. It is safe to
// run again: each run adds its own task and session.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { appraiseRun, badgeAfter, type StatusBadge } from '@mecha/appraisal-core';
import { readValue } from '@mecha/homeostat';
import { machineSensors } from '@mecha/homeostat/node';
import {
  assertTaskToolsGuarded,
  beginRun,
  closeTask,
  guardTaskTool,
  homePorts,
  openHome,
  refuseMissingHome,
  registerShell,
  resolveHome,
  rightOrThrow,
  runPresence,
} from '@mecha/stores';

// Writers return fp-ts Eithers: a failure is a value, and a harness decides what to do with
// one. This one stops: `rightOrThrow` gives the written value or throws a branded error.

// 1. The home, and the owner's switch for delivering the brief (off unless they turn it on).
const homePath = process.env.MECHA_HOME
  ? resolveHome({ env: process.env, homeDirectory: homedir(), cwd: process.cwd() }).path
  : mkdtempSync(join(tmpdir(), 'mecha-example-'));
const home = openHome(homePath);
// A home that does not exist is an error, never an empty home made by accident.
const present = refuseMissingHome(home);
if (present._tag === 'Left') {
  console.error(`mecha example: ${present.left.message}`);
  process.exit(1);
}
if (!process.env.MECHA_HOME) {
  writeFileSync(join(homePath, 'config.toml'), '[agent]\nsituation_brief = true\n');
}

// 2. The model-facing tools. The task tool is wrapped so that a model can never close a task,
//    and the registry is checked at startup: an unguarded task tool is an error, not a warning.
const graphBoard = new Map<string, string>();
const kgTask = guardTaskTool({
  name: 'kg_task',
  call: async ({ id, status }: { id: string; status: string }) => {
    graphBoard.set(id, status);
    return { id, status };
  },
});
const fsRead = { name: 'fs_read', call: async ({ path }: { path: string }) => `rows of ${path}` };
const tools = new Map<string, { readonly name: string }>(
  [kgTask, fsRead].map((tool) => [tool.name, tool]),
);
assertTaskToolsGuarded(tools.values(), (tool) => tool.name === 'kg_task');

// The owner's board, in mecha's home: a new task each run, so the example runs again cleanly.
const taskId = `task-${randomBytes(4).toString('hex')}`;
rightOrThrow(
  await home.board.put([
    { v: 1, kind: 'task', id: taskId, title: 'Send the totals', status: 'next' },
  ]),
);

// 3. Begin the run: conditions sampled (the home's stores and charter, plus the machine sensors
//    lent here), the situation brief assembled from the home and recorded, delivered or not by
//    the config. What only the harness knows goes in `situation`; what it leaves out reads as
//    unknown in the brief. The terminal's badge from the previous run is cleared.
let badge: StatusBadge | undefined = badgeAfter(undefined, { type: 'run_start' });
const goal = { kind: 'task', id: taskId } as const;
const began = rightOrThrow(
  await beginRun(home, {
    surface: 'cli',
    goal,
    sensors: machineSensors(),
    personPresent: false,
    workspace: process.cwd(),
    tools: [...tools.keys()],
    situation: {
      budget: readValue({
        maxTurns: 20,
        outputTokenCeiling: 'none',
        costCeilingUsd: 'none',
        contextWindow: 'none',
        compactionThreshold: 'none',
      }),
    },
  }),
);
for (const setting of began.settings) {
  if (setting.state === 'refused') console.error(`mecha: ${setting.message}`);
}
const { session, run } = began;

// 4. The run's shell: register it before it runs anything. Every command started under it is
//    then judged by this run's registration (nobody present here), whatever it does to its
//    environment.
const shell = spawn('sh', ['-c', 'read go; echo ready'], { stdio: ['pipe', 'ignore', 'ignore'] });
rightOrThrow(
  await registerShell(home, {
    pid: shell.pid ?? 0,
    sessionId: session.sessionId,
    runId: run.runId,
  }),
);
const shellPresence = await runPresence(home, {}, { pid: shell.pid ?? 0 });
shell.stdin.end('go\n');

// 5. The conversation. The brief goes after the owner's own words in the first message, never
//    into the system prompt.
rightOrThrow(
  await run.message({
    turn: 0,
    role: 'owner',
    taint: 'clean',
    text: began.firstMessage('Send Lakeside the totals.'),
  }),
);

// A scripted model: it reads the same file three times (the same bytes each time), then tries
// to mark the task done itself.
const plan = [
  { tool: 'fs_read', args: { path: 'totals.csv' } },
  { tool: 'fs_read', args: { path: 'totals.csv' } },
  { tool: 'fs_read', args: { path: 'totals.csv' } },
  { tool: 'kg_task', args: { id: taskId, status: 'done' } },
] as const;
const notices: string[] = [];
for (const [index, step] of plan.entries()) {
  const turn = index + 1;
  if (step.tool === 'kg_task') {
    const { callId } = rightOrThrow(await run.toolCall({ turn, tool: step.tool }));
    // The guard's refusal is the harness's own "no": a denied result, and the run goes on.
    const outcome = await kgTask.call(step.args);
    rightOrThrow(
      await run.toolResult({
        turn,
        callId,
        status: outcome.status,
        taint: 'clean',
        ...(outcome.status === 'denied' ? { text: outcome.reason } : {}),
      }),
    );
  } else {
    const { callId } = rightOrThrow(
      await run.toolCall({ turn, tool: step.tool, target: step.args.path }),
    );
    await fsRead.call(step.args);
    const recorded = rightOrThrow(
      await run.toolResult({
        turn,
        callId,
        status: 'ok',
        taint: 'clean',
        resultDigest: 'sha256:1f',
      }),
    );
    // A boredom notice is already on the record; show it to the model as the next message.
    if (recorded.boredom !== undefined) notices.push(recorded.boredom.text);
  }
}
const { draftId } = rightOrThrow(
  await session.stageDraft({
    tool: 'mail_send',
    taint: 'clean',
    runId: run.runId,
    goal,
    text: 'Hi, the totals for Lakeside are attached.',
  }),
);
rightOrThrow(
  await run.message({
    turn: 5,
    role: 'assistant',
    taint: 'clean',
    text: 'The draft is in your outbox.',
    promptTokens: 1800,
  }),
);

// 6. End the run with the conditions only the end knows (the backlog's flow, the peaks), then
//    draw the badge from the live readout of the run in hand.
rightOrThrow(
  await began.finish({ stopCause: 'completed', turns: 5, turnReadings: [{ promptTokens: 1800 }] }),
);
const transcript = await homePorts(home).sessions.transcript(session.sessionId);
const events = transcript.state === 'unreadable' ? [] : transcript.records;
badge = badgeAfter(badge, { type: 'run_end', reading: appraiseRun(events) });

// 7. Later, on the owner's surface: the draft goes out as written, and the owner closes the
//    task. The closure is recorded first; the board changes only after it.
rightOrThrow(await session.outcomes.sendDraft(draftId, { sender: 'owner' }));
const closure = rightOrThrow(
  await closeTask(home, {
    taskId,
    to: 'done',
    who: 'owner',
    surface: 'cli',
    personPresent: true,
    sessionIds: [session.sessionId],
  }),
);

// 8. Read it back the way an appraisal does: through the ports, each store with its status.
const board = await homePorts(home).board.read();
const last = events.at(-1);
const task =
  board.state === 'unreadable' ? undefined : board.records.find((row) => row.id === taskId);
console.log(
  JSON.stringify({
    home: homePath,
    session: session.sessionId,
    transcript: transcript.state,
    events: events.map((event) => event.type),
    briefDelivered: began.brief.delivered,
    briefFields: Object.fromEntries(
      Object.entries(began.brief.fields).map(([field, read]) => [field, read.state]),
    ),
    shellPresence: shellPresence.kind,
    boredomNotices: notices.length,
    denied: events.filter((event) => event.type === 'tool_result' && event.status === 'denied')
      .length,
    runEnded: last?.type === 'run_end' ? last.stop_cause : null,
    badge: badge === undefined ? null : { text: badge.text, tone: badge.tone },
    closure: closure.closure_id,
    taskStatus: task?.kind === 'task' ? task.status : null,
    graphBoard: Object.fromEntries(graphBoard),
  }),
);
