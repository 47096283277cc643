// A minimal harness that records into a mecha home: one session, one run, a guarded task
// tool, a staged draft, then the owner's acts. It is TypeScript (strict, module nodenext);
// compile it and run it with node (or run it with `npx tsx harness.ts`); it uses
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
  rightOrThrow,
} from '@mecha/stores';

// Writers return fp-ts Eithers: a failure is a value, and a harness decides what to do with
// one. This one stops: `rightOrThrow` gives the written value or throws a branded error.

// 1. The home.
const homePath = process.env.MECHA_HOME
  ? resolveHome({ env: process.env, homeDirectory: homedir(), cwd: process.cwd() }).path
  : mkdtempSync(join(tmpdir(), 'mecha-example-'));
const home = openHome(homePath);

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

// The owner's board, in mecha's home.
rightOrThrow(
  await home.board.put([
    { v: 1, kind: 'task', id: 'task-1', title: 'Send the totals', status: 'next' },
  ]),
);

// 3. One session and its run, as the harness runs it.
const goal = { kind: 'task', id: 'task-1' } as const;
const session = createSessionRecorder(home);
const run = rightOrThrow(
  await session.startRun({
    surface: 'cli',
    personPresent: true,
    goal,
    workspace: process.cwd(),
    tools: [...tools.keys()],
  }),
);
rightOrThrow(
  await run.message({ turn: 0, role: 'owner', taint: 'clean', text: 'Send Lakeside the totals.' }),
);

// A scripted model: it reads a file, then tries to mark the task done itself.
const plan = [
  { tool: 'fs_read', args: { path: 'totals.csv' } },
  { tool: 'kg_task', args: { id: 'task-1', status: 'done' } },
] as const;
for (const [index, step] of plan.entries()) {
  const turn = index + 1;
  const { callId } = rightOrThrow(await run.toolCall({ turn, tool: step.tool }));
  if (step.tool === 'kg_task') {
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
    await fsRead.call(step.args);
    rightOrThrow(await run.toolResult({ turn, callId, status: 'ok', taint: 'clean' }));
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
    turn: 3,
    role: 'assistant',
    taint: 'clean',
    text: 'The draft is in your outbox.',
  }),
);
rightOrThrow(await run.end({ stopCause: 'completed', turns: 3 }));

// 4. Later, on the owner's surface: the draft goes out as written, and the owner closes the
//    task. The closure is recorded first; the board changes only after it.
rightOrThrow(await session.outcomes.sendDraft(draftId, { sender: 'owner' }));
const closure = rightOrThrow(
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
const last = events.at(-1);
const task =
  board.state === 'unreadable' ? undefined : board.records.find((row) => row.id === 'task-1');
console.log(
  JSON.stringify({
    home: homePath,
    session: session.sessionId,
    transcript: transcript.state,
    events: events.map((event) => event.type),
    denied: events.filter((event) => event.type === 'tool_result' && event.status === 'denied')
      .length,
    runEnded: last?.type === 'run_end' ? last.stop_cause : null,
    closure: closure.closure_id,
    taskStatus: task?.kind === 'task' ? task.status : null,
    graphBoard: Object.fromEntries(graphBoard),
  }),
);
