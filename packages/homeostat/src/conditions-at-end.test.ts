import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ago, hour, stores } from './__fixtures__/conditions.js';
import { conditionsAtEnd, storeFlow } from './conditions-at-end.js';
import type { PendingRow } from './pending-commitments.js';

const draft = (id: string): PendingRow => ({ store: 'outbox', id, stagedAt: ago(hour) });

describe('storeFlow', () => {
  it('lists what was added and what was cleared, item by item', () => {
    const flow = storeFlow(
      { state: 'read', records: [draft('d-1'), draft('d-2')] },
      { state: 'read', records: [draft('d-2'), draft('d-3')] },
    );
    expect(flow).toEqual({ added: ['d-3'], cleared: ['d-1'], complete: true });
  });

  it('tells a run that moved nothing from one whose flow nets to zero', () => {
    const still = storeFlow(
      { state: 'read', records: [draft('d-1')] },
      { state: 'read', records: [draft('d-1')] },
    );
    const churn = storeFlow(
      { state: 'read', records: [draft('d-1')] },
      { state: 'read', records: [draft('d-2')] },
    );
    expect(still).toEqual({ added: [], cleared: [], complete: true });
    expect(churn).toEqual({ added: ['d-2'], cleared: ['d-1'], complete: true });
  });

  it('counts a request parked on its requester as cleared from the owner', () => {
    const request = (status?: 'needs_info'): PendingRow => ({
      store: 'requests',
      id: 'r-1',
      stagedAt: ago(hour),
      ...(status === undefined ? {} : { status }),
    });
    expect(
      storeFlow(
        { state: 'read', records: [request()] },
        { state: 'read', records: [request('needs_info')] },
      ),
    ).toEqual({ added: [], cleared: ['r-1'], complete: true });
  });

  it('is absent when either read failed, and incomplete when either was cut short', () => {
    expect(
      storeFlow({ state: 'unreadable', reason: 'x' }, { state: 'read', records: [] }),
    ).toBeUndefined();
    expect(
      storeFlow(
        { state: 'partial', records: [], skipped: [{ file: 'f', line: 1, reason: 'torn' }] },
        { state: 'read', records: [] },
      ),
    ).toEqual({ added: [], cleared: [], complete: false });
  });

  it('nets to the change in what waits on the owner', () => {
    const ids = fc.uniqueArray(fc.stringMatching(/^d-[a-z0-9]{1,3}$/), { maxLength: 12 });
    fc.assert(
      fc.property(ids, ids, (before, after) => {
        const flow = storeFlow(
          { state: 'read', records: before.map(draft) },
          { state: 'read', records: after.map(draft) },
        );
        expect((flow?.added.length ?? 0) - (flow?.cleared.length ?? 0)).toBe(
          after.length - before.length,
        );
      }),
    );
  });
});

describe('conditionsAtEnd', () => {
  it('records the flow per store and the peaks over turns', () => {
    const snapshot = conditionsAtEnd({
      before: stores({ outbox: [draft('d-1')] }),
      after: stores({ outbox: [draft('d-1'), draft('d-2')] }),
      turns: [
        { promptTokens: 1200, contextPressure: 0.1 },
        { promptTokens: 5400 },
        { contextPressure: 0.4, promptTokens: 3000 },
      ],
    });
    expect(snapshot).toEqual({
      backlog_delta: {
        outbox: { added: ['d-2'], cleared: [], complete: true },
        questions: { added: [], cleared: [], complete: true },
        requests: { added: [], cleared: [], complete: true },
      },
      peak_prompt_tokens: 5400,
      peak_context_pressure: 0.4,
    });
  });

  it('leaves unmeasured peaks and an unread store absent, with reasons', () => {
    const snapshot = conditionsAtEnd({
      before: stores({}),
      after: { ...stores({}), questions: { state: 'unreadable', reason: 'EACCES' } },
      turns: [{}, {}],
    });
    expect(snapshot.peak_prompt_tokens).toBeUndefined();
    expect(snapshot.peak_context_pressure).toBeUndefined();
    expect(snapshot.backlog_delta?.questions).toBeUndefined();
    expect(snapshot.unread).toEqual({
      'backlog_delta.questions': 'EACCES',
      peak_prompt_tokens: 'no turn recorded its prompt size',
      peak_context_pressure: 'no turn recorded its context pressure',
    });
  });
});
