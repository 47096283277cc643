// The compiler of a zod 4 schema's canonical-form predicate: plain JavaScript, written from the
// schema's own definition, that says whether zod would accept a value and return it unchanged.
// `recordValidator` uses it as the fast path in front of zod.
import type { CheckDefinition, Definition, Schema } from './zod-internals.js';

// The compiler of a zod 4 schema's canonical-form predicate: plain JavaScript, written from the
// schema's own definition, that says whether zod would accept a value and return it unchanged.
// `recordValidator` uses it as the fast path in front of zod.

export type Predicate = (value: unknown) => boolean;

// Formats whose whole check is a pattern test (see zod's $ZodCheckStringFormat).
const patternFormats = new Set(['regex', 'datetime', 'date']);

function isPrimitiveLiteral(value: unknown): value is string | number | boolean | null {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/**
 * Writes one JavaScript function per object, array, union and record of a schema, and inline
 * expressions for everything else, so that V8 sees monomorphic code it can inline — the same
 * technique zod's own object fast path uses. Anything it does not know compiles to `false`,
 * which sends the value to zod.
 */
class Emitter {
  readonly functions: string[] = [];
  readonly externals: unknown[] = [];
  readonly state: string[] = [];
  private readonly slots = new Map<string, number>();
  private readonly patterns = new Map<RegExp, string>();
  /** The object field being compiled, which names the cache slot of its pattern checks. */
  field = '';

  patternName(pattern: RegExp): string {
    let name = this.patterns.get(pattern);
    if (name === undefined) {
      name = this.external(pattern);
      this.patterns.set(pattern, name);
    }
    return name;
  }

  external(value: unknown): string {
    this.externals.push(value);
    return `e[${this.externals.length - 1}]`;
  }

  function(write: () => string): string {
    const index = this.functions.length;
    this.functions.push('');
    this.functions[index] = `function f${index}(v) {\n${write()}\n}`;
    return `f${index}`;
  }

  checks(definition: Definition): CheckDefinition[] {
    const all: CheckDefinition[] = [];
    if (definition.check !== undefined) all.push(definition as CheckDefinition);
    for (const check of definition.checks ?? []) all.push(check._zod.def);
    return all;
  }

  stringCheck(check: CheckDefinition, x: string): string | undefined {
    switch (check.check) {
      case 'string_format': {
        if (check.pattern === undefined || !patternFormats.has(check.format ?? ''))
          return undefined;
        // Ids repeat line after line (a run's id, a session's): remember the last answer, in one
        // slot per pattern and field name, shared by every record kind that has that field.
        const pattern = this.patternName(check.pattern);
        const key = `${pattern}|${this.field}`;
        let slot = this.slots.get(key);
        if (slot === undefined) {
          slot = this.state.length;
          this.slots.set(key, slot);
          this.state.push(`let l${slot}; let r${slot} = false;`);
        }
        return `(${x} === l${slot} ? r${slot} : (${pattern}.lastIndex = 0, r${slot} = ${pattern}.test(${x}), l${slot} = ${x}, r${slot}))`;
      }
      case 'max_length': {
        // zod counts code points; within the limit in UTF-16 units is within it in both.
        const maximum = check.maximum;
        if (typeof maximum !== 'number') return undefined;
        return `(${x}.length <= ${maximum} || ${this.codePoints()}(${x}) <= ${maximum})`;
      }
      case 'min_length': {
        // zod's own rule: fewer units than the floor fail, twice the floor pass, and only in
        // between are code points counted.
        const minimum = check.minimum;
        if (typeof minimum !== 'number') return undefined;
        return `(${x}.length >= ${2 * minimum} || (${x}.length >= ${minimum} && ${this.codePoints()}(${x}) >= ${minimum}))`;
      }
      default:
        return undefined;
    }
  }

  private codePointsName: string | undefined;

  /** zod's code point count: UTF-16 units less one per well-formed surrogate pair. */
  codePoints(): string {
    this.codePointsName ??= this.external((text: string) => {
      let count = text.length;
      for (let index = 0; index < text.length - 1; index += 1) {
        if (
          (text.charCodeAt(index) & 0xfc00) === 0xd800 &&
          (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00
        ) {
          count -= 1;
          index += 1;
        }
      }
      return count;
    });
    return this.codePointsName;
  }

  numberCheck(check: CheckDefinition, x: string): string | undefined {
    const bound = check.value;
    switch (check.check) {
      case 'number_format':
        return check.format === 'safeint' ? `Number.isSafeInteger(${x})` : undefined;
      case 'greater_than':
        if (typeof bound !== 'number' || !Number.isFinite(bound)) return undefined;
        return `${x} ${check.inclusive ? '>=' : '>'} ${bound}`;
      case 'less_than':
        if (typeof bound !== 'number' || !Number.isFinite(bound)) return undefined;
        return `${x} ${check.inclusive ? '<=' : '<'} ${bound}`;
      default:
        return undefined;
    }
  }

  lengthCheck(check: CheckDefinition, x: string): string | undefined {
    switch (check.check) {
      case 'max_length':
        return typeof check.maximum === 'number' ? `${x}.length <= ${check.maximum}` : undefined;
      case 'min_length':
        return typeof check.minimum === 'number' ? `${x}.length >= ${check.minimum}` : undefined;
      default:
        return undefined;
    }
  }

  withChecks(
    base: string,
    definition: Definition,
    write: (check: CheckDefinition) => string | undefined,
  ): string | undefined {
    const parts = [base];
    for (const check of this.checks(definition)) {
      const part = write(check);
      if (part === undefined) return undefined;
      parts.push(part);
    }
    return `(${parts.join(' && ')})`;
  }

  /**
   * An expression for a primitive schema (string, number, boolean, literal, enum) that is true
   * exactly when zod accepts the value, which it then returns unchanged; `undefined` when a
   * check is one this compiler does not know.
   */
  primitive(schema: Schema, x: string): string | undefined {
    const definition = schema._zod.def;
    if (definition.coerce === true) return undefined;
    switch (definition.type) {
      case 'string':
        return this.withChecks(`typeof ${x} === "string"`, definition, (check) =>
          this.stringCheck(check, x),
        );
      case 'number':
        return this.withChecks(
          `typeof ${x} === "number" && Number.isFinite(${x})`,
          definition,
          (check) => this.numberCheck(check, x),
        );
      case 'boolean':
        return `typeof ${x} === "boolean"`;
      case 'literal':
      case 'enum': {
        const values = schema._zod.values;
        return values === undefined || values.size === 0 ? undefined : this.values(values, x);
      }
      default:
        return undefined;
    }
  }

  values(values: ReadonlySet<unknown>, x: string): string {
    const list = [...values];
    if (list.length <= 8 && list.every(isPrimitiveLiteral)) {
      return `(${list.map((value) => `${x} === ${JSON.stringify(value)}`).join(' || ')})`;
    }
    return `${this.external(values)}.has(${x})`;
  }

  /** A boolean expression over the identifier `x`: zod accepts it and returns it unchanged. */
  expression(schema: Schema, x: string): string {
    const definition = schema._zod.def;
    if (definition.coerce === true) return 'false';
    switch (definition.type) {
      case 'string':
      case 'number':
      case 'boolean':
      case 'literal':
      case 'enum':
        return this.primitive(schema, x) ?? 'false';
      case 'optional':
      case 'default':
        return definition.innerType === undefined
          ? 'false'
          : `(${x} !== undefined && ${this.expression(definition.innerType, x)})`;
      case 'nullable':
        return definition.innerType === undefined
          ? 'false'
          : `(${x} === null || ${this.expression(definition.innerType, x)})`;
      case 'object':
        return `${this.object(definition)}(${x})`;
      case 'array':
        return `${this.array(definition)}(${x})`;
      case 'union':
        return `${this.union(definition)}(${x})`;
      case 'record':
        return `${this.record(definition)}(${x})`;
      default:
        // Pipes, transforms and anything else: zod decides, every time.
        return 'false';
    }
  }

  plain(x: string): string {
    return `(typeof ${x} === "object" && ${x} !== null && Object.getPrototypeOf(${x}) === objectPrototype)`;
  }

  object(definition: Definition): string {
    const shape = definition.shape;
    if (
      shape === undefined ||
      definition.catchall !== undefined ||
      Object.hasOwn(shape, '__proto__')
    ) {
      return this.function(() => 'return false;');
    }
    return this.function(() => {
      const lines = [`if (!${this.plain('v')}) return false;`, 'let n = 0;', 'let x;'];
      for (const [key, field] of Object.entries(shape)) {
        const name = JSON.stringify(key);
        // Exactly zod's rule for leaving an absent key out of its output.
        const mayBeAbsent = field._zod.optin === 'optional' && field._zod.optout === 'optional';
        const outer = this.field;
        this.field = key;
        const accepts = this.expression(field, 'x');
        this.field = outer;
        lines.push(
          `x = v[${name}];`,
          mayBeAbsent
            ? `if (x === undefined) { if (${name} in v) return false; } else if (${accepts}) n++; else return false;`
            : `if (x !== undefined && ${accepts}) n++; else return false;`,
        );
      }
      // A plain object's enumerable keys are its own: as many as the fields found means there
      // is no key zod would strip.
      lines.push('let k = 0;', 'for (const _ in v) k++;', 'return k === n;');
      return lines.join('\n');
    });
  }

  array(definition: Definition): string {
    const element = definition.element;
    if (element === undefined) return this.function(() => 'return false;');
    return this.function(() => {
      const lengths =
        this.withChecks('true', definition, (check) => this.lengthCheck(check, 'v')) ?? 'false';
      return [
        'if (!Array.isArray(v)) return false;',
        `if (!${lengths}) return false;`,
        'for (let i = 0; i < v.length; i++) {',
        '  const x = v[i];',
        `  if (!${this.expression(element, 'x')}) return false;`,
        '}',
        'return true;',
      ].join('\n');
    });
  }

  /**
   * An expression that is true only when zod surely rejects `x`: a primitive that fails its
   * checks, the wrong kind of value, an object whose literal field cannot match. `false` means
   * "cannot tell", never "accepts".
   */
  rejects(schema: Schema, x: string): string {
    const definition = schema._zod.def;
    switch (definition.type) {
      case 'string':
      case 'number':
      case 'boolean':
      case 'literal':
      case 'enum': {
        const accepts = this.primitive(schema, x);
        return accepts === undefined ? 'false' : `!${accepts}`;
      }
      case 'optional':
      case 'default':
        return definition.innerType === undefined
          ? 'false'
          : `(${x} !== undefined && ${this.rejects(definition.innerType, x)})`;
      case 'nullable':
        return definition.innerType === undefined
          ? 'false'
          : `(${x} !== null && ${this.rejects(definition.innerType, x)})`;
      case 'array':
        return `!Array.isArray(${x})`;
      case 'pipe':
        return definition.in === undefined ? 'false' : this.rejects(definition.in, x);
      case 'union': {
        const options = definition.options ?? [];
        if (options.length === 0 || definition.discriminator !== undefined) return 'false';
        return `(${options.map((option) => this.rejects(option, x)).join(' && ')})`;
      }
      case 'object': {
        if (definition.shape === undefined) return 'false';
        const parts = [`typeof ${x} !== "object"`, `${x} === null`, `Array.isArray(${x})`];
        for (const [key, field] of Object.entries(definition.shape)) {
          const values = field._zod.values;
          if (field._zod.def.type === 'literal' && values !== undefined && values.size > 0) {
            parts.push(`!${this.values(values, `${x}[${JSON.stringify(key)}]`)}`);
          }
        }
        return `(${parts.join(' || ')})`;
      }
      default:
        return 'false';
    }
  }

  union(definition: Definition): string {
    const options = definition.options ?? [];
    if (definition.discriminator !== undefined) {
      const discriminator = JSON.stringify(definition.discriminator);
      return this.function(() => {
        const cases: string[] = [];
        const seen = new Set<unknown>();
        for (const option of options) {
          const optionDefinition = option._zod.def;
          const tag = optionDefinition.shape?.[definition.discriminator as string];
          if (optionDefinition.type !== 'object' || tag === undefined) continue;
          const tagType = tag._zod.def.type;
          if ((tagType !== 'literal' && tagType !== 'enum') || tag._zod.values === undefined)
            continue;
          const labels = [...tag._zod.values].filter(
            (value) => isPrimitiveLiteral(value) && !seen.has(value),
          );
          if (labels.length === 0) continue;
          for (const label of labels) seen.add(label);
          const call = this.expression(option, 'v');
          cases.push(
            `${labels.map((label) => `case ${JSON.stringify(label)}:`).join(' ')} return ${call};`,
          );
        }
        return [
          `if (!${this.plain('v')}) return false;`,
          `switch (v[${discriminator}]) {`,
          ...cases,
          'default: return false;',
          '}',
        ].join('\n');
      });
    }
    // An exclusive union (z.xor) wants exactly one match; first-match reasoning does not hold.
    if (definition.inclusive === false) return this.function(() => 'return false;');
    // zod returns the first option that accepts: an option may be passed over only when it
    // surely rejects, else its (possibly different) output could be the one zod returns.
    return this.function(() =>
      [
        ...options.map(
          (option) =>
            `if (${this.expression(option, 'v')}) return true;\nif (!${this.rejects(option, 'v')}) return false;`,
        ),
        'return false;',
      ].join('\n'),
    );
  }

  record(definition: Definition): string {
    const { keyType, valueType } = definition;
    if (
      keyType === undefined ||
      valueType === undefined ||
      keyType._zod.values !== undefined ||
      definition.mode !== undefined
    ) {
      return this.function(() => 'return false;');
    }
    return this.function(() =>
      [
        `if (!${this.plain('v')}) return false;`,
        'for (const k in v) {',
        '  if (k === "__proto__") return false;',
        `  if (!${this.expression(keyType, 'k')}) return false;`,
        '  const x = v[k];',
        `  if (!${this.expression(valueType, 'x')}) return false;`,
        '}',
        'return true;',
      ].join('\n'),
    );
  }
}

/** Compiles the canonical-form predicate, or `undefined` where code cannot be generated. */
export function compileCanonical(schema: Schema): Predicate | undefined {
  const emitter = new Emitter();
  const root = emitter.expression(schema, 'v');
  const source = [
    '"use strict";',
    'const objectPrototype = Object.prototype;',
    ...emitter.state,
    ...emitter.functions,
    `return function canonical(v) { return ${root}; };`,
  ].join('\n');
  try {
    return new Function('e', source)(emitter.externals) as Predicate;
  } catch {
    // No code generation here (a content security policy, say): zod validates everything.
    return undefined;
  }
}
