import { MechaError } from '@mecha/errors';
import fc from 'fast-check';
import type { z } from 'zod';

// A test helper: a fast-check arbitrary of values a zod schema accepts, for the subset of zod
// the record schemas use. It reads the same definitions the validator compiler reads.

interface Definition {
  readonly type: string;
  readonly checks?: readonly { readonly _zod: { readonly def: Check } }[];
  readonly check?: string;
  readonly format?: string;
  readonly pattern?: RegExp;
  readonly shape?: Readonly<Record<string, Schema>>;
  readonly innerType?: Schema;
  readonly element?: Schema;
  readonly options?: readonly Schema[];
  readonly keyType?: Schema;
  readonly valueType?: Schema;
  readonly in?: Schema;
  readonly values?: readonly unknown[];
  readonly entries?: Readonly<Record<string, unknown>>;
}
interface Check {
  readonly check: string;
  readonly format?: string;
  readonly pattern?: RegExp;
  readonly maximum?: number;
  readonly minimum?: number;
  readonly value?: number;
  readonly inclusive?: boolean;
}
interface Schema {
  readonly _zod: { readonly def: Definition; readonly optin?: string };
}

function checksOf(definition: Definition): Check[] {
  const all: Check[] = [];
  if (definition.check !== undefined) all.push(definition as Check);
  for (const check of definition.checks ?? []) all.push(check._zod.def);
  return all;
}

function stringArbitrary(definition: Definition): fc.Arbitrary<string> {
  const checks = checksOf(definition);
  const pattern = checks.find((check) => check.check === 'string_format')?.pattern;
  const maximum = checks.find((check) => check.check === 'max_length')?.maximum;
  const minimum = checks.find((check) => check.check === 'min_length')?.minimum ?? 0;
  if (pattern !== undefined) {
    return fc
      .stringMatching(pattern)
      .filter((text) => maximum === undefined || text.length <= maximum);
  }
  return fc.string({
    minLength: minimum,
    maxLength: Math.min(maximum ?? 24, 24),
    unit: 'grapheme',
  });
}

function numberArbitrary(definition: Definition): fc.Arbitrary<number> {
  const checks = checksOf(definition);
  const integer = checks.some((check) => check.check === 'number_format');
  const low = checks.find((check) => check.check === 'greater_than');
  const high = checks.find((check) => check.check === 'less_than');
  if (integer) {
    const min = low?.value === undefined ? -1000 : low.value + (low.inclusive ? 0 : 1);
    const max = high?.value === undefined ? 100_000 : high.value - (high.inclusive ? 0 : 1);
    return fc.integer({ min, max });
  }
  return fc.double({
    min: low?.value ?? -1e6,
    max: high?.value ?? 1e6,
    minExcluded: low !== undefined && low.inclusive !== true,
    maxExcluded: high !== undefined && high.inclusive !== true,
    noNaN: true,
    noDefaultInfinity: true,
  });
}

/** An arbitrary of inputs `schema` accepts (including older versions a pipe upgrades). */
export function arbitraryOf(schema: z.ZodType): fc.Arbitrary<unknown> {
  return build(schema as unknown as Schema);
}

function build(schema: Schema): fc.Arbitrary<unknown> {
  const definition = schema._zod.def;
  switch (definition.type) {
    case 'string':
      return stringArbitrary(definition);
    case 'number':
      return numberArbitrary(definition);
    case 'boolean':
      return fc.boolean();
    case 'literal':
      return fc.constantFrom(...(definition.values ?? []));
    case 'enum':
      return fc.constantFrom(...Object.values(definition.entries ?? {}));
    case 'optional':
    case 'default':
      return fc.option(build(definition.innerType as Schema), { nil: undefined });
    case 'array':
      return fc.array(build(definition.element as Schema), {
        maxLength: Math.min(
          checksOf(definition).find((check) => check.check === 'max_length')?.maximum ?? 4,
          4,
        ),
      });
    case 'record':
      return fc.dictionary(
        build(definition.keyType as Schema) as fc.Arbitrary<string>,
        build(definition.valueType as Schema),
        { maxKeys: 3 },
      );
    case 'object': {
      const shape = definition.shape ?? {};
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      const required: string[] = [];
      for (const [key, field] of Object.entries(shape)) {
        const fieldDefinition = field._zod.def;
        if (field._zod.optin !== undefined && fieldDefinition.innerType !== undefined) {
          model[key] = build(fieldDefinition.innerType);
        } else {
          model[key] = build(field);
          required.push(key);
        }
      }
      return fc.record(model, { requiredKeys: required });
    }
    case 'union':
      return fc.oneof(...(definition.options ?? []).map(build));
    case 'pipe':
      return build(definition.in as Schema);
    default:
      throw new MechaError(`no arbitrary for zod type ${definition.type}`);
  }
}
