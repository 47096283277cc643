import { appendFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { stripControl } from '@mecha/appraisal-core';
import { leftOrThrow, rightOrThrow } from '@mecha/errors';
import { folderSnapshot } from '@mecha/vitest-config/folder-snapshot';
import fc from 'fast-check';
import type * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../__fixtures__/temp-dir.js';
import { maxRecordBytes } from '../append-lines.js';
import { beginRun } from '../live/begin-run.js';
import { type MechaHome, openHome } from '../open-home.js';
import { readDraftVerdict } from '../readouts/read-draft-verdict.js';
import { readQuestionAnswer } from '../readouts/read-question-answer.js';
import { createSessionRecorder } from '../session-recorder.js';
import { answerParkedQuestion } from './answer-question.js';
import { decideDraft } from './draft-verdict.js';
import { draftAsShown, isUntouchedEdit, maxOwnerWordsBytes } from './owner-words.js';

// The owner's words (an edited draft, an answer) through the one owner operation of each act,
// read back the way a harness does, over real files in a temporary home.

const right = <T>(value: E.Either<unknown, T>): T => rightOrThrow(value, 'a write');

let ids = 0;
const freshHome = (): MechaHome => openHome(tempDir(), { newId: (p) => `${p}-${++ids}` });

async function withDraft(text?: string) {
  const home = freshHome();
  const session = createSessionRecorder(home);
  const { draftId } = right(
    await session.stageDraft({
      tool: 'mail_send',
      taint: 'third_party',
      ...(text === undefined ? {} : { text }),
    }),
  );
  return { home, session, draftId };
}

async function withQuestion(purpose: 'goal' | 'ordinary' = 'ordinary') {
  const home = freshHome();
  const session = createSessionRecorder(home);
  const { questionId } = right(await session.parkQuestion({ purpose }));
  return { home, session, questionId };
}

const hostile =
  'Dear Ana,\r\n<script>alert(1)</script> \u001b[31mred\u001b[0m\u202eevil\u0000 & "quotes"\rbye';
const hostileKept =
  'Dear Ana,\n<script>alert(1)</script> \u001b[31mred\u001b[0m\u202eevil\u0000 & "quotes"\nbye';

describe('Edit then send keeps the words that go out', () => {
  it('records the edit on the outcome, and the harness reads it back as what to send', async () => {
    const { home, session, draftId } = await withDraft('Hi <!here>, totals attached.');
    const decided = await decideDraft(home, {
      query: draftId,
      verdict: 'send_edited',
      text: 'Hi all,\r\nthe totals are attached.',
      env: {},
    });
    expect(rightOrThrow(decided)).toEqual({
      state: 'decided',
      draftId,
      outcome: 'sent_edited',
      sender: 'owner',
      text: 'Hi all,\nthe totals are attached.',
      line: `Sent ${draftId} with your edits.`,
    });
    expect(await readDraftVerdict(home, draftId)).toEqual({
      state: 'send',
      draftId,
      sessionId: session.sessionId,
      tool: 'mail_send',
      taint: 'third_party',
      skipped: 0,
      outcome: 'sent_edited',
      sender: 'owner',
      at: expect.any(String),
      text: 'Hi all,\nthe totals are attached.',
    });
    const lines = readFileSync(join(home.path, 'outbox', 'outbox.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(JSON.parse(lines[1] as string)).toMatchObject({
      v: 2,
      type: 'outcome',
      outcome: 'sent_edited',
      text: 'Hi all,\nthe totals are attached.',
    });
  });

  it('keeps hostile text byte for byte (line endings aside): it is escaped where shown, not here', async () => {
    const { home, draftId } = await withDraft('x');
    const decided = await decideDraft(home, {
      query: draftId,
      verdict: 'send_edited',
      text: hostile,
      env: {},
    });
    expect(rightOrThrow(decided)).toMatchObject({ state: 'decided', text: hostileKept });
    const read = await readDraftVerdict(home, draftId);
    expect(read.state === 'send' && read.text).toBe(hostileKept);
  });

  it.each([
    ['no words', undefined, /^the edit is empty: type the words to keep$/],
    ['an empty edit', '', /^the edit is empty/],
    ['blank lines', ' \r\n\t ', /^the edit is empty/],
    ['only control characters', '\u001b\u200b\u0007\u0000', /^the edit is empty/],
    ['the draft as written', 'Hello\r\nthere', /^the edit is the draft as written: use Send/],
  ])('refuses %s as a bad request and writes nothing', async (_, text, message) => {
    const { home, draftId } = await withDraft('Hello\nthere');
    const before = folderSnapshot(home.path);
    const decided = await decideDraft(home, {
      query: draftId,
      verdict: 'send_edited',
      ...(text === undefined ? {} : { text }),
      env: {},
    });
    expect(leftOrThrow(decided)).toMatchObject({ kind: 'bad_request' });
    expect(leftOrThrow(decided).message).toMatch(message);
    expect(folderSnapshot(home.path)).toEqual(before);
    expect((await readDraftVerdict(home, draftId)).state).toBe('pending');
  });

  it('refuses the edit box submitted as it was shown (control characters stripped), and writes nothing', async () => {
    const draft = 'Dear Ana,\u001b[31m\tsee below\u202e\r\nSam\u200b';
    const { home, draftId } = await withDraft(draft);
    const before = folderSnapshot(home.path);
    // What a browser sends back from the untouched box: the shown words, line endings `\r\n`.
    const shown = draftAsShown(draft);
    expect(shown).not.toBe(draft);
    const decided = await decideDraft(home, {
      query: draftId,
      verdict: 'send_edited',
      text: shown.replace(/\n/g, '\r\n'),
      env: {},
    });
    expect(leftOrThrow(decided)).toMatchObject({ kind: 'bad_request' });
    expect(leftOrThrow(decided).message).toMatch(/^the edit is the draft as written: use Send/);
    expect(folderSnapshot(home.path)).toEqual(before);
    expect((await readDraftVerdict(home, draftId)).state).toBe('pending');
  });

  it('tells an untouched box from an edit, whatever the draft holds', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (draft, edit) => {
        // The box as shown, or the draft as written, is never an edit.
        expect(isUntouchedEdit(draftAsShown(draft), draft)).toBe(true);
        expect(isUntouchedEdit(draft.replace(/\r\n?/g, '\n'), draft)).toBe(true);
        // Anything that differs from both, even by one character, is an edit.
        const kept = edit.replace(/\r\n?/g, '\n');
        fc.pre(kept !== draftAsShown(draft) && kept !== draft.replace(/\r\n?/g, '\n'));
        expect(isUntouchedEdit(kept, draft)).toBe(false);
      }),
    );
    expect(isUntouchedEdit('Hello', undefined)).toBe(false);
  });

  it('refuses edited text on Send or Reject, and writes nothing', async () => {
    const { home, draftId } = await withDraft('Hello');
    const before = folderSnapshot(home.path);
    for (const verdict of ['send', 'reject'] as const) {
      expect(
        leftOrThrow(await decideDraft(home, { query: draftId, verdict, text: 'Hi', env: {} })),
      ).toEqual({
        kind: 'bad_request',
        message: 'edited text is only kept for Edit then send',
      });
    }
    expect(folderSnapshot(home.path)).toEqual(before);
  });

  it('refuses an edit too long for a record with the sizes, and writes nothing', async () => {
    const { home, draftId } = await withDraft('Hello');
    const before = folderSnapshot(home.path);
    const decided = await decideDraft(home, {
      query: draftId,
      verdict: 'send_edited',
      text: 'a'.repeat(maxRecordBytes),
      env: {},
    });
    expect(leftOrThrow(decided)).toEqual({
      kind: 'bad_request',
      message:
        'the edit is too long to keep: 4,097 KiB as recorded, and at most 4,092 KiB fits in one record; shorten it',
    });
    expect(folderSnapshot(home.path)).toEqual(before);
  });

  it('keeps the longest edit that fits, and the record stays within the store limit', async () => {
    const { home, draftId } = await withDraft('Hello');
    // JSON adds the two quotes; `maxOwnerWordsBytes` is the encoded size.
    const text = 'b'.repeat(maxOwnerWordsBytes - 2);
    const decided = await decideDraft(home, {
      query: draftId,
      verdict: 'send_edited',
      text,
      env: {},
    });
    expect(rightOrThrow(decided).state).toBe('decided');
    const read = await readDraftVerdict(home, draftId);
    expect(read.state === 'send' && read.text?.length).toBe(text.length);
  });
});

describe('readDraftVerdict', () => {
  it('reads each state of a draft, the words to send, and nothing for a draft not sent', async () => {
    const { home, session, draftId } = await withDraft('As written');
    expect(await readDraftVerdict(home, 'draft-none')).toEqual({
      state: 'not_found',
      draftId: 'draft-none',
      skipped: 0,
    });
    expect(await readDraftVerdict(home, draftId)).toMatchObject({ state: 'pending', skipped: 0 });
    right(await session.outcomes.sendDraft(draftId, { sender: 'run_shell' }));
    expect(await readDraftVerdict(home, draftId)).toMatchObject({
      state: 'send',
      outcome: 'sent_unchanged',
      sender: 'run_shell',
      text: 'As written',
    });

    const { draftId: rejected } = right(
      await session.stageDraft({ tool: 'mail_send', taint: 'clean', text: 'No' }),
    );
    right(
      await session.outcomes.rejectDraft(rejected, { sender: 'owner', reason: 'private note' }),
    );
    // A later outcome does not change the first verdict.
    right(await session.outcomes.sendDraft(rejected, { sender: 'owner' }));
    const read = await readDraftVerdict(home, rejected);
    expect(read).toMatchObject({ state: 'not_sent', outcome: 'rejected', sender: 'owner' });
    expect(JSON.stringify(read)).not.toContain('private note');
  });

  it('reads an older home: a version 1 outcome and an edit kept before the words were', async () => {
    const { home, draftId } = await withDraft('Old words');
    const { draftId: second } = right(
      await createSessionRecorder(home).stageDraft({ tool: 'mail_send', taint: 'clean' }),
    );
    appendFileSync(
      join(home.path, 'outbox', 'outbox.jsonl'),
      [
        {
          v: 1,
          type: 'outcome',
          at: '2026-09-01T10:00:00.000Z',
          draft_id: draftId,
          outcome: 'sent_edited',
        },
        {
          v: 2,
          type: 'outcome',
          at: '2026-09-01T10:00:00.000Z',
          draft_id: second,
          outcome: 'sent_edited',
          sender: 'owner',
        },
      ]
        .map((record) => `${JSON.stringify(record)}\n`)
        .join(''),
    );
    const old = await readDraftVerdict(home, draftId);
    expect(old).toMatchObject({ state: 'send', outcome: 'sent_edited', sender: 'unrecorded' });
    expect(old).not.toHaveProperty('text');
    const unkept = await readDraftVerdict(home, second);
    expect(unkept).toMatchObject({ state: 'send', outcome: 'sent_edited', sender: 'owner' });
    expect(unkept).not.toHaveProperty('text');
  });

  it('says how many damaged lines it skipped, and that an unreadable outbox is unreadable', async () => {
    const { home, draftId } = await withDraft('Hi');
    appendFileSync(join(home.path, 'outbox', 'outbox.jsonl'), '{"v":2,"type":"outcome"}\n');
    expect(await readDraftVerdict(home, draftId)).toMatchObject({ state: 'pending', skipped: 1 });
    rmSync(join(home.path, 'outbox', 'outbox.jsonl'));
    mkdirSync(join(home.path, 'outbox', 'outbox.jsonl'));
    expect(await readDraftVerdict(home, draftId)).toMatchObject({ state: 'unreadable' });
  });
});

describe('answerParkedQuestion keeps the answer a parked run resumes with', () => {
  it('records the answer, and the harness reads it back for that question', async () => {
    const { home, session, questionId } = await withQuestion('goal');
    const answered = await answerParkedQuestion(home, {
      query: questionId,
      surface: 'web',
      text: 'Yes: the totals for Lakeside.\r\nNot Northwind.',
      env: {},
    });
    expect(rightOrThrow(answered)).toMatchObject({
      state: 'answered',
      text: 'Yes: the totals for Lakeside.\nNot Northwind.',
    });
    expect(await readQuestionAnswer(home, questionId)).toEqual({
      state: 'answered',
      questionId,
      sessionId: session.sessionId,
      purpose: 'goal',
      skipped: 0,
      at: expect.any(String),
      text: 'Yes: the totals for Lakeside.\nNot Northwind.',
    });
  });

  it.each([
    ['an empty answer', '', /^the answer is empty: type the words to keep$/],
    ['a blank answer', '\n \t', /^the answer is empty/],
    ['only control characters', '\u001b\u2066\u007f', /^the answer is empty/],
    [
      'an answer too long for a record',
      'q'.repeat(maxRecordBytes),
      /^the answer is too long to keep: 4,097 KiB/,
    ],
  ])('refuses %s as a bad request and writes nothing', async (_, text, message) => {
    const { home, questionId } = await withQuestion();
    const before = folderSnapshot(home.path);
    const answered = await answerParkedQuestion(home, {
      query: questionId,
      surface: 'cli',
      text,
      env: {},
    });
    expect(leftOrThrow(answered)).toMatchObject({ kind: 'bad_request' });
    expect(leftOrThrow(answered).message).toMatch(message);
    expect(folderSnapshot(home.path)).toEqual(before);
    expect((await readQuestionAnswer(home, questionId)).state).toBe('waiting');
  });

  it('keeps any answer with something to read in it exactly as typed, line endings aside', async () => {
    const { home, session } = await withQuestion();
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', minLength: 1 }), async (text) => {
        fc.pre(stripControl(text).trim() !== '');
        const { questionId } = right(await session.parkQuestion());
        const answered = await answerParkedQuestion(home, {
          query: questionId,
          surface: 'cli',
          text,
          env: {},
        });
        expect(rightOrThrow(answered).state).toBe('answered');
        const read = await readQuestionAnswer(home, questionId);
        expect(read.state === 'answered' && read.text).toBe(text.replace(/\r\n?/g, '\n'));
      }),
      { numRuns: 60 },
    );
  });

  it('reads each state of a question, and an older answer without words', async () => {
    const { home, session, questionId } = await withQuestion();
    expect(await readQuestionAnswer(home, 'q-none')).toEqual({
      state: 'not_found',
      questionId: 'q-none',
      skipped: 0,
    });
    expect(await readQuestionAnswer(home, questionId)).toMatchObject({ state: 'waiting' });
    right(await session.outcomes.abandonQuestion(questionId));
    expect(await readQuestionAnswer(home, questionId)).toMatchObject({ state: 'abandoned' });
    const { questionId: old } = right(await session.parkQuestion());
    right(await session.outcomes.answerQuestion(old));
    const read = await readQuestionAnswer(home, old);
    expect(read).toMatchObject({ state: 'answered', sessionId: session.sessionId });
    expect(read).not.toHaveProperty('text');
  });
});

describe('the owner’s words stay where they belong', () => {
  it('the situation brief of a later run names the acts, never the edited words or the answer', async () => {
    const home = freshHome();
    right(
      await home.board.put([{ v: 1, kind: 'task', id: 'task-1', title: 'Totals', status: 'next' }]),
    );
    const earlier = createSessionRecorder(home);
    right(await earlier.startRun({ surface: 'task', goal: { kind: 'task', id: 'task-1' } }));
    const { draftId } = right(
      await earlier.stageDraft({ tool: 'mail_send', taint: 'clean', text: 'First go' }),
    );
    const { questionId } = right(await earlier.parkQuestion());
    expect(
      rightOrThrow(
        await decideDraft(home, {
          query: draftId,
          verdict: 'send_edited',
          text: 'EDITED-WORDS-7731',
          env: {},
        }),
      ),
    ).toMatchObject({ state: 'decided' });
    expect(
      rightOrThrow(
        await answerParkedQuestion(home, {
          query: questionId,
          surface: 'web',
          text: 'ANSWER-WORDS-4412',
          env: {},
        }),
      ),
    ).toMatchObject({ state: 'answered' });
    const began = right(
      await beginRun(home, { surface: 'task', goal: { kind: 'task', id: 'task-1' } }),
    );
    expect(began.brief.text).toContain(`edited draft ${draftId} and sent it`);
    expect(began.brief.text).toContain(`answered question ${questionId}`);
    const recorded = readFileSync(
      join(home.path, 'sessions', `${began.session.sessionId}.jsonl`),
      'utf8',
    );
    for (const words of ['EDITED-WORDS-7731', 'ANSWER-WORDS-4412']) {
      expect(began.brief.text).not.toContain(words);
      expect(recorded).not.toContain(words);
    }
  });
});
