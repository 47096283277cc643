import {
  closureRecordSchema,
  outboxRecordSchema,
  recordSchemas,
  runStartEventSchema,
  transcriptEventSchema,
} from '@mecha/appraisal-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { arbitraryOf } from './__fixtures__/zod-arbitrary.js';
import { recordValidator } from './record-validator.js';
import { distilledRecordSchema } from './schemas/distilled-record.js';
import { manifestSchema } from './schemas/manifest.js';
import { ruleRecordSchema } from './schemas/rule-record.js';
import {
  candidateVerdictSchema,
  closureWriter,
  outboxWriter,
  transcriptWriter,
} from './store-schemas.js';

const schemas: readonly (readonly [string, z.ZodType])[] = [
  ...Object.entries(recordSchemas),
  ['transcript-writer', transcriptWriter],
  ['outbox-writer', outboxWriter],
  ['closure-writer', closureWriter],
  ['candidate-verdict', candidateVerdictSchema],
  ['distilled-record', distilledRecordSchema],
  ['rule-record', ruleRecordSchema],
  ['manifest', manifestSchema],
];
const validators = new Map(schemas.map(([name, schema]) => [name, recordValidator(schema)]));
const schemaNamed = new Map(schemas);

// Only the name and the input travel in a counterexample; the schema is looked up by name.
const anyInput = fc.oneof(
  ...schemas.map(([name, schema]) => fc.tuple(fc.constant(name), arbitraryOf(schema))),
);
const anySchemaInput = anyInput.map(([name, input]) => ({
  name,
  input,
  get schema(): z.ZodType {
    return schemaNamed.get(name) as z.ZodType;
  },
}));

type Mutation = { kind: 'replace' | 'delete' | 'add'; at: number; value: unknown };

/** Changes one field of one object or array anywhere in a value. */
function mutate(value: unknown, mutation: Mutation): unknown {
  const copy: unknown = structuredClone(value);
  if (typeof copy !== 'object' || copy === null) return mutation.value;
  const holders: Record<string, unknown>[] = [];
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    holders.push(node as Record<string, unknown>);
    for (const inner of Object.values(node)) visit(inner);
  };
  visit(copy);
  const holder = holders[mutation.at % holders.length] as Record<string, unknown>;
  const keys = Object.keys(holder);
  const key = keys[Math.floor(mutation.at / holders.length) % Math.max(1, keys.length)] ?? '0';
  if (mutation.kind === 'delete') delete holder[key];
  else if (mutation.kind === 'add') holder[`extra_${mutation.at}`] = mutation.value;
  else holder[key] = mutation.value;
  return copy;
}

const mutation = fc.record({
  kind: fc.constantFrom('replace' as const, 'delete' as const, 'add' as const),
  at: fc.nat(),
  value: fc.jsonValue(),
});

describe('recordValidator', () => {
  it('returns what zod returns for every valid input of every record schema', () => {
    fc.assert(
      fc.property(anySchemaInput, ({ name, schema, input }) => {
        const parsed = schema.safeParse(input);
        expect(parsed.success).toBe(true);
        const validator = validators.get(name);
        expect(validator?.validate(structuredClone(input))).toEqual(parsed.data);
      }),
    );
  });

  it('takes the compiled path for every record in the form zod outputs', () => {
    fc.assert(
      fc.property(anySchemaInput, ({ name, schema, input }) => {
        const output = JSON.parse(JSON.stringify(schema.parse(input)));
        expect(validators.get(name)?.isCanonical(output)).toBe(true);
      }),
    );
  });

  it('never accepts on the compiled path what zod rejects or would change', () => {
    fc.assert(
      fc.property(anySchemaInput, mutation, ({ name, schema, input }, change) => {
        const damaged = JSON.parse(JSON.stringify(mutate(schema.parse(input), change)) ?? 'null');
        if (validators.get(name)?.isCanonical(damaged)) {
          const parsed = schema.safeParse(damaged);
          expect(parsed.success).toBe(true);
          expect(parsed.data).toStrictEqual(damaged);
        }
      }),
    );
  });

  it('never accepts arbitrary JSON on the compiled path unless zod returns it unchanged', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...schemas.map(([name]) => name)),
        fc.jsonValue(),
        (name, value) => {
          if (validators.get(name)?.isCanonical(value)) {
            expect(schemaNamed.get(name)?.safeParse(value)).toEqual({ success: true, data: value });
          }
        },
      ),
    );
  });

  it('fills a default through zod', () => {
    const validator = recordValidator(runStartEventSchema);
    const event = {
      v: 1,
      at: '2026-09-25T09:00:00Z',
      run_id: 'run-1',
      type: 'run_start',
      session_id: 's-1',
      surface: 'web',
    };
    expect(validator.isCanonical(event)).toBe(false);
    expect(validator.validate(event)).toEqual({ ...event, session_kind: 'ordinary' });
  });

  it('upgrades a version 1 draft outcome to an unrecorded sender', () => {
    const validator = recordValidator(outboxRecordSchema);
    const outcome = {
      v: 1,
      type: 'outcome',
      at: '2026-09-25T09:00:00Z',
      draft_id: 'd-1',
      outcome: 'sent_unchanged',
    };
    expect(validator.validate(outcome)).toEqual({ ...outcome, v: 2, sender: 'unrecorded' });
  });

  it('upgrades a version 1 closure to an unknown closer', () => {
    const closure = {
      v: 1,
      closure_id: 'c-1',
      at: '2026-09-25T09:00:00Z',
      task_id: 't-1',
      from: 'next',
      to: 'done',
      surface: 'cli',
      session_ids: ['s-1'],
    };
    expect(recordValidator(closureRecordSchema).validate(closure)).toEqual({
      ...closure,
      v: 2,
      who: 'unknown',
      person_present: false,
    });
  });

  it('strips a key zod does not know, as zod does', () => {
    const validator = recordValidator(transcriptEventSchema);
    const event = {
      v: 1,
      at: '2026-09-25T09:00:00Z',
      run_id: 'run-1',
      type: 'counter',
      name: 'tool_errors',
      value: 2,
    };
    expect(validator.isCanonical({ ...event, note: 'x' })).toBe(false);
    expect(validator.validate({ ...event, note: 'x' })).toEqual(event);
  });

  it('rejects a record and says which field is wrong', () => {
    const validator = recordValidator(transcriptEventSchema);
    const event = { v: 1, at: 'yesterday', run_id: 'run-1', type: 'counter', name: 'x', value: 1 };
    expect(validator.validate(event)).toBeUndefined();
    expect(validator.explain(event)).toMatch(/^at: /);
  });

  it('measures a string in code points, as zod does', () => {
    const schema = z.object({ word: z.string().min(2).max(2) });
    const validator = recordValidator(schema);
    // Two code points in four UTF-16 units fit; three do not, nor does one.
    expect(validator.isCanonical({ word: '😀😀' })).toBe(true);
    expect(validator.isCanonical({ word: '😀😀😀' })).toBe(false);
    expect(validator.isCanonical({ word: '😀' })).toBe(false);
    expect(schema.safeParse({ word: '😀😀😀' }).success).toBe(false);
    expect(schema.safeParse({ word: '😀' }).success).toBe(false);
  });
});
