import { leftOrThrow, rightOrThrow } from '@mecha/errors';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import type { Charter } from './charter.js';
import { CharterArgumentError } from './charter-argument-error.js';
import { charterTomlHeader, parseCharter, stringifyCharter, validateCharter } from './codec.js';
import type { CharterIssue } from './issues.js';
import { charterArb } from './test-arbitraries.js';

const hour = 3_600_000;

const example = `# charter.toml
[[line]]
id = "replies"
text = "Don't let a colleague down: answer what people send me."
sensor = "outbox_age"
setpoint = "48h"

[[line]]
id = "questions"
text = "Unblock the agent when it asks."
sensor = "question_latency"
setpoint = "4h"

[[line]]
id = "health"
text = "Sleep before midnight."
`;

function issuesOf(text: string): readonly CharterIssue[] {
  return leftOrThrow(parseCharter(text), 'parsing the charter');
}

function line(fields: string): string {
  return `[[line]]\n${fields}\n`;
}

describe('parseCharter', () => {
  it('reads a charter in rank order, setpoints in milliseconds, frozen', () => {
    const result = parseCharter(example);
    expect(result).toEqual(
      E.right([
        {
          id: 'replies',
          text: "Don't let a colleague down: answer what people send me.",
          sensor: 'outbox_age',
          setpoint: 48 * hour,
        },
        {
          id: 'questions',
          text: 'Unblock the agent when it asks.',
          sensor: 'question_latency',
          setpoint: 4 * hour,
        },
        { id: 'health', text: 'Sleep before midnight.' },
      ]),
    );
    if (E.isRight(result)) {
      expect(Object.isFrozen(result.right)).toBe(true);
      expect(result.right.every((entry) => Object.isFrozen(entry))).toBe(true);
      expect(Object.keys(result.right[2] ?? {})).toEqual(['id', 'text']);
    }
  });

  it('reads an empty file, or one of comments only, as an empty charter', () => {
    expect(parseCharter('')).toEqual(E.right([]));
    expect(parseCharter('# nothing yet\n')).toEqual(E.right([]));
    expect(parseCharter(charterTomlHeader)).toEqual(E.right([]));
  });

  it('skips a byte order mark', () => {
    expect(parseCharter(`\uFEFF${line('id = "a"\ntext = "x"')}`)).toEqual(
      E.right([{ id: 'a', text: 'x' }]),
    );
  });

  it('returns text that is not TOML as an issue with its position, never a throw', () => {
    expect(parseCharter('[[line]]\nid = "a\n')).toEqual(
      E.left([
        expect.objectContaining({
          code: 'invalid_toml',
          position: { line: 2, column: expect.any(Number) },
        }),
      ]),
    );
    expect(issuesOf('a = [')[0]?.message).toBe(
      'the charter file is not valid TOML (line 1, column 5): unfinished array',
    );
    expect(parseCharter(42 as unknown as string)).toEqual(
      E.left([{ code: 'invalid_toml', message: 'the charter file is not text' }]),
    );
  });

  it('never throws, on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        parseCharter(text);
      }),
    );
    const fragments = fc.constantFrom(
      '[[line]]\n',
      'id = "a"\n',
      'id = "b"\n',
      'text = "x"\n',
      'sensor = "outbox_age"\n',
      'setpoint = "48h"\n',
      'setpoint = 48\n',
      'line = 1\n',
      '[line]\n',
      'x = 1\n',
      '"\n',
    );
    fc.assert(
      fc.property(fc.array(fragments, { maxLength: 12 }), (pieces) => {
        const result = parseCharter(pieces.join(''));
        if (E.isLeft(result)) expect(result.left.length).toBeGreaterThan(0);
      }),
    );
  });

  describe('names the line and the field of every issue', () => {
    it('a missing id or text', () => {
      expect(issuesOf(line('text = "x"'))).toEqual([
        {
          code: 'invalid_field',
          rank: 1,
          field: 'id',
          message: 'charter line 1, id: is missing',
        },
      ]);
      expect(issuesOf(line('id = "a"'))).toEqual([
        {
          code: 'invalid_field',
          rank: 1,
          id: 'a',
          field: 'text',
          message: 'charter line 1 "a", text: is missing',
        },
      ]);
    });

    it('an id outside the format', () => {
      const cases: [string, string][] = [
        [
          '"Replies"',
          'may hold only lowercase letters, digits, "_", "-" and ".", and must start with a letter or digit',
        ],
        [
          '"my line"',
          'may hold only lowercase letters, digits, "_", "-" and ".", and must start with a letter or digit',
        ],
        [
          '"-x"',
          'may hold only lowercase letters, digits, "_", "-" and ".", and must start with a letter or digit',
        ],
        ['""', 'is empty'],
        [`"${'a'.repeat(65)}"`, 'is longer than 64 characters'],
        ['"e\\u0301"', 'must be in Unicode normal form C (NFC)'],
        ['7', 'must be a string, not a number'],
      ];
      for (const [id, reason] of cases) {
        expect(issuesOf(line(`id = ${id}\ntext = "x"`))).toEqual([
          { code: 'invalid_field', rank: 1, field: 'id', message: `charter line 1, id: ${reason}` },
        ]);
      }
    });

    it('empty text', () => {
      const cases: [string, string][] = [
        ['""', 'is empty'],
        ['"  \\n\\t "', 'holds only whitespace or invisible characters'],
        ['"\\u3000\\u200B"', 'holds only whitespace or invisible characters'],
        ['"\\u0000"', 'holds only whitespace or invisible characters'],
      ];
      for (const [text, reason] of cases) {
        expect(issuesOf(line(`id = "a"\ntext = ${text}`))).toEqual([
          {
            code: 'invalid_field',
            rank: 1,
            id: 'a',
            field: 'text',
            message: `charter line 1 "a", text: ${reason}`,
          },
        ]);
      }
    });

    it('an unknown sensor', () => {
      expect(issuesOf(line('id = "a"\ntext = "x"\nsensor = "inbox_age"'))).toEqual([
        {
          code: 'invalid_field',
          rank: 1,
          id: 'a',
          field: 'sensor',
          message:
            'charter line 1 "a", sensor: "inbox_age" is not a sensor: use one of outbox_age, question_latency, request_closure',
        },
      ]);
    });

    it('a setpoint that is not a positive duration string', () => {
      const setpointIssue = (value: string) =>
        issuesOf(line(`id = "a"\ntext = "x"\nsensor = "outbox_age"\nsetpoint = ${value}`));
      expect(setpointIssue('"48x"')[0]?.message).toBe(
        'charter line 1 "a", setpoint: "48x" is not a duration: write whole numbers with units w, d, h, m, s or ms, largest first, such as "48h", "90m", "2d" or "1d12h"',
      );
      expect(setpointIssue('"0h"')[0]?.message).toBe(
        'charter line 1 "a", setpoint: "0h" is not a positive duration',
      );
      expect(setpointIssue('48')[0]).toEqual({
        code: 'invalid_field',
        rank: 1,
        id: 'a',
        field: 'setpoint',
        message:
          'charter line 1 "a", setpoint: must be a duration string such as "48h", not a number',
      });
    });

    it('an unknown field, such as a typo', () => {
      expect(issuesOf(line('id = "a"\ntext = "x"\nsetpiont = "48h"'))).toEqual([
        {
          code: 'unknown_field',
          rank: 1,
          id: 'a',
          field: 'setpiont',
          message:
            'charter line 1 "a", "setpiont": unknown field; a charter line has id, text, sensor and setpoint',
        },
      ]);
    });

    it('a weight, which a charter does not have', () => {
      expect(issuesOf(line('id = "a"\ntext = "x"\nweight = 0.9'))[0]).toMatchObject({
        code: 'unknown_field',
        field: 'weight',
      });
    });

    it('a repeated id, naming both lines', () => {
      expect(issuesOf(line('id = "a"\ntext = "x"') + line('id = "a"\ntext = "y"'))).toEqual([
        {
          code: 'duplicate_id',
          rank: 2,
          id: 'a',
          field: 'id',
          firstRank: 1,
          message: 'charter line 2 "a", id: repeats the id of charter line 1; ids must be unique',
        },
      ]);
    });

    it('a sensor carried twice, naming both lines', () => {
      const text =
        line('id = "a"\ntext = "x"\nsensor = "outbox_age"') +
        line('id = "b"\ntext = "y"') +
        line('id = "c"\ntext = "z"\nsensor = "outbox_age"');
      expect(issuesOf(text)).toEqual([
        {
          code: 'duplicate_sensor',
          rank: 3,
          id: 'c',
          field: 'sensor',
          sensor: 'outbox_age',
          firstRank: 1,
          message:
            'charter line 3 "c", sensor: "outbox_age" is already watched by charter line 1 "a"; at most one line carries each sensor',
        },
      ]);
    });

    it('a line that is not a table, and lines that are not a list', () => {
      expect(issuesOf('line = [1]')).toEqual([
        {
          code: 'invalid_line',
          rank: 1,
          message: 'charter line 1: must be a table with id and text, not a number',
        },
      ]);
      expect(issuesOf('[line]\nid = "a"\ntext = "x"')).toEqual([
        {
          code: 'invalid_document',
          key: 'line',
          message:
            'the charter file\'s "line" must be a list of [[line]] tables, not a single table',
        },
      ]);
    });

    it('an unknown top-level key', () => {
      expect(issuesOf(`weights = [1, 0.5]\n${line('id = "a"\ntext = "x"')}`)).toEqual([
        {
          code: 'invalid_document',
          key: 'weights',
          message:
            'the charter file has an unknown key "weights"; charter lines are written as [[line]] tables',
        },
      ]);
    });

    it('every issue at once, in rank and field order', () => {
      const text =
        line('id = "a"\ntext = ""\nsensor = "outbox_age"\nsetpoint = "soon"') +
        line('id = "a"\ntext = "y"\nsensor = "outbox_age"');
      expect(issuesOf(text).map((issue) => [issue.code, 'rank' in issue ? issue.rank : 0])).toEqual(
        [
          ['invalid_field', 1],
          ['invalid_field', 1],
          ['duplicate_id', 2],
          ['duplicate_sensor', 2],
        ],
      );
    });
  });
});

describe('stringifyCharter', () => {
  it('writes the header and one [[line]] table per line, in rank order', () => {
    const charter: Charter = [
      { id: 'replies', text: 'Answer people.', sensor: 'outbox_age', setpoint: 48 * hour },
      { id: 'health', text: 'Sleep.' },
    ];
    expect(stringifyCharter(charter)).toBe(
      `${charterTomlHeader}
[[line]]
id = "replies"
text = "Answer people."
sensor = "outbox_age"
setpoint = "2d"

[[line]]
id = "health"
text = "Sleep."
`,
    );
    expect(stringifyCharter([])).toBe(charterTomlHeader);
  });

  it('refuses to write an invalid charter', () => {
    const twice = [
      { id: 'a', text: 'x' },
      { id: 'a', text: 'y' },
    ];
    expect(() => stringifyCharter(twice)).toThrow(CharterArgumentError);
    expect(() => stringifyCharter(twice)).toThrow(
      'charter line 2 "a", id: repeats the id of charter line 1',
    );
  });

  it('round-trips every valid charter: parseCharter(stringifyCharter(c)) equals c', () => {
    fc.assert(
      fc.property(charterArb, (charter) => {
        expect(parseCharter(stringifyCharter(charter))).toStrictEqual(E.right(charter));
      }),
    );
  });

  it('round-trips the example file', () => {
    const parsed = parseCharter(example);
    const charter = rightOrThrow(parsed, 'the example');
    expect(parseCharter(stringifyCharter(charter))).toEqual(parsed);
  });
});

describe('validateCharter', () => {
  it('returns a frozen copy of a valid charter, not the value handed in', () => {
    const charter = [{ id: 'a', text: 'x', sensor: 'outbox_age', setpoint: 1 }];
    const result = validateCharter(charter);
    expect(result).toEqual(E.right(charter));
    if (E.isRight(result)) {
      expect(result.right).not.toBe(charter);
      expect(Object.isFrozen(result.right)).toBe(true);
      expect(Object.isFrozen(charter)).toBe(false);
    }
  });

  it('names the line and field of a setpoint that is not positive whole milliseconds', () => {
    for (const [setpoint, reason] of [
      [0, 'must be a positive duration'],
      [-5, 'must be a positive duration'],
      [1.5, 'must be a whole number of milliseconds'],
      ['48h', 'must be a whole number of milliseconds, not a string'],
    ] as const) {
      expect(validateCharter([{ id: 'a', text: 'x', setpoint }])).toEqual(
        E.left([
          {
            code: 'invalid_field',
            rank: 1,
            id: 'a',
            field: 'setpoint',
            message: `charter line 1 "a", setpoint: ${reason}`,
          },
        ]),
      );
    }
  });

  it('refuses what is not a list', () => {
    expect(validateCharter({ line: [] })).toEqual(
      E.left([
        {
          code: 'invalid_document',
          message: 'the charter must be a list of charter lines, not a table',
        },
      ]),
    );
  });
});

describe('what the file says about itself', () => {
  it('starts every written charter with the same header comment', () => {
    // The header is what an owner reads on opening the file: pinned word for word.
    expect(charterTomlHeader).toBe(
      `# mecha charter: your standing priorities, highest first. Rank is position; there are no weights.
# Each [[line]] has an id and text, and may carry a sensor (outbox_age, question_latency or
# request_closure) and a setpoint, a duration such as "48h", "90m" or "2d".
# Only a person edits this charter; nothing proposes a line.
`,
    );
    expect(
      stringifyCharter([{ id: 'a', text: 'x' }]).startsWith(`${charterTomlHeader}\n[[line]]`),
    ).toBe(true);
  });

  it('a byte-order mark is skipped only at the start; one inside a closing comment is text', () => {
    const expected = parseCharter(example);
    expect(E.isRight(expected)).toBe(true);
    expect(parseCharter(`\uFEFF${example}`)).toEqual(expected);
    expect(parseCharter(`${example}# the end\uFEFF`)).toEqual(expected);
  });

  it('a "line" that is a number is named as a number, not as a table', () => {
    expect(parseCharter('line = 5')).toEqual(
      E.left([
        {
          code: 'invalid_document',
          key: 'line',
          message: 'the charter file\'s "line" must be a list of [[line]] tables, not a number',
        },
      ]),
    );
  });

  it('stringifyCharter names its argument and every issue, joined with "; "', () => {
    const bad = [
      { id: 'a', text: '' },
      { id: 'a', text: 'y' },
    ] as unknown as Charter;
    let thrown: unknown;
    try {
      stringifyCharter(bad);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CharterArgumentError);
    expect((thrown as CharterArgumentError).argument).toBe('charter');
    expect((thrown as CharterArgumentError).message).toBe(
      'stringifyCharter takes a valid charter: charter line 1 "a", text: is empty; charter line 2 "a", id: repeats the id of charter line 1; ids must be unique',
    );
  });
});
