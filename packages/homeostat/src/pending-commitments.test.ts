import type { OutboxRecord, QuestionRecord, RequestRecord } from '@mecha/appraisal-core';
import { describe, expect, it } from 'vitest';
import { pendingCommitments } from './pending-commitments.js';

const at = (hour: number) => `2026-09-25T${String(hour).padStart(2, '0')}:00:00Z`;

const outbox: OutboxRecord[] = [
  {
    v: 1,
    type: 'staged',
    at: at(1),
    draft_id: 'd-1',
    session_id: 's-1',
    tool: 'mail_send',
    taint: 'clean',
  },
  {
    v: 1,
    type: 'staged',
    at: at(2),
    draft_id: 'd-2',
    session_id: 's-1',
    tool: 'mail_send',
    taint: 'clean',
  },
  { v: 2, type: 'outcome', at: at(3), draft_id: 'd-1', outcome: 'rejected', sender: 'owner' },
];
const questions: QuestionRecord[] = [
  { v: 1, type: 'parked', at: at(1), question_id: 'q-1', session_id: 's-1', purpose: 'ordinary' },
  { v: 1, type: 'parked', at: at(2), question_id: 'q-2', session_id: 's-1', purpose: 'goal' },
  { v: 1, type: 'abandoned', at: at(4), question_id: 'q-1' },
];
const requests: RequestRecord[] = [
  { v: 1, type: 'received', at: at(1), request_id: 'r-1' },
  { v: 1, type: 'received', at: at(1), request_id: 'r-2' },
  { v: 1, type: 'received', at: at(1), request_id: 'r-3' },
  { v: 1, type: 'needs_info', at: at(2), request_id: 'r-1' },
  { v: 1, type: 'needs_info', at: at(2), request_id: 'r-2' },
  { v: 1, type: 'triaged', at: at(3), request_id: 'r-2', session_id: 's-2' },
  { v: 1, type: 'closed', at: at(3), request_id: 'r-3' },
];

describe('pendingCommitments', () => {
  it('keeps drafts with no outcome, questions still parked and requests not closed', () => {
    const pending = pendingCommitments({
      outbox: { state: 'read', records: outbox },
      questions: { state: 'read', records: questions },
      requests: { state: 'read', records: requests },
    });
    expect(pending.outbox).toEqual({
      state: 'read',
      records: [{ store: 'outbox', id: 'd-2', stagedAt: at(2) }],
    });
    expect(pending.questions).toEqual({
      state: 'read',
      records: [{ store: 'questions', id: 'q-2', stagedAt: at(2) }],
    });
    expect(pending.requests).toEqual({
      state: 'read',
      records: [
        { store: 'requests', id: 'r-1', stagedAt: at(1), status: 'needs_info' },
        { store: 'requests', id: 'r-2', stagedAt: at(1) },
      ],
    });
  });

  it('leaves a store that could not be read unreadable, and one read in part partial', () => {
    const skipped = [{ file: 'outbox.jsonl', line: 7, reason: 'torn line' }];
    const pending = pendingCommitments({
      outbox: { state: 'partial', records: outbox, skipped },
      questions: { state: 'unreadable', reason: 'EACCES' },
      requests: { state: 'read', records: [] },
    });
    expect(pending.outbox).toMatchObject({ state: 'partial', skipped });
    expect(pending.questions).toEqual({ state: 'unreadable', reason: 'EACCES' });
    expect(pending.requests).toEqual({ state: 'read', records: [] });
  });
});
