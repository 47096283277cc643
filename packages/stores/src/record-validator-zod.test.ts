import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

// record-validator.ts compiles zod schemas into plain predicates by reading zod 4's private
// internals (`schema._zod.def`, `_zod.values`, `_zod.optin`/`optout`, and each check's
// `_zod.def`). zod does not promise them, so zod is pinned exactly in the catalog, and this
// file names every internal the compiler reads: when a zod update changes one, it fails here
// with the version and the internal, before a slower (or wrong) compiled path ships.

const installed = (
  JSON.parse(
    readFileSync(new URL('../node_modules/zod/package.json', import.meta.url), 'utf8'),
  ) as { version: string }
).version;

const relies = (internal: string) =>
  `zod ${installed} changed ${internal}, which record-validator.ts reads; re-check the compiler against this zod before updating the pin`;

// biome-ignore lint/suspicious/noExplicitAny: reading zod's private internals is the point here.
const internals = (schema: z.ZodType): any => (schema as unknown as { _zod: unknown })._zod;
const def = (schema: z.ZodType) => internals(schema).def;
const checks = (schema: z.ZodType) =>
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  (def(schema).checks ?? []).map((check: any) => check._zod.def);

describe('the zod internals record-validator.ts compiles from', () => {
  it('is the zod version pinned exactly in the catalog', () => {
    const workspace = readFileSync(
      new URL('../../../pnpm-workspace.yaml', import.meta.url),
      'utf8',
    );
    const pinned = /^ {2}zod: (\S+)$/m.exec(workspace)?.[1];
    expect(pinned, 'the catalog must pin zod to one exact version (no ^ or ~)').toMatch(
      /^\d+\.\d+\.\d+$/,
    );
    expect(installed, `the installed zod must be the pinned ${pinned}`).toBe(pinned);
  });

  it.each([
    ['string', z.string()],
    ['number', z.number()],
    ['boolean', z.boolean()],
    ['literal', z.literal('x')],
    ['enum', z.enum(['a', 'b'])],
    ['optional', z.string().optional()],
    ['default', z.string().default('x')],
    ['nullable', z.string().nullable()],
    ['object', z.object({})],
    ['array', z.array(z.string())],
    ['union', z.union([z.string(), z.number()])],
    ['record', z.record(z.string(), z.number())],
    ['pipe', z.object({}).transform((value) => value)],
  ] as const)('names a %s schema by _zod.def.type', (type, schema) => {
    expect(def(schema).type, relies(`_zod.def.type of a ${type} schema`)).toBe(type);
  });

  it('keeps the accepted values of literals and enums in _zod.values', () => {
    expect([...internals(z.literal('x')).values], relies('_zod.values of a literal')).toEqual([
      'x',
    ]);
    expect([...internals(z.enum(['a', 'b'])).values], relies('_zod.values of an enum')).toEqual([
      'a',
      'b',
    ]);
  });

  it('marks optional and defaulted object fields with _zod.optin and _zod.optout', () => {
    const shape = def(z.object({ a: z.string().optional(), b: z.number().default(1) })).shape;
    expect(
      [internals(shape.a).optin, internals(shape.a).optout],
      relies('_zod.optin/optout of an optional field'),
    ).toEqual(['optional', 'optional']);
    expect(
      [internals(shape.b).optin, internals(shape.b).optout],
      relies('_zod.optin/optout of a defaulted field'),
    ).toEqual(['defaulted', undefined]);
    expect(def(z.string().optional()).innerType, relies('_zod.def.innerType')).toBeDefined();
  });

  it('describes string checks by name, bound and pattern', () => {
    expect(checks(z.string().max(3).min(1).regex(/a/)), relies('string checks')).toEqual([
      expect.objectContaining({ check: 'max_length', maximum: 3 }),
      expect.objectContaining({ check: 'min_length', minimum: 1 }),
      expect.objectContaining({ check: 'string_format', format: 'regex', pattern: /a/ }),
    ]);
    for (const [format, schema] of [
      ['datetime', z.iso.datetime()],
      ['date', z.iso.date()],
    ] as const) {
      expect(def(schema), relies(`the ${format} format's definition`)).toMatchObject({
        type: 'string',
        check: 'string_format',
        format,
        pattern: expect.any(RegExp),
      });
    }
  });

  it('describes number checks by name, value and inclusiveness', () => {
    expect(def(z.int()), relies('the int format')).toMatchObject({
      type: 'number',
      check: 'number_format',
      format: 'safeint',
    });
    expect(checks(z.number().gt(1).lte(3)), relies('number checks')).toEqual([
      expect.objectContaining({ check: 'greater_than', value: 1, inclusive: false }),
      expect.objectContaining({ check: 'less_than', value: 3, inclusive: true }),
    ]);
    expect(checks(z.array(z.string()).max(2)), relies('array length checks')).toEqual([
      expect.objectContaining({ check: 'max_length', maximum: 2 }),
    ]);
  });

  it('keeps the parts of objects, arrays, unions, records and pipes where the compiler looks', () => {
    const object = def(z.object({ a: z.string() }).catchall(z.number()));
    expect(Object.keys(object.shape), relies('_zod.def.shape')).toEqual(['a']);
    expect(object.catchall, relies('_zod.def.catchall')).toBeDefined();
    expect(def(z.array(z.string())).element, relies('_zod.def.element')).toBeDefined();
    const tagged = def(
      z.discriminatedUnion('t', [z.object({ t: z.literal('a') }), z.object({ t: z.literal('b') })]),
    );
    expect(
      [tagged.discriminator, tagged.options.length],
      relies('_zod.def.discriminator/options'),
    ).toEqual(['t', 2]);
    const record = def(z.record(z.string(), z.number()));
    expect(
      [def(record.keyType).type, def(record.valueType).type],
      relies('_zod.def.keyType/valueType'),
    ).toEqual(['string', 'number']);
    expect(
      def(def(z.object({}).transform((value) => value)).in).type,
      relies('_zod.def.in of a pipe'),
    ).toBe('object');
    expect(def(z.coerce.number()).coerce, relies('_zod.def.coerce')).toBe(true);
  });
});
