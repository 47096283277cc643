// The modules `bench verdicts` grades, written for the bench: each kind of code a mutation tool
// meets (loops of every kind, recursion, async, a class with state, string building, a regex,
// early returns, pure constants). Each has cases, written once and rendered as a node:test file
// for mecha and a vitest file for StrykerJS: the real test asserts every case, the thin test
// one, the vacuous test only that the export exists.

/** One module: its file name, its source, what a test imports, and the cases a test asserts. */
export interface BenchModule {
  readonly name: string;
  readonly source: string;
  readonly imports: readonly string[];
  /** An expression (awaited) and the value it must equal. */
  readonly cases: readonly (readonly [string, string])[];
}

export const benchModules: readonly BenchModule[] = [
  {
    name: 'while-sum',
    imports: ['digitSum'],
    source: `/** The sum of the decimal digits of a non-negative integer. */
export function digitSum(value: number): number {
  let rest = Math.floor(Math.abs(value));
  let sum = 0;
  while (rest > 0) {
    sum += rest % 10;
    rest = Math.floor(rest / 10);
  }
  return sum;
}
`,
    cases: [
      ['digitSum(0)', '0'],
      ['digitSum(7)', '7'],
      ['digitSum(1234)', '10'],
      ['digitSum(-95)', '14'],
      ['digitSum(1000)', '1'],
    ],
  },
  {
    name: 'for-window',
    imports: ['maxWindow'],
    source: `/** The largest sum of \`size\` consecutive values; 0 when there are fewer values. */
export function maxWindow(values: readonly number[], size: number): number {
  if (size <= 0 || values.length < size) return 0;
  let current = 0;
  for (let i = 0; i < size; i++) current += values[i] ?? 0;
  let best = current;
  for (let i = size; i < values.length; i++) {
    current += (values[i] ?? 0) - (values[i - size] ?? 0);
    if (current > best) best = current;
  }
  return best;
}
`,
    cases: [
      ['maxWindow([1, 2, 3, 4], 2)', '7'],
      ['maxWindow([5, -1, -1, 4], 2)', '4'],
      ['maxWindow([4, 1, 1, 5], 3)', '7'],
      ['maxWindow([1, 2], 3)', '0'],
      ['maxWindow([3, 3], 0)', '0'],
      ['maxWindow([2, 9, 1], 1)', '9'],
    ],
  },
  {
    name: 'do-collatz',
    imports: ['collatzSteps'],
    source: `/** Steps of the Collatz walk from \`start\` down to 1 (at least one step is taken). */
export function collatzSteps(start: number): number {
  let value = start;
  let steps = 0;
  do {
    value = value % 2 === 0 ? value / 2 : 3 * value + 1;
    steps++;
  } while (value > 1);
  return steps;
}
`,
    cases: [
      ['collatzSteps(1)', '3'],
      ['collatzSteps(2)', '1'],
      ['collatzSteps(6)', '8'],
      ['collatzSteps(7)', '16'],
    ],
  },
  {
    name: 'recursion-tree',
    imports: ['depth', 'count'],
    source: `export interface Tree {
  readonly children: readonly Tree[];
}
/** The number of levels of a tree (a leaf is one). */
export function depth(tree: Tree): number {
  let deepest = 0;
  for (const child of tree.children) deepest = Math.max(deepest, depth(child));
  return deepest + 1;
}
/** The number of nodes of a tree. */
export function count(tree: Tree): number {
  return tree.children.reduce((total, child) => total + count(child), 1);
}
`,
    cases: [
      ['depth({ children: [] })', '1'],
      ['depth({ children: [{ children: [{ children: [] }] }, { children: [] }] })', '3'],
      ['count({ children: [] })', '1'],
      ['count({ children: [{ children: [{ children: [] }] }, { children: [] }] })', '4'],
    ],
  },
  {
    name: 'async-retry',
    imports: ['retry'],
    source: `/** Calls \`task\` until it resolves, at most \`attempts\` times; the last error otherwise. */
export async function retry<T>(task: (attempt: number) => Promise<T>, attempts: number): Promise<T> {
  let lastError: unknown = new Error('no attempt');
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      return await task(attempt);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
`,
    cases: [
      ['retry(async (n) => n * 10, 3)', '10'],
      ["retry(async (n) => { if (n < 3) throw new Error('no'); return n; }, 3)", '3'],
      [
        "retry(async () => { throw new Error('never'); }, 2).catch((error) => error.message)",
        "'never'",
      ],
      ['retry(async () => 1, 0).catch((error) => error.message)', "'no attempt'"],
    ],
  },
  {
    name: 'class-account',
    imports: ['Account'],
    source: `/** A balance that never goes below zero, and the history of what moved it. */
export class Account {
  private balance = 0;
  readonly history: string[] = [];
  deposit(amount: number): number {
    if (amount <= 0) throw new RangeError('a deposit is positive');
    this.balance += amount;
    this.history.push(\`+\${amount}\`);
    return this.balance;
  }
  withdraw(amount: number): boolean {
    if (amount > this.balance) return false;
    this.balance -= amount;
    this.history.push(\`-\${amount}\`);
    return true;
  }
  get total(): number {
    return this.balance;
  }
}
`,
    cases: [
      ['(() => { const a = new Account(); a.deposit(5); return a.deposit(3); })()', '8'],
      [
        '(() => { const a = new Account(); a.deposit(5); return [a.withdraw(7), a.total]; })()',
        '[false, 5]',
      ],
      [
        '(() => { const a = new Account(); a.deposit(5); return [a.withdraw(5), a.total]; })()',
        '[true, 0]',
      ],
      [
        "(() => { const a = new Account(); a.deposit(4); a.withdraw(1); return a.history.join(' '); })()",
        "'+4 -1'",
      ],
      [
        "(() => { try { new Account().deposit(0); return 'ok'; } catch (error) { return error instanceof RangeError; } })()",
        'true',
      ],
    ],
  },
  {
    name: 'string-build',
    imports: ['slug'],
    source: `/** A lower-case slug: letters and digits kept, every other run becomes one dash. */
export function slug(text: string): string {
  let out = '';
  let dash = false;
  for (const char of text.toLowerCase()) {
    if ((char >= 'a' && char <= 'z') || (char >= '0' && char <= '9')) {
      if (dash && out !== '') out += '-';
      out += char;
      dash = false;
    } else {
      dash = true;
    }
  }
  return out;
}
`,
    cases: [
      ["slug('Hello World')", "'hello-world'"],
      ["slug('  a--b  ')", "'a-b'"],
      ["slug('Zz 09')", "'zz-09'"],
      ["slug('!!!')", "''"],
    ],
  },
  {
    name: 'regex-version',
    imports: ['parseVersion'],
    source: `/** A semantic version's three numbers, or undefined when the text is not one. */
export function parseVersion(text: string): [number, number, number] | undefined {
  const match = /^v?(\\d+)\\.(\\d+)\\.(\\d+)$/.exec(text.trim());
  if (match === null) return undefined;
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}
`,
    cases: [
      ["parseVersion('1.2.3')", '[1, 2, 3]'],
      ["parseVersion(' v10.0.7 ')", '[10, 0, 7]'],
      ["parseVersion('1.2')", 'undefined'],
      ["parseVersion('1.2.3-beta')", 'undefined'],
      ["parseVersion('x1.2.3')", 'undefined'],
    ],
  },
  {
    name: 'early-returns',
    imports: ['grade'],
    source: `/** A letter for a score out of 100; 'invalid' outside [0, 100]. */
export function grade(score: number): string {
  if (!Number.isFinite(score) || score < 0 || score > 100) return 'invalid';
  if (score >= 90) return 'A';
  if (score >= 75) return 'B';
  if (score >= 50) return 'C';
  return 'F';
}
`,
    cases: [
      ['grade(95)', "'A'"],
      ['grade(90)', "'A'"],
      ['grade(75)', "'B'"],
      ['grade(60)', "'C'"],
      ['grade(50)', "'C'"],
      ['grade(49)', "'F'"],
      ['grade(-1)', "'invalid'"],
      ['grade(101)', "'invalid'"],
      ['grade(Number.NaN)', "'invalid'"],
    ],
  },
  {
    name: 'constants',
    imports: ['LIMITS', 'UNITS', 'GREETING'],
    source: `/** Pure constants, all evaluated while the module loads. */
export const LIMITS = { low: 1, high: 10 * 10, strict: true };
export const UNITS = ['s', 'm', 'h'];
export const GREETING = \`hello \${UNITS.length > 2 ? 'many' : 'few'}\`;
`,
    cases: [
      ['LIMITS', '{ low: 1, high: 100, strict: true }'],
      ['UNITS', "['s', 'm', 'h']"],
      ['GREETING', "'hello many'"],
    ],
  },
];

/** Which test: every case, one case, or none. */
export type TestKind = 'real' | 'thin' | 'vacuous';

function chosen(module: BenchModule, kind: TestKind) {
  return kind === 'real' ? module.cases : kind === 'thin' ? module.cases.slice(0, 1) : [];
}

/** The module's test for node:test (mecha's grader runs those). */
export function nodeTestFile(module: BenchModule, kind: TestKind): string {
  const cases = chosen(module, kind);
  return [
    "import assert from 'node:assert/strict';",
    "import { test } from 'node:test';",
    `import { ${module.imports.join(', ')} } from './${module.name}.js';`,
    kind === 'vacuous'
      ? `test('${module.name} exists', () => { assert.ok(${module.imports[0]} !== undefined); });`
      : cases
          .map(
            ([call, value], index) =>
              `test('${module.name} ${index}', async () => { assert.deepEqual(await ${call}, ${value}); });`,
          )
          .join('\n'),
    '',
  ].join('\n');
}

/** The same test for vitest (StrykerJS runs it). */
export function vitestFile(module: BenchModule, kind: TestKind): string {
  const cases = chosen(module, kind);
  return [
    "import { expect, test } from 'vitest';",
    `import { ${module.imports.join(', ')} } from './${module.name}.js';`,
    kind === 'vacuous'
      ? `test('${module.name} exists', () => { expect(${module.imports[0]}).toBeDefined(); });`
      : cases
          .map(
            ([call, value], index) =>
              `test('${module.name} ${index}', async () => { expect(await ${call}).toStrictEqual(${value}); });`,
          )
          .join('\n'),
    '',
  ].join('\n');
}
