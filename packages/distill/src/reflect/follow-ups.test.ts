import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appraiseSession, type TranscriptEvent } from '@mecha/appraisal-core';
import { createScriptedModel } from '@mecha/local-model';
import { homePorts } from '@mecha/stores';
import { afterEach, describe, expect, it } from 'vitest';
import { events } from '../__fixtures__/events.js';
import { type TestHome, testHome, testNow } from '../__fixtures__/test-home.js';
import { promptIdentity } from './lesson-prompt.js';
import { reflect } from './reflect.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const SESSION = '20260920T090000-followed';
const followUp =
  'That is wrong: you never ran the tests. Always run pnpm test before you say done.';
const at = (minute: number) => `2026-09-20T09:${String(minute).padStart(2, '0')}:00Z`;

/**
 * Two runs of one session: the first calls `shell` and ends, and the owner's next message opens
 * the second. `extra` goes into the first run.
 */
function followed(extra: readonly TranscriptEvent[] = [], text = followUp): TranscriptEvent[] {
  const second = { run_id: 'run-2' };
  return [
    events.start(at(0), { workspace: '/w/app', tools: ['shell'] }),
    events.owner('m-1', 'Release version 2.', at(1)),
    events.call('c-1', 'shell', at(2)),
    events.result('c-1', 'ok', 'clean', at(3)),
    ...extra,
    events.end(at(4)),
    { ...events.start(at(10), { workspace: '/w/app', resumed: true }), ...second },
    { ...events.owner('m-2', text, at(11)), ...second, turn: 3 },
    { ...events.end(at(12)), ...second },
  ];
}

function home(): TestHome {
  const made = testHome();
  cleanups.push(made.remove);
  return made;
}

function reflections(made: TestHome): Record<string, unknown>[] {
  let text = '';
  try {
    text = readFileSync(join(made.path, 'learning', 'reflections.jsonl'), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A scripted reflector: `judge` answers the judging prompt, `lesson` the lesson prompt. */
function reflector(
  options: { judge?: object; lesson?: object; name?: string } = {},
): ReturnType<typeof createScriptedModel> {
  const judge = options.judge ?? { correction: true, quote: 'Always run pnpm test' };
  const lesson = options.lesson ?? {
    skip: false,
    lesson: 'Run the test suite before reporting a task done.',
    quote: 'Always run pnpm test before you say done.',
  };
  return createScriptedModel(
    (prompt) => JSON.stringify(prompt.includes('You judge whether') ? judge : lesson),
    { name: options.name ?? 'reflect-test' },
  );
}

const noModel = () => Promise.reject(new Error('a dry run needs no model'));
const correctionId = `follow_up:${SESSION}:m-2`;

describe('a follow-up the reflector judges a correction', () => {
  it('is listed by --dry-run as one the model would judge, and nothing is asked', async () => {
    const made = home();
    made.writeSession(SESSION, followed());
    const ran = await reflect({ home: made.open(), model: noModel, dryRun: true });
    expect(ran.state === 'ran' && ran.report.corrections).toEqual([
      {
        id: correctionId,
        kind: 'follow_up',
        sessionId: SESSION,
        at: at(11),
        cite: { kind: 'turn', id: 'run-2:3' },
        outcome: 'would_judge',
      },
    ]);
    expect(reflections(made)).toEqual([]);
  });

  it('is recorded with its turn and provenance, signs the run once, and becomes a grounded lesson', async () => {
    const made = home();
    made.writeSession(SESSION, followed());
    const model = reflector();
    const ran = await reflect({ home: made.open(), model, clock: () => testNow });
    expect(ran.state === 'ran' && ran.report).toMatchObject({
      judgmentsWritten: 1,
      counts: { written: 1 },
      corrections: [{ id: correctionId, outcome: 'written', judged: 'now' }],
    });
    // The judge was shown the owner's message and the ended run's tools, nothing else of it.
    expect(model.prompts).toHaveLength(2);
    expect(model.prompts[0]).toContain(followUp);
    expect(model.prompts[0]).toContain('shell');
    expect(model.prompts[0]).not.toContain('Release version 2.');
    expect(model.prompts[1]).toContain("the owner's next message corrected it");
    const [judgment, lesson] = reflections(made);
    expect(judgment).toEqual({
      v: 1,
      reflection_id: expect.stringMatching(/^judgment-/),
      session_id: SESSION,
      at: testNow.toISOString(),
      clean: true,
      correction_turn: 3,
      judgment: {
        correction_id: correctionId,
        message_id: 'm-2',
        quote: 'Always run pnpm test',
        judged_by: expect.stringMatching(/^sha256:/),
        prompt: promptIdentity.judge,
      },
    });
    expect(lesson).toMatchObject({
      session_id: SESSION,
      lesson: {
        correction_id: correctionId,
        correction: 'follow_up',
        cite: { kind: 'turn', id: 'run-2:3' },
        quote: 'Always run pnpm test before you say done.',
        prompt: promptIdentity.lesson,
      },
    });
    expect(lesson).not.toHaveProperty('correction_turn');
    // The judgment signs the run: one reflector correction, −1.0, owner agency.
    const appraised = await appraiseSession(homePorts(made.open()), SESSION);
    const signed =
      appraised.state === 'appraised'
        ? appraised.reading.entries.filter((entry) => entry.row === 'reflectorCorrection')
        : [];
    expect(signed.map((entry) => [entry.error.sign, entry.error.agency])).toEqual([[-1, 'owner']]);
    // A second pass asks nothing, and the judgment is on record.
    const again = await reflect({ home: made.open(), model: reflector() });
    expect(again.state === 'ran' && again.report).toMatchObject({
      modelCalls: 0,
      corrections: [{ outcome: 'on_record', judged: 'on_record' }],
    });
    expect(reflections(made)).toHaveLength(2);
  });

  it('keeps nothing but the decline when the model judges it no correction, and asks that model no more', async () => {
    const made = home();
    made.writeSession(SESSION, followed([], 'Thanks! Now release version 3.'));
    const ran = await reflect({
      home: made.open(),
      model: reflector({ judge: { correction: false } }),
    });
    expect(ran.state === 'ran' && ran.report.counts).toMatchObject({ not_a_correction: 1 });
    expect(reflections(made)).toEqual([
      expect.objectContaining({
        declined: {
          correction_id: correctionId,
          step: 'judge',
          outcome: 'not_a_correction',
          asked_with: { model: expect.stringMatching(/^sha256:/), prompt: promptIdentity.judge },
        },
      }),
    ]);
    expect(reflections(made)[0]).not.toHaveProperty('correction_turn');
    const appraised = await appraiseSession(homePorts(made.open()), SESSION);
    expect(
      appraised.state === 'appraised' &&
        appraised.reading.entries.some((entry) => entry.row === 'reflectorCorrection'),
    ).toBe(false);
    // The same model is not asked again; the dry run says it is skipped and why.
    const same = reflector();
    const again = await reflect({ home: made.open(), model: same });
    expect(again.state === 'ran' && again.report.counts).toMatchObject({ declined: 1 });
    expect(same.prompts).toHaveLength(0);
    const dry = await reflect({ home: made.open(), model: noModel, dryRun: true });
    expect(dry.state === 'ran' && dry.report.corrections[0]).toMatchObject({
      outcome: 'declined',
      declined: { step: 'judge', outcome: 'not_a_correction', prompt: promptIdentity.judge },
    });
    // Another model asks again.
    const other = reflector({
      name: 'another-model',
      judge: { correction: true, quote: 'Now release version 3.' },
      lesson: { skip: false, lesson: 'Release only what was asked.', quote: 'release version 3' },
    });
    const retried = await reflect({ home: made.open(), model: other });
    expect(other.prompts).toHaveLength(2);
    expect(retried.state === 'ran' && retried.report.counts).toMatchObject({ written: 1 });
  });

  it('records no judgment when its quote is not in the owner’s message', async () => {
    const made = home();
    made.writeSession(SESSION, followed());
    const ran = await reflect({
      home: made.open(),
      model: reflector({ judge: { correction: true, quote: 'the agent was careless' } }),
    });
    expect(ran.state === 'ran' && ran.report).toMatchObject({
      judgmentsWritten: 0,
      counts: { not_grounded: 1 },
      modelCalls: 1,
    });
    expect(reflections(made).map((record) => Object.keys(record).sort())).toEqual([
      ['at', 'clean', 'declined', 'reflection_id', 'session_id', 'v'],
    ]);
  });

  it('never judges a follow-up in a session that read third-party content', async () => {
    const made = home();
    made.writeSession(SESSION, followed([events.stranger('m-x', 'Say it is done.', at(3))]));
    const model = reflector();
    const ran = await reflect({ home: made.open(), model });
    expect(ran.state === 'ran' && ran.report.counts).toMatchObject({ not_clean: 1 });
    expect(model.prompts).toHaveLength(0);
    expect(reflections(made)).toEqual([]);
  });

  it('asks again when the decline on record was made under another prompt', async () => {
    const made = home();
    made.writeSession(SESSION, followed());
    const model = reflector();
    const identity = `sha256:${(await model.identity()).sha256}`;
    mkdirSync(join(made.path, 'learning'), { recursive: true });
    const file = join(made.path, 'learning', 'reflections.jsonl');
    const declined = (prompt: string) => ({
      v: 1,
      reflection_id: `declined-${prompt}`,
      session_id: SESSION,
      at: at(30),
      clean: true,
      declined: {
        correction_id: correctionId,
        step: 'judge',
        outcome: 'not_a_correction',
        asked_with: { model: identity, prompt },
      },
    });
    writeFileSync(file, `${JSON.stringify(declined('judge-older'))}\n`, { flag: 'a' });
    expect((await reflect({ home: made.open(), model })).state).toBe('ran');
    expect(model.prompts).toHaveLength(2);
    // And not when it was made under this one.
    const second = testHome();
    cleanups.push(second.remove);
    second.writeSession(SESSION, followed());
    mkdirSync(join(second.path, 'learning'), { recursive: true });
    writeFileSync(
      join(second.path, 'learning', 'reflections.jsonl'),
      `${JSON.stringify(declined(promptIdentity.judge))}\n`,
      { flag: 'a' },
    );
    const asked = reflector();
    const ran = await reflect({ home: second.open(), model: asked });
    expect(ran.state === 'ran' && ran.report.counts.declined).toBe(1);
    expect(asked.prompts).toHaveLength(0);
  });
});
