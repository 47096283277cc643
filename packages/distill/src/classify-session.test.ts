import type { QuestionRecord, SourceRead } from '@mecha/appraisal-core';
import { describe, expect, it } from 'vitest';
import { conversation, events } from './__fixtures__/events.js';
import { classifySession, defaultClassifyOptions } from './classify-session.js';

const noQuestions: SourceRead<QuestionRecord> = { state: 'read', records: [] };
const options = (now: string) => ({ ...defaultClassifyOptions, now: new Date(now) });
const later = options('2026-09-27T00:00:00Z');

describe('classifySession', () => {
  it('takes a finished conversation as ready, ending at its last event', () => {
    expect(classifySession('s-1', conversation(), noQuestions, later)).toEqual({
      state: 'ready',
      endedAt: '2026-09-25T09:10:00Z',
    });
  });

  it('leaves a run with no end alone while it is recent', () => {
    const running = conversation().slice(0, -1);
    expect(classifySession('s-1', running, noQuestions, options('2026-09-25T10:00:00Z'))).toEqual({
      state: 'running',
    });
  });

  it('takes a run quiet for a day with no end as over (a crash leaves that)', () => {
    const crashed = conversation().slice(0, -1);
    expect(classifySession('s-1', crashed, noQuestions, later).state).toBe('ready');
  });

  it('waits for a session parked on a question the owner has not abandoned', () => {
    const parked = [...conversation().slice(0, -1), events.end('2026-09-25T09:10:00Z', 'parked')];
    const questions: SourceRead<QuestionRecord> = {
      state: 'read',
      records: [
        {
          v: 1,
          type: 'parked',
          at: '2026-09-25T09:10:00Z',
          question_id: 'q-1',
          session_id: 's-1',
          purpose: 'ordinary',
        },
      ],
    };
    expect(classifySession('s-1', parked, questions, later).state).toBe('parked');
    const abandoned: SourceRead<QuestionRecord> = {
      state: 'read',
      records: [
        ...questions.records,
        { v: 1, type: 'abandoned', at: '2026-09-26T09:00:00Z', question_id: 'q-1' },
      ],
    };
    expect(classifySession('s-1', parked, abandoned, later).state).toBe('ready');
    expect(classifySession('s-1', parked, { state: 'unreadable', reason: 'x' }, later).state).toBe(
      'parked',
    );
  });

  it('calls a session with one short exchange too short', () => {
    const short = [
      events.start(),
      events.owner('msg-1', 'hi'),
      events.agent('msg-2', 'Hello!'),
      events.end(),
    ];
    expect(classifySession('s-1', short, noQuestions, later)).toEqual({
      state: 'too_short',
      endedAt: '2026-09-25T09:10:00Z',
    });
    const monologue = [events.start(), events.owner('msg-1', 'x'.repeat(500)), events.end()];
    expect(classifySession('s-1', monologue, noQuestions, later).state).toBe('too_short');
  });

  it('calls an empty transcript too short', () => {
    expect(classifySession('s-1', [], noQuestions, later).state).toBe('too_short');
  });
});
