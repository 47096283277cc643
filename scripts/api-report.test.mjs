import assert from 'node:assert/strict';
import { test } from 'node:test';
import { enumMembersSorted } from './api-report.mjs';

const report = (members) =>
  [
    '    verdict: z.ZodEnum<{',
    ...members.map((name) => `        ${name}: "${name}";`),
    '    }>;',
  ].join('\n');

test('two builds that met the enum literals in other orders give one report', () => {
  const one = report(['dropped', 'retired', 'restored', 'edited', 'accepted', 'rejected']);
  const other = report(['dropped', 'edited', 'rejected', 'retired', 'restored', 'accepted']);
  assert.equal(enumMembersSorted(one), enumMembersSorted(other));
  assert.equal(
    enumMembersSorted(one),
    report(['accepted', 'dropped', 'edited', 'rejected', 'restored', 'retired']),
  );
});

test('lines that are not enum members keep their order', () => {
  const text = ['interface A {', '    b: "c";', '    a: string;', '    z: "z";', '}'].join('\n');
  assert.equal(enumMembersSorted(text), text);
  const fields = ['    zeta: "zeta";', '    name: string;', '    alpha: "alpha";'].join('\n');
  assert.equal(enumMembersSorted(fields), fields);
});
