import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  appraiserVerdict,
  closure,
  goalError,
  hour,
  intervention,
  outcome,
  ownerOutcome,
  parked,
  reflection,
  request,
  staged,
  start,
  workflow,
} from '../__fixtures__/evidence-builders.js';
import { checkJsonSchema } from '../__fixtures__/json-schema-check.js';
import { type RecordSchemaName, recordSchemas } from './record-schemas.js';

const folder = fileURLToPath(new URL('../../dist/json-schema/', import.meta.url));
const packageJson = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8'),
) as { exports: Record<string, unknown> };

function emitted(name: string): unknown {
  return JSON.parse(readFileSync(`${folder}${name}.json`, 'utf8'));
}

const at = hour(0);

/** A valid record for every schema, older versions included; typed so a new schema needs one. */
const samples: Record<RecordSchemaName, readonly unknown[]> = {
  'goal-error': [
    goalError(),
    goalError({ goal: { kind: 'charter', id: 'replies' }, controllable: true }),
  ],
  cite: [{ kind: 'turn', turn: 3 }, { kind: 'appraiser' }, { kind: 'outcome', outcome_id: 'o-1' }],
  'goal-ref': [{ kind: 'task', id: 'task-1' }, { kind: 'charter' }],
  label: ['distress', 'excitement'],
  'transcript-event': [
    start('r-1'),
    intervention('r-1', 'steer', 2),
    appraiserVerdict('r-1', -1, 'other'),
  ],
  'outbox-record': [
    staged('d-1'),
    outcome('d-1', 'rejected'),
    { v: 1, type: 'outcome', at, draft_id: 'd-1', outcome: 'sent_unchanged' },
  ],
  'question-record': [parked('q-1'), { v: 1, type: 'answered', at, question_id: 'q-1' }],
  'request-record': [request('req-1', 'triaged', 1), request('req-1', 'closed', 2)],
  'board-record': [
    { v: 1, kind: 'task', id: 'task-1', title: 'Invoices', status: 'next', due: '2026-09-30' },
    { v: 1, kind: 'project', id: 'p-1', title: 'Aurora' },
  ],
  'closure-record': [
    closure('close-1', 'next', 'done'),
    {
      v: 1,
      closure_id: 'c-0',
      at,
      task_id: 't-1',
      from: 'next',
      to: 'done',
      surface: 'cli',
      session_ids: [],
    },
  ],
  'workflow-record': [workflow('wf-1', 'started', 0), workflow('wf-1', 'verified', 1)],
  'reflection-record': [reflection('refl-1', { turn: 2 })],
  'curation-record': [{ v: 1, at, target: 'rule', target_id: 'rule-1', verdict: 'retired' }],
  'owner-outcome-record': [ownerOutcome('o-1', 'd-1', 'adverse_impact', { commitment: 'req-1' })],
  'text-appraisal-record': [
    {
      v: 1,
      appraisal_id: 'a-1',
      session_id: 's-1',
      at,
      taint: 'clean',
      interpretation: 'The run drafted the reply the owner asked for.',
      claims_kept: 2,
      claims_dropped: { no_such_referent: 1 },
    },
  ],
  'comparison-record': [
    { v: 1, comparison_id: 'cmp-1', at, session_id: 's-1', moment: 'steer', verdict: 'unposed' },
  ],
  'counterfactual-record': [
    { v: 1, reflection_id: 'cfr-1', at, session_id: 's-1', comparison_id: 'cmp-1', taint: 'clean' },
  ],
  'expectation-score-record': [
    {
      v: 1,
      appraisal_id: 'a-1',
      session_id: 's-1',
      at,
      expected: 'edited',
      actual: 'no_act',
      hit: false,
      taint: 'clean',
    },
  ],
  'prediction-record': [
    {
      v: 1,
      prediction_id: 'p-1',
      at,
      draft_id: 'd-1',
      session_id: 's-1',
      response: 'release',
      concern: 'tone',
      taint: 'clean',
    },
  ],
};

describe('recordSchemas as JSON Schema', () => {
  const names = Object.keys(recordSchemas) as RecordSchemaName[];

  it('is exported from the package at ./json-schema/*', () => {
    expect(packageJson.exports['./json-schema/*']).toBe('./dist/json-schema/*');
  });

  it('has one emitted file per record schema, and no other', () => {
    const files = readdirSync(folder).map((file) => file.replace(/\.json$/, ''));
    expect(files.sort()).toEqual([...names].sort());
  });

  it.each(names)('emits %s as the current input-shape JSON Schema', (name) => {
    const fresh = z.toJSONSchema(recordSchemas[name], { io: 'input', target: 'draft-2020-12' });
    expect(emitted(name)).toEqual({ title: `@mecha/appraisal-core ${name}`, ...fresh });
  });

  it.each(names)('accepts valid %s samples in both zod and the emitted JSON Schema', (name) => {
    for (const sample of samples[name]) {
      expect(recordSchemas[name].safeParse(sample).success).toBe(true);
      expect(checkJsonSchema(emitted(name), sample)).toEqual([]);
    }
  });

  it('refuses, like zod, prose in a pointer, a missing field, an unknown type and a bad enum', () => {
    const refused: readonly [RecordSchemaName, unknown][] = [
      [
        'goal-error',
        goalError({ cite: { kind: 'draft', draft_id: 'you have failed your owner' } }),
      ],
      ['outbox-record', { v: 2, type: 'outcome', at, draft_id: 'd-1', outcome: 'rejected' }],
      ['transcript-event', { v: 1, type: 'feeling', at, run_id: 'r-1' }],
      ['label', 'ennui'],
      ['closure-record', { ...closure('c-1', 'next', 'done'), who: 'model' }],
      ['goal-error', goalError({ sign: -2 })],
    ];
    for (const [name, sample] of refused) {
      expect(recordSchemas[name].safeParse(sample).success).toBe(false);
      expect(checkJsonSchema(emitted(name), sample)).not.toEqual([]);
    }
  });
});
