// A minimal harness that records into a mecha home: one session, one run, a guarded task
// tool, a staged draft, then the owner's acts. Run it with `node harness.mjs`; it uses
// $MECHA_HOME when set and a fresh temporary home otherwise, and prints what it recorded.
import { mkdtempSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  assertTaskToolsGuarded,
  closeTask,
  createSessionRecorder,
  guardTaskTool,
  homePorts,
  openHome,
  resolveHome,
} from '@mecha/stores';

/** Writers return fp-ts Eithers: a failure is a value. A harness decides what to do with one. */
function must(result) {
  if (result._tag === 'Left') throw new Error(`mecha could not record: ${result.left.message}`);
  return result.right;
}

// 1. The home.
const homePath = process.env.MECHA_HOME
  ? resolveHome({ env: process.env, homeDirectory: homedir(), cwd: process.cwd() }).path
  : mkdtempSync(join(tmpdir(), 'mecha-example-'));
const home = openHome(homePath);

// 2. The model-facing tools. The task tool is wrapped so that a model can never close a task,
//    and the registry is checked at startup: an unguarded task tool is an error, not a warning.
const graphBoard = new Map();
const kgTask = guardTaskTool({
  name: 'kg_task',
  call: async ({ id, status }) => {
    graphBoard.set(id, status);
    return { id, status };
  },
});
const fsRead = { name: 'fs_read', call: async ({ path }) => `rows of ${path}` };
const tools = new Map([kgTask, fsRead].map((tool) => [tool.name, tool]));
assertTaskToolsGuarded(tools.values(), (tool) => tool.name === 'kg_task');

// The owner's board, in mecha's home.
must(
  await home.board.put([
    { v: 1, kind: 'task', id: 'task-1', title: 'Send the totals', status: 'next' },
  ]),
);

// 3. One session and its run, as the harness runs it.
const goal = { kind: 'task', id: 'task-1' };
const session = createSessionRecorder(home);
const run = must(
  await session.startRun({
    surface: 'cli',
    personPresent: true,
    goal,
    workspace: process.cwd(),
    tools: [...tools.keys()],
  }),
);
must(
  await run.message({ turn: 0, role: 'owner', taint: 'clean', text: 'Send Lakeside the totals.' }),
);

// A scripted model: it reads a file, then tries to mark the task done itself.
const plan = [
  { tool: 'fs_read', args: { path: 'totals.csv' } },
  { tool: 'kg_task', args: { id: 'task-1', status: 'done' } },
];
for (const [index, step] of plan.entries()) {
  const turn = index + 1;
  const { callId } = must(await run.toolCall({ turn, tool: step.tool }));
  const tool = tools.get(step.tool);
  if (tool === kgTask) {
    // The guard's refusal is the harness's own "no": a denied result, and the run goes on.
    const outcome = await kgTask.call(step.args);
    must(
      await run.toolResult({
        turn,
        callId,
        status: outcome.status,
        taint: 'clean',
        ...(outcome.status === 'denied' ? { text: outcome.reason } : {}),
      }),
    );
  } else {
    await tool.call(step.args);
    must(await run.toolResult({ turn, callId, status: 'ok', taint: 'clean' }));
  }
}
const { draftId } = must(
  await session.stageDraft({
    tool: 'mail_send',
    taint: 'clean',
    runId: run.runId,
    goal,
    text: 'Hi, the totals for Lakeside are attached.',
  }),
);
must(
  await run.message({
    turn: 3,
    role: 'assistant',
    taint: 'clean',
    text: 'The draft is in your outbox.',
  }),
);
must(await run.end({ stopCause: 'completed', turns: 3 }));

// 4. Later, on the owner's surface: the draft goes out as written, and the owner closes the
//    task. The closure is recorded first; the board changes only after it.
must(await session.outcomes.sendDraft(draftId, { sender: 'owner' }));
const closure = must(
  await closeTask(home, {
    taskId: 'task-1',
    to: 'done',
    who: 'owner',
    surface: 'cli',
    personPresent: true,
    sessionIds: [session.sessionId],
  }),
);

// 5. Read it back the way an appraisal does: through the ports, each store with its status.
const ports = homePorts(home);
const transcript = await ports.sessions.transcript(session.sessionId);
const board = await ports.board.read();
const events = transcript.state === 'unreadable' ? [] : transcript.records;
console.log(
  JSON.stringify({
    home: homePath,
    session: session.sessionId,
    transcript: transcript.state,
    events: events.map((event) => event.type),
    denied: events.filter((event) => event.type === 'tool_result' && event.status === 'denied')
      .length,
    runEnded: events.at(-1)?.type === 'run_end' ? events.at(-1).stop_cause : null,
    closure: closure.closure_id,
    taskStatus:
      board.state === 'unreadable'
        ? null
        : board.records.find((row) => row.id === 'task-1')?.status,
    graphBoard: Object.fromEntries(graphBoard),
  }),
);
