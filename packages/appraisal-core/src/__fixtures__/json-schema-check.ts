/**
 * A small JSON Schema (draft 2020-12) checker covering exactly the keywords zod emits for the
 * record schemas. It refuses any keyword it does not know, so a schema that starts using one
 * fails the test instead of passing unchecked. Returns the problems found, empty when valid.
 */
export function checkJsonSchema(schema: unknown, value: unknown, path = '$'): string[] {
  if (typeof schema !== 'object' || schema === null) return [`${path}: schema is not an object`];
  const s = schema as Record<string, unknown>;
  const problems: string[] = [];
  for (const [keyword, argument] of Object.entries(s)) {
    problems.push(...checkKeyword(keyword, argument, s, value, path));
  }
  return problems;
}

const annotations = new Set(['$schema', 'title', 'description', 'default', 'format', '$id']);

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeOf(value) === 'object';
}

function checkKeyword(
  keyword: string,
  argument: unknown,
  schema: Record<string, unknown>,
  value: unknown,
  path: string,
): string[] {
  if (annotations.has(keyword)) return [];
  switch (keyword) {
    case 'type': {
      const actual = typeOf(value);
      const ok = argument === actual || (argument === 'number' && actual === 'integer');
      return ok ? [] : [`${path}: expected ${String(argument)}, got ${actual}`];
    }
    case 'const':
      return JSON.stringify(value) === JSON.stringify(argument)
        ? []
        : [`${path}: not the constant`];
    case 'enum':
      return (argument as unknown[]).some((item) => JSON.stringify(item) === JSON.stringify(value))
        ? []
        : [`${path}: not in enum`];
    case 'pattern':
      return typeof value !== 'string' || new RegExp(argument as string, 'u').test(value)
        ? []
        : [`${path}: does not match ${String(argument)}`];
    case 'minLength':
      return typeof value !== 'string' || [...value].length >= (argument as number)
        ? []
        : [`${path}: too short`];
    case 'maxLength':
      return typeof value !== 'string' || [...value].length <= (argument as number)
        ? []
        : [`${path}: too long`];
    case 'minimum':
      return typeof value !== 'number' || value >= (argument as number)
        ? []
        : [`${path}: below minimum`];
    case 'maximum':
      return typeof value !== 'number' || value <= (argument as number)
        ? []
        : [`${path}: above maximum`];
    case 'maxItems':
      return !Array.isArray(value) || value.length <= (argument as number)
        ? []
        : [`${path}: too many items`];
    case 'items':
      return Array.isArray(value)
        ? value.flatMap((item, index) => checkJsonSchema(argument, item, `${path}[${index}]`))
        : [];
    case 'required':
      return isObject(value)
        ? (argument as string[])
            .filter((key) => !(key in value))
            .map((key) => `${path}.${key}: required`)
        : [];
    case 'properties': {
      if (!isObject(value)) return [];
      const properties = argument as Record<string, unknown>;
      return Object.entries(properties).flatMap(([key, property]) =>
        key in value ? checkJsonSchema(property, value[key], `${path}.${key}`) : [],
      );
    }
    case 'additionalProperties': {
      if (!isObject(value)) return [];
      const known = new Set(Object.keys((schema.properties as Record<string, unknown>) ?? {}));
      return Object.entries(value)
        .filter(([key]) => !known.has(key))
        .flatMap(([key, item]) =>
          argument === false
            ? [`${path}.${key}: not allowed`]
            : checkJsonSchema(argument, item, `${path}.${key}`),
        );
    }
    case 'propertyNames':
      return isObject(value)
        ? Object.keys(value).flatMap((key) => checkJsonSchema(argument, key, `${path}{${key}}`))
        : [];
    case 'anyOf':
      return (argument as unknown[]).some(
        (option) => checkJsonSchema(option, value, path).length === 0,
      )
        ? []
        : [`${path}: matches no anyOf option`];
    case 'oneOf': {
      const matching = (argument as unknown[]).filter(
        (option) => checkJsonSchema(option, value, path).length === 0,
      ).length;
      return matching === 1 ? [] : [`${path}: matches ${matching} oneOf options, not one`];
    }
    default:
      return [`${path}: keyword ${keyword} is not understood by this checker`];
  }
}
