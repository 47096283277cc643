import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ComparisonRecord, TextAppraisalRecord } from '@mecha/appraisal-core';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedDistiller } from '../__fixtures__/scripted-distiller.js';
import { type TestHome, testHome, testNow } from '../__fixtures__/test-home.js';
import { addCounterfactuals } from './add-counterfactuals.js';
import { distill } from './distill.js';

const homes: TestHome[] = [];
afterEach(() => {
  for (const made of homes.splice(0)) made.remove();
});

const comparison = (id: string, sessionId: string): ComparisonRecord => ({
  v: 1,
  comparison_id: id,
  at: '2026-09-30T10:00:00.000Z',
  session_id: sessionId,
  moment: 'draft_rejected',
  verdict: 'separated',
  decided_by: 'validator',
  point: { turn: 6, call: 2, draft_id: 'd-1' },
  validator: 'rejected_draft',
  arms: [
    { policy: 'covering', prompt: 'covering', result: 'did_refused' },
    { policy: 'none', prompt: 'none', result: 'did_not' },
  ],
});

const appraisal = (
  sessionId: string,
  taint: TextAppraisalRecord['taint'],
): TextAppraisalRecord => ({
  v: 1,
  appraisal_id: `ta-${sessionId}`,
  session_id: sessionId,
  at: '2026-09-30T09:00:00.000Z',
  taint,
  interpretation: 'The owner rejected a draft.',
  claims_kept: 0,
  claims_dropped: {},
  goal_unresolved: false,
});

function append(made: TestHome, file: string, records: readonly object[]): void {
  mkdirSync(join(made.path, 'appraisals'), { recursive: true });
  appendFileSync(
    join(made.path, 'appraisals', file),
    records.map((record) => `${JSON.stringify(record)}\n`).join(''),
  );
}

function reflections(made: TestHome): Record<string, unknown>[] {
  return readFileSync(join(made.path, 'appraisals', 'counterfactuals.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the counterfactual step of a distill pass', () => {
  it('adds one reflection per decided comparison, with its appraisal’s taint, once; a session without an appraisal waits', async () => {
    const made = testHome();
    homes.push(made);
    append(made, 'comparisons.jsonl', [comparison('cmp-1', 's-1'), comparison('cmp-2', 's-2')]);
    append(made, 'appraisals.jsonl', [appraisal('s-1', 'third_party')]);
    const home = made.open();
    expect(await addCounterfactuals(home, testNow, false)).toEqual({
      written: 1,
      waiting: 1,
      failed: false,
      storesUnreadable: false,
    });
    expect(reflections(made)).toMatchObject([
      {
        comparison_id: 'cmp-1',
        session_id: 's-1',
        taint: 'third_party',
        at: testNow.toISOString(),
      },
    ]);
    expect(String(reflections(made)[0]?.text)).toMatch(
      /^Counterfactual at a draft the owner rejected/,
    );
    // Again: nothing twice. Once s-2 has an appraisal, its comparison is added.
    expect((await addCounterfactuals(home, testNow, false)).written).toBe(0);
    append(made, 'appraisals.jsonl', [appraisal('s-2', 'clean')]);
    expect((await addCounterfactuals(home, testNow, false)).written).toBe(1);
    expect(reflections(made).map((record) => record.comparison_id)).toEqual(['cmp-1', 'cmp-2']);
  });

  it('writes nothing when the reflection store cannot be read', async () => {
    const made = testHome();
    homes.push(made);
    append(made, 'comparisons.jsonl', [comparison('cmp-1', 's-1')]);
    append(made, 'appraisals.jsonl', [appraisal('s-1', 'clean')]);
    mkdirSync(join(made.path, 'appraisals', 'counterfactuals.jsonl'));
    expect(await addCounterfactuals(made.open(), testNow, false)).toMatchObject({
      written: 0,
      storesUnreadable: true,
    });
  });

  it('runs in every distill pass: a dry run says how many it would write, and writes none', async () => {
    const made = testHome({ name: 'memory' });
    homes.push(made);
    append(made, 'comparisons.jsonl', [comparison('cmp-1', 's-1')]);
    append(made, 'appraisals.jsonl', [appraisal('s-1', 'clean')]);
    const result = await distill({
      home: made.open(),
      model: scriptedDistiller(),
      dryRun: true,
      clock: () => testNow,
    });
    expect(result.state === 'done' && result.report.counterfactuals).toEqual({
      written: 0,
      waiting: 0,
      wouldWrite: 1,
      failed: false,
      storesUnreadable: false,
    });
  });
});
