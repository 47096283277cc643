import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rightOrThrow } from '@mecha/errors';
import { readValue } from '@mecha/homeostat';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../__fixtures__/temp-dir.js';
import { closeTask, reopenTask } from '../close-task.js';
import { type MechaHome, openHome } from '../open-home.js';
import { createSessionRecorder } from '../session-recorder.js';
import { beginRun } from './begin-run.js';

const right = <T>(value: E.Either<unknown, T>): T => rightOrThrow(value, 'a write');

// Friday 2026-09-25, 14:00 UTC.
const start = Date.UTC(2026, 8, 25, 14, 0, 0);
function clockFrom(at: number) {
  let tick = 0;
  return () => new Date(at + tick++ * 1000);
}

function writeConfig(home: MechaHome, toml: string) {
  writeFileSync(join(home.path, 'config.toml'), toml);
}

/** A home with a board, an earlier attempt at task-1 the owner reacted to, and a run in flight. */
async function seededHome(
  options: { readonly marker?: string; readonly ownerReason?: string } = {},
): Promise<MechaHome> {
  const marker = options.marker ?? 'THIRD-PARTY';
  const home = openHome(tempDir(), { clock: clockFrom(start - 2 * 86_400_000) });
  right(
    await home.board.put([
      { v: 1, kind: 'project', id: 'project-aurora', title: `${marker} project` },
      {
        v: 1,
        kind: 'task',
        id: 'task-1',
        title: `${marker} title`,
        status: 'next',
        project_id: 'project-aurora',
        due: '2026-09-30',
      },
      {
        v: 1,
        kind: 'task',
        id: 'task-2',
        title: 'Other',
        status: 'waiting',
        due: '2026-09-20',
        holder: 'owner',
      },
      {
        v: 1,
        kind: 'task',
        id: 'task-3',
        title: 'Third',
        status: 'inbox',
        project_id: 'project-aurora',
      },
    ]),
  );
  const earlier = createSessionRecorder(home);
  const run = right(
    await earlier.startRun({ surface: 'task', goal: { kind: 'task', id: 'task-1' } }),
  );
  right(
    await run.message({
      turn: 0,
      role: 'third_party',
      taint: 'third_party',
      text: `${marker} mail`,
    }),
  );
  const { draftId } = right(
    await earlier.stageDraft({ tool: 'mail_send', taint: 'third_party', text: `${marker} draft` }),
  );
  right(await run.end({ stopCause: 'turn_ceiling' }));
  right(
    await earlier.outcomes.rejectDraft(draftId, { sender: 'owner', reason: `${marker} rejection` }),
  );
  right(
    await closeTask(home, {
      taskId: 'task-1',
      to: 'done',
      who: 'owner',
      surface: 'cli',
      personPresent: true,
      sessionIds: [earlier.sessionId],
    }),
  );
  right(
    await reopenTask(home, {
      taskId: 'task-1',
      to: 'next',
      who: 'owner',
      surface: 'cli',
      personPresent: true,
      reason: options.ownerReason ?? 'the totals are for Lakeside, not Northwind',
    }),
  );
  // A delegated task still in flight, begun a minute before this run.
  const other = createSessionRecorder(openHome(home.path, { clock: clockFrom(start - 60_000) }));
  right(await other.startRun({ surface: 'task', goal: { kind: 'task', id: 'task-2' } }));
  return openHome(home.path, { clock: clockFrom(start) });
}

describe('beginRun', () => {
  it('assembles the brief from the home, delivers it when the config says so, and records it all', async () => {
    const home = await seededHome();
    writeConfig(home, '[agent]\nsituation_brief = true\ntimezone = "Europe/Berlin"\n');
    mkdirSync(join(home.path, 'workflows'), { recursive: true });
    writeFileSync(
      join(home.path, 'workflows', 'attention.toml'),
      '[quiet_hours]\nstart = "22:00"\nend = "07:00"\n',
    );
    const began = right(
      await beginRun(home, {
        surface: 'task',
        goal: { kind: 'task', id: 'task-1' },
        sensors: { loadAverage1m: async () => readValue(0.25) },
        situation: {
          budget: readValue({
            maxTurns: 200,
            outputTokenCeiling: 'none',
            costCeilingUsd: 'none',
            contextWindow: 'none',
            compactionThreshold: 'none',
          }),
        },
      }),
    );
    const text = began.brief.text;
    expect(began.brief.delivered).toBe(true);
    expect(text).toContain('Goal: task task-1, under project project-aurora (2 open tasks there).');
    expect(text).toContain('Previous attempts at this task: 1 earlier session, newest first.');
    expect(text).toContain('rejected draft');
    expect(text).toContain('"the totals are for Lakeside, not Northwind"');
    expect(text).toContain('it hit the turn limit');
    expect(text).toContain('1 overdue (task-2)');
    expect(text).toContain('Your own task is `next`, due 2026-09-30.');
    expect(text).toContain('Other runs in flight: delegated task task-2;');
    expect(text).toContain('Time: Friday afternoon for the owner; outside their quiet hours.');
    expect(text).toContain('Budget: up to 200 turns');
    expect(text).toMatch(/Background seats: could not be read \(the harness did not say/);
    expect(began.conditions).toMatchObject({ load_avg_1m: 0.25 });
    expect(began.conditions?.unread?.mem_available_kb).toBeDefined();
    expect(began.firstMessage('Send the totals.')).toBe(`Send the totals.\n\n${text}`);

    const transcript = await home.sessions.transcript(began.session.sessionId);
    const first = transcript.state === 'read' ? transcript.records[0] : undefined;
    expect(first?.type === 'run_start' && first.brief).toEqual(began.brief);
    expect(first?.type === 'run_start' && first.conditions).toEqual(began.conditions);

    right(await began.finish({ stopCause: 'completed', turnReadings: [{ promptTokens: 1200 }] }));
    const after = await home.sessions.transcript(began.session.sessionId);
    const last = after.state === 'read' ? after.records.at(-1) : undefined;
    expect(last?.type === 'run_end' && last.conditions).toMatchObject({ peak_prompt_tokens: 1200 });
  });

  it.each([
    ['the config is off (the default)', '', {}, /agent\.situation_brief is off/],
    [
      '--no-situation-brief',
      '[agent]\nsituation_brief = true\n',
      { situationBrief: false },
      /--no-situation-brief/,
    ],
    [
      'an evaluation',
      '[agent]\nsituation_brief = true\n',
      { mode: 'eval' },
      /eval run never delivers/,
    ],
    [
      'a replay',
      '[agent]\nsituation_brief = true\n',
      { mode: 'replay' },
      /replay run never delivers/,
    ],
  ] as const)('records but does not deliver the brief when %s', async (_, toml, extra, why) => {
    const home = openHome(tempDir(), { clock: clockFrom(start) });
    writeConfig(home, toml);
    const began = right(await beginRun(home, { surface: 'task', ...extra }));
    expect(began.brief.delivered).toBe(false);
    expect(began.brief.text).toContain('Goal: this run names none.');
    expect(began.firstMessage('hello')).toBe('hello');
    expect(await began.rebrief({ compacted: true })).toBeUndefined();
    expect(began.settings.find((s) => s.key === 'agent.situation_brief')?.message).toMatch(why);
    if ('mode' in extra) expect(began.conditions).toBeUndefined();
    else expect(began.conditions).toBeDefined();
  });

  it('says which config keys it cannot honour instead of ignoring them', async () => {
    const home = openHome(tempDir(), { clock: clockFrom(start) });
    writeConfig(home, '[agent]\nstep_escalation = true\ncontrast_evidence = true\n');
    const began = right(await beginRun(home, { surface: 'cli' }));
    expect(began.settings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'agent.step_escalation', state: 'refused' }),
        // The reflector reads it; a run only says so, and its prompt does not change.
        expect.objectContaining({
          key: 'agent.contrast_evidence',
          state: 'honoured',
          message: expect.stringMatching(/mecha reflect/),
        }),
      ]),
    );
    writeConfig(home, '[agent]\nsituation_brief = "yes"\n');
    const broken = right(await beginRun(home, { surface: 'cli' }));
    expect(broken.brief.delivered).toBe(false);
    expect(broken.settings[0]).toMatchObject({ key: 'config.toml', state: 'refused' });
    expect(broken.brief.fields.time.state).toBe('unread');
  });

  it('delivers planning guidance after recorded goal drift only when [agent] planning_guidance is on', async () => {
    for (const on of [true, false]) {
      const home = openHome(tempDir(), { clock: clockFrom(start) });
      writeConfig(home, `[agent]\nplanning_guidance = ${on}\n`);
      const session = createSessionRecorder(home);
      const first = right(await beginRun(home, { surface: 'task', session }));
      expect(first.brief.guidance).toBeUndefined();
      expect(first.firstMessage('go')).toBe('go');
      right(await first.run.counter('goal_drift', 1));
      right(await first.finish({ stopCause: 'completed' }));

      const resumed = right(await beginRun(home, { surface: 'task', session, resumed: true }));
      expect(resumed.brief.guidance).toMatchObject({ reasons: ['goal_drift'], delivered: on });
      const text = resumed.brief.guidance?.text ?? '';
      expect(text).toMatch(/reconcile your plan with the confirmed goal/);
      expect(resumed.firstMessage('go on')).toBe(on ? `go on\n\n${text}` : 'go on');
      const transcript = await home.sessions.transcript(session.sessionId);
      const starts =
        transcript.state === 'read'
          ? transcript.records.filter((event) => event.type === 'run_start')
          : [];
      expect(starts.at(-1)?.type === 'run_start' && starts.at(-1)).toMatchObject({
        brief: { guidance: { delivered: on } },
      });
      const notice = resumed.settings.find((entry) => entry.key === 'agent.planning_guidance');
      expect(notice === undefined).toBe(!on);
    }
  });

  it('records goal drift on a resumed run that names another goal, which health then counts', async () => {
    const home = openHome(tempDir(), { clock: clockFrom(start) });
    writeConfig(home, '[agent]\nplanning_guidance = true\n');
    const session = createSessionRecorder(home);
    const first = right(
      await beginRun(home, { surface: 'task', session, goal: { kind: 'task', id: 'task-1' } }),
    );
    right(await first.finish({ stopCause: 'completed' }));
    const same = right(
      await beginRun(home, {
        surface: 'task',
        session,
        resumed: true,
        goal: { kind: 'task', id: 'task-1' },
      }),
    );
    expect(same.brief.guidance).toBeUndefined();
    right(await same.finish({ stopCause: 'completed' }));
    const other = right(
      await beginRun(home, {
        surface: 'task',
        session,
        resumed: true,
        goal: { kind: 'task', id: 'task-9' },
      }),
    );
    expect(other.brief.guidance).toMatchObject({ reasons: ['goal_drift'], delivered: true });
    right(await other.finish({ stopCause: 'completed' }));
    const transcript = await home.sessions.transcript(session.sessionId);
    const drift =
      transcript.state === 'read'
        ? transcript.records.flatMap((event) =>
            event.type === 'counter' && event.name === 'goal_drift'
              ? [[event.run_id, event.value]]
              : [],
          )
        : [];
    // The first run confirms the goal and measures nothing; each resumed run that names a
    // goal is measured: 0 for the same goal, 1 for another.
    expect(drift).toEqual([
      [same.run.runId, 0],
      [other.run.runId, 1],
    ]);
  });

  it('never delivers planning guidance in an evaluation, even when switched on', async () => {
    const home = openHome(tempDir(), { clock: clockFrom(start) });
    writeConfig(home, '[agent]\nplanning_guidance = true\n');
    const session = createSessionRecorder(home);
    const first = right(await beginRun(home, { surface: 'task', session }));
    right(await first.run.counter('goal_drift', 1));
    right(await first.finish({ stopCause: 'completed' }));
    const evaluated = right(await beginRun(home, { surface: 'task', session, mode: 'eval' }));
    expect(evaluated.brief.guidance).toBeUndefined();
    expect(evaluated.firstMessage('go on')).toBe('go on');
    expect(evaluated.settings.find((s) => s.key === 'agent.planning_guidance')?.message).toMatch(
      /eval run never delivers/,
    );
  });

  it('resends in a long conversation only when the words change, and after a compaction', async () => {
    const home = openHome(tempDir(), { clock: clockFrom(start) });
    writeConfig(home, '[agent]\nsituation_brief = true\n');
    const began = right(await beginRun(home, { surface: 'web' }));
    expect(began.briefs.lastSent).toBe(began.brief.text);
    expect(await began.rebrief()).toBeUndefined();
    right(
      await home.board.put([{ v: 1, kind: 'task', id: 'task-9', title: 'New', status: 'inbox' }]),
    );
    const changed = await began.rebrief();
    expect(changed).toContain('Board: 1 open task');
    expect(await began.rebrief()).toBeUndefined();
    expect(await began.rebrief({ compacted: true })).toBe(changed);
  });

  it('reads a store that cannot be read as unknown, never as empty', async () => {
    const home = openHome(tempDir(), { clock: clockFrom(start) });
    mkdirSync(join(home.path, 'board', 'board.jsonl'), { recursive: true });
    const began = right(
      await beginRun(home, { surface: 'task', goal: { kind: 'task', id: 'task-1' } }),
    );
    expect(began.brief.fields.board.state).toBe('unread');
    expect(began.brief.text).toMatch(/- Board: could not be read \(/);
    expect(began.brief.text).not.toMatch(/no open tasks/);
    expect(began.brief.text).toMatch(/its project could not be read/);
  });

  it('writes nothing and returns the failure when the start cannot be recorded', async () => {
    const home = openHome(tempDir(), { clock: clockFrom(start) });
    const began = await beginRun(home, { surface: 'Not A Surface' });
    expect(E.isLeft(began) && began.left.kind).toBe('invalid_record');
    const listing = await home.sessions.list();
    expect(listing.state === 'read' && listing.records).toEqual([]);
  });
});

describe('beginRun: the brief quotes only the owner', () => {
  it('never carries third-party words, a rejection reason, or a reason a chat gave', async () => {
    const word = fc.stringMatching(/^[A-Za-z]{6,12}$/);
    await fc.assert(
      fc.asyncProperty(word, word, async (marker, ownerWords) => {
        fc.pre(!marker.includes(ownerWords) && !ownerWords.includes(marker));
        const home = await seededHome({ marker: `X${marker}`, ownerReason: `Q${ownerWords}` });
        const began = right(
          await beginRun(home, { surface: 'task', goal: { kind: 'task', id: 'task-1' } }),
        );
        expect(began.brief.text).not.toContain(`X${marker}`);
        expect(began.brief.text).toContain(`"Q${ownerWords}"`);
      }),
      { numRuns: 15 },
    );
  });
});
