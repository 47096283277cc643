import { rightOrThrow } from '@mecha/errors';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from './__fixtures__/temp-dir.js';
import { closeTask } from './close-task.js';
import { guardTaskTool } from './guard-task-tool.js';
import { openHome } from './open-home.js';
import { createSessionRecorder, newSessionId } from './session-recorder.js';

const right = <T>(value: E.Either<unknown, T>): T => rightOrThrow(value, 'a write');

let tick = 0;
const clock = () => new Date(Date.UTC(2026, 8, 25, 9, 0, tick++));

describe('createSessionRecorder', () => {
  it('writes everything a harness records, and it all reads back validated', async () => {
    const home = openHome(tempDir(), { clock });
    await home.board.put([{ v: 1, kind: 'task', id: 'task-1', title: 'Totals', status: 'next' }]);
    const session = createSessionRecorder(home, { sessionId: '20260925T090000-a1b2c3d4' });
    const outcomes = session.outcomes;

    const run = right(
      await session.startRun({
        surface: 'web',
        goal: { kind: 'task', id: 'task-1' },
        personPresent: true,
        tools: ['fs_read', 'kg_task'],
        workspace: '/work',
        configId: 'cfg-1',
      }),
    );
    right(await run.message({ turn: 0, role: 'owner', taint: 'clean', text: 'add up the totals' }));
    const { callId } = right(
      await run.toolCall({ turn: 1, tool: 'fs_read', target: '/work/a.csv' }),
    );
    right(
      await run.toolResult({
        turn: 1,
        callId,
        status: 'ok',
        taint: 'clean',
        resultDigest: 'sha256:00',
      }),
    );
    right(await run.intervention({ turn: 1, kind: 'steer' }));
    right(await run.stepCheck({ turn: 2, stepId: 'step-1', passed: false }));
    right(await run.compaction({ turn: 3 }));
    right(await run.message({ turn: 3, role: 'assistant', taint: 'clean', promptTokens: 1200 }));
    const { draftId } = right(
      await session.stageDraft({ tool: 'mail_send', taint: 'clean', runId: run.runId }),
    );
    const { questionId } = right(
      await session.parkQuestion({ purpose: 'goal', goal: { kind: 'task', id: 'task-1' } }),
    );
    right(await run.counter('turn_ceiling', 1));
    right(await run.end({ stopCause: 'parked', turns: 3 }));
    expect(E.isLeft(await run.message({ turn: 4, role: 'assistant', taint: 'clean' }))).toBe(true);

    right(await outcomes.answerQuestion(questionId));
    const resumed = right(await session.startRun({ surface: 'web', resumed: true }));
    right(await resumed.end({ stopCause: 'completed' }));

    const { requestId } = right(await outcomes.receiveRequest());
    right(await session.triageRequest(requestId));
    right(await session.linkRequestDraft(requestId, draftId));
    right(await outcomes.markRequestNeedsInfo(requestId));
    right(await outcomes.closeRequest(requestId));
    const { workflowId } = right(await session.startWorkflow({ taskId: 'task-1' }));
    right(await session.verifyWorkflow(workflowId, { check: 'artifact', passed: true }));
    right(await outcomes.closeWorkflow(workflowId));
    right(await outcomes.reopenWorkflow(workflowId));
    right(await outcomes.cancelWorkflow(workflowId));
    right(await outcomes.sendDraft(draftId, { sender: 'owner' }));
    const { draftId: second } = right(
      await session.stageDraft({ tool: 'slack_post', taint: 'third_party' }),
    );
    right(await outcomes.rejectDraft(second, { sender: 'run_shell', reason: 'wrong channel' }));
    const { draftId: third } = right(
      await session.stageDraft({ tool: 'slack_post', taint: 'clean' }),
    );
    right(await outcomes.sendEditedDraft(third, { sender: 'owner' }));
    const { draftId: fourth } = right(
      await session.stageDraft({ tool: 'slack_post', taint: 'clean' }),
    );
    right(await outcomes.cancelDraft(fourth, { sender: 'owner' }));
    const { questionId: dropped } = right(await session.parkQuestion());
    right(await outcomes.abandonQuestion(dropped));
    right(
      await outcomes.reportOwnerOutcome({
        draftId,
        sessionId: session.sessionId,
        kind: 'adverse_impact',
        commitmentId: requestId,
      }),
    );
    right(
      await closeTask(home, {
        taskId: 'task-1',
        to: 'done',
        who: 'owner',
        surface: 'web',
        personPresent: true,
        sessionIds: [session.sessionId],
      }),
    );

    const transcript = await home.sessions.transcript(session.sessionId);
    expect(transcript.state).toBe('read');
    const types = transcript.state === 'read' ? transcript.records.map((event) => event.type) : [];
    expect(types).toEqual([
      'run_start',
      'message',
      'tool_call',
      'tool_result',
      'intervention',
      'step_check',
      'compaction',
      'message',
      'counter',
      'run_end',
      'run_start',
      'run_end',
    ]);
    const listing = await home.sessions.list();
    expect(listing).toEqual({
      state: 'read',
      records: [
        {
          sessionId: session.sessionId,
          startedAt: '2026-09-25T09:00:00.000Z',
          kind: 'ordinary',
          surface: 'web',
        },
      ],
    });

    const outbox = await home.outbox.read();
    expect(
      outbox.state === 'read' &&
        outbox.records.map((r) => (r.type === 'outcome' ? `${r.outcome}:${r.sender}` : r.type)),
    ).toEqual([
      'staged',
      'sent_unchanged:owner',
      'staged',
      'rejected:run_shell',
      'staged',
      'sent_edited:owner',
      'staged',
      'cancelled:owner',
    ]);
    const questions = await home.questions.read();
    expect(questions.state === 'read' && questions.records.map((r) => r.type)).toEqual([
      'parked',
      'answered',
      'parked',
      'abandoned',
    ]);
    const requests = await home.requests.read();
    expect(requests.state === 'read' && requests.records.map((r) => r.type)).toEqual([
      'received',
      'triaged',
      'draft_linked',
      'needs_info',
      'closed',
    ]);
    const workflows = await home.workflows.read();
    expect(workflows.state === 'read' && workflows.records.map((r) => r.type)).toEqual([
      'started',
      'verified',
      'closed',
      'reopened',
      'cancelled',
    ]);
    const ownerOutcomes = await home.ownerOutcomes.read();
    expect(ownerOutcomes.state === 'read' && ownerOutcomes.records[0]).toMatchObject({
      kind: 'adverse_impact',
      commitment_id: requestId,
    });
    const closures = await home.closures.read();
    expect(closures.state === 'read' && closures.records[0]?.session_ids).toEqual([
      session.sessionId,
    ]);
  });

  it("records a guard's refusal as a denied tool result in a run that completes", async () => {
    const home = openHome(tempDir(), { clock });
    const session = createSessionRecorder(home);
    const run = right(await session.startRun({ surface: 'task', personPresent: false }));
    const kgTask = guardTaskTool({
      name: 'kg_task',
      call: async (args: { id: string; status: string }) => ({ updated: args.id }),
    });
    const { callId } = right(await run.toolCall({ turn: 0, tool: kgTask.name }));
    const outcome = await kgTask.call({ id: 'task-1', status: 'done' });
    right(
      await run.toolResult({
        turn: 0,
        callId,
        status: outcome.status,
        taint: 'clean',
        ...(outcome.status === 'denied' ? { text: outcome.reason } : {}),
      }),
    );
    right(await run.end({ stopCause: 'completed' }));
    const transcript = await home.sessions.transcript(session.sessionId);
    const records = transcript.state === 'read' ? transcript.records : [];
    expect(records.find((event) => event.type === 'tool_result')).toMatchObject({
      status: 'denied',
    });
    expect(records.at(-1)).toMatchObject({ type: 'run_end', stop_cause: 'completed' });
  });

  it('writes events in the order they were asked for, awaited or not', async () => {
    const home = openHome(tempDir(), { clock });
    const session = createSessionRecorder(home);
    const run = right(await session.startRun({ surface: 'cli' }));
    await Promise.all(
      Array.from({ length: 20 }, (_, turn) =>
        run.message({ turn, role: 'assistant', taint: 'clean' }),
      ),
    );
    const transcript = await home.sessions.transcript(session.sessionId);
    const turns =
      transcript.state === 'read'
        ? transcript.records.flatMap((e) => (e.type === 'message' ? [e.turn] : []))
        : [];
    expect(turns).toEqual(Array.from({ length: 20 }, (_, turn) => turn));
  });

  it('refuses an event its schema refuses, as a value', async () => {
    const home = openHome(tempDir(), { clock });
    const session = createSessionRecorder(home);
    const run = right(await session.startRun({ surface: 'cli' }));
    const written = await run.counter('Not A Name', 1);
    expect(E.isLeft(written) && written.left.kind).toBe('invalid_record');
  });

  it('mints session ids that start with the time the session began', () => {
    expect(newSessionId(new Date('2026-09-25T09:00:00Z'))).toMatch(/^20260925T090000-[0-9a-f]{8}$/);
  });
});
