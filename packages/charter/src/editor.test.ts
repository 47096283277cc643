import { leftOrThrow, rightOrThrow } from '@mecha/errors';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import type { Charter, CharterLine } from './charter.js';
import { type CharterSensor, charterSensors } from './charter-sensor.js';
import { validateCharter } from './codec.js';
import {
  addLine,
  type CharterEdit,
  clearLineSensor,
  clearLineSetpoint,
  moveLine,
  removeLine,
  setLineSensor,
  setLineSetpoint,
  setLineText,
} from './editor.js';
import { mintOwnerEdit } from './owner.js';
import type { OwnerEdit } from './owner-edit.js';
import { charterArb, deepFreeze, lineIdArb, lineTextArb, setpointArb } from './test-arbitraries.js';

const hour = 3_600_000;
const owner = mintOwnerEdit('cli', 'sam');

const charter: Charter = deepFreeze([
  { id: 'replies', text: 'Answer people.', sensor: 'outbox_age', setpoint: 48 * hour },
  { id: 'questions', text: 'Unblock the agent.', sensor: 'question_latency' },
  { id: 'health', text: 'Sleep.' },
]);

const ok = (result: CharterEdit): Charter => rightOrThrow(result, 'the edit');
const refused = (result: CharterEdit) => leftOrThrow(result, 'the edit');

const ids = (edited: Charter) => edited.map((line) => line.id);

describe('addLine', () => {
  it('adds at the bottom by default, or at a rank, moving the rest down', () => {
    const line = { id: 'family', text: 'Call home.' };
    expect(ids(ok(addLine(owner, charter, line)))).toEqual([
      'replies',
      'questions',
      'health',
      'family',
    ]);
    expect(ids(ok(addLine(owner, charter, line, 1)))).toEqual([
      'family',
      'replies',
      'questions',
      'health',
    ]);
    expect(ids(ok(addLine(owner, charter, line, 3)))).toEqual([
      'replies',
      'questions',
      'family',
      'health',
    ]);
    expect(ids(ok(addLine(owner, [], line)))).toEqual(['family']);
  });

  it('returns a frozen charter and leaves the one handed in alone', () => {
    const input = [{ id: 'a', text: 'x' }];
    const edited = ok(addLine(owner, input, { id: 'b', text: 'y', setpoint: 1 }));
    expect(edited).toEqual([
      { id: 'a', text: 'x' },
      { id: 'b', text: 'y', setpoint: 1 },
    ]);
    expect(Object.isFrozen(edited)).toBe(true);
    expect(input).toEqual([{ id: 'a', text: 'x' }]);
  });

  it('refuses a repeated id, naming the line and field', () => {
    expect(refused(addLine(owner, charter, { id: 'health', text: 'Walk.' }))).toEqual({
      code: 'invalid_edit',
      issues: [
        {
          code: 'duplicate_id',
          rank: 4,
          id: 'health',
          field: 'id',
          firstRank: 3,
          message:
            'charter line 4 "health", id: repeats the id of charter line 3; ids must be unique',
        },
      ],
      message:
        'refused: charter line 4 "health", id: repeats the id of charter line 3; ids must be unique',
    });
  });

  it('refuses a second line on a sensor', () => {
    const error = refused(
      addLine(owner, charter, { id: 'drafts', text: 'x', sensor: 'outbox_age' }, 1),
    );
    expect(error.message).toBe(
      'refused: charter line 2 "replies", sensor: "outbox_age" is already watched by charter line 1 "drafts"; at most one line carries each sensor',
    );
  });

  it('refuses a bad id, empty text, an unknown sensor, a bad setpoint and an unknown field', () => {
    const messages = (line: unknown) =>
      refused(addLine(owner, charter, line as CharterLine)).message;
    expect(messages({ id: 'Family', text: 'x' })).toBe(
      'refused: charter line 4, id: may hold only lowercase letters, digits, "_", "-" and ".", and must start with a letter or digit',
    );
    expect(messages({ id: 'family', text: ' ' })).toBe(
      'refused: charter line 4 "family", text: holds only whitespace or invisible characters',
    );
    expect(messages({ id: 'family', text: 'x', sensor: 'inbox' })).toBe(
      'refused: charter line 4 "family", sensor: "inbox" is not a sensor: use one of outbox_age, question_latency, request_closure',
    );
    expect(messages({ id: 'family', text: 'x', setpoint: 0 })).toBe(
      'refused: charter line 4 "family", setpoint: must be a positive duration',
    );
    expect(messages({ id: 'family', text: 'x', weight: 2 })).toBe(
      'refused: charter line 4 "family", "weight": unknown field; a charter line has id, text, sensor and setpoint',
    );
  });

  it('refuses a rank outside the charter', () => {
    for (const rank of [0, 5, -1, 1.5, Number.NaN]) {
      expect(refused(addLine(owner, charter, { id: 'family', text: 'x' }, rank))).toEqual({
        code: 'rank_out_of_range',
        rank,
        highest: 4,
        message: `rank ${rank} is not a position in this charter: use a whole number from 1 (the top) to 4`,
      });
    }
  });
});

describe('moveLine', () => {
  it('moves a line to a rank; the lines between shift by one', () => {
    expect(ids(ok(moveLine(owner, charter, 'health', 1)))).toEqual([
      'health',
      'replies',
      'questions',
    ]);
    expect(ids(ok(moveLine(owner, charter, 'replies', 3)))).toEqual([
      'questions',
      'health',
      'replies',
    ]);
    expect(ids(ok(moveLine(owner, charter, 'questions', 2)))).toEqual([
      'replies',
      'questions',
      'health',
    ]);
  });

  it('refuses an unknown id and a rank past the last line', () => {
    expect(refused(moveLine(owner, charter, 'family', 1))).toEqual({
      code: 'unknown_line',
      id: 'family',
      message: 'no charter line has the id "family"',
    });
    expect(refused(moveLine(owner, charter, 'health', 4))).toMatchObject({
      code: 'rank_out_of_range',
      rank: 4,
      highest: 3,
    });
  });
});

describe('removeLine', () => {
  it('removes a line; those below move up', () => {
    expect(ids(ok(removeLine(owner, charter, 'replies')))).toEqual(['questions', 'health']);
    expect(ok(removeLine(owner, [{ id: 'a', text: 'x' }], 'a'))).toEqual([]);
  });

  it('refuses an unknown id', () => {
    expect(refused(removeLine(owner, charter, 'nope')).code).toBe('unknown_line');
  });
});

describe('setLineText', () => {
  it('replaces the text, newlines and quotes included', () => {
    const edited = ok(
      setLineText(owner, charter, 'health', 'Sleep "before" midnight.\nEvery day.'),
    );
    expect(edited[2]).toEqual({ id: 'health', text: 'Sleep "before" midnight.\nEvery day.' });
  });

  it('refuses empty text, naming the line and field', () => {
    expect(refused(setLineText(owner, charter, 'health', '')).message).toBe(
      'refused: charter line 3 "health", text: is empty',
    );
  });
});

describe('setLineSensor and clearLineSensor', () => {
  it('sets and clears a sensor', () => {
    expect(ok(setLineSensor(owner, charter, 'health', 'request_closure'))[2]).toEqual({
      id: 'health',
      text: 'Sleep.',
      sensor: 'request_closure',
    });
    const cleared = ok(clearLineSensor(owner, charter, 'replies'))[0];
    expect(cleared).toEqual({ id: 'replies', text: 'Answer people.', setpoint: 48 * hour });
    expect(Object.keys(cleared ?? {})).not.toContain('sensor');
  });

  it('refuses a sensor another line already carries', () => {
    expect(refused(setLineSensor(owner, charter, 'health', 'outbox_age')).message).toBe(
      'refused: charter line 3 "health", sensor: "outbox_age" is already watched by charter line 1 "replies"; at most one line carries each sensor',
    );
  });

  it('names the edited line when the sensor it takes is carried by a line below it', () => {
    // replies (rank 1) takes question_latency, which questions (rank 2) carries: replies is the
    // line the owner just edited, so it is the one the refusal names.
    expect(refused(setLineSensor(owner, charter, 'replies', 'question_latency')).message).toBe(
      'refused: charter line 1 "replies", sensor: "question_latency" is already watched by charter line 2 "questions"; at most one line carries each sensor',
    );
  });

  it('allows moving a sensor by clearing it first', () => {
    const cleared = ok(clearLineSensor(owner, charter, 'replies'));
    expect(ok(setLineSensor(owner, cleared, 'health', 'outbox_age'))[2]?.sensor).toBe('outbox_age');
  });

  it('refuses a sensor that is not one', () => {
    expect(refused(setLineSensor(owner, charter, 'health', 'mood' as CharterSensor)).message).toBe(
      'refused: charter line 3 "health", sensor: "mood" is not a sensor: use one of outbox_age, question_latency, request_closure',
    );
  });
});

describe('setLineSetpoint and clearLineSetpoint', () => {
  it('sets and clears a setpoint', () => {
    expect(ok(setLineSetpoint(owner, charter, 'questions', 4 * hour))[1]).toEqual({
      id: 'questions',
      text: 'Unblock the agent.',
      sensor: 'question_latency',
      setpoint: 4 * hour,
    });
    expect(ok(clearLineSetpoint(owner, charter, 'replies'))[0]).toEqual({
      id: 'replies',
      text: 'Answer people.',
      sensor: 'outbox_age',
    });
  });

  it('refuses a setpoint that is not a positive whole number of milliseconds', () => {
    for (const [setpoint, reason] of [
      [0, 'must be a positive duration'],
      [-hour, 'must be a positive duration'],
      [0.5, 'must be a whole number of milliseconds'],
      [Number.NaN, 'must be a whole number of milliseconds, not NaN'],
      [Number.POSITIVE_INFINITY, 'must be a whole number of milliseconds, not an infinite number'],
    ] as const) {
      const error = refused(setLineSetpoint(owner, charter, 'replies', setpoint));
      expect(error.code).toBe('invalid_edit');
      expect(error.message, String(setpoint)).toBe(
        `refused: charter line 1 "replies", setpoint: ${reason}`,
      );
    }
  });
});

describe('every operation', () => {
  it('refuses a charter that is already invalid', () => {
    const broken = [
      { id: 'a', text: 'x' },
      { id: 'a', text: 'y' },
    ];
    expect(refused(setLineText(owner, broken, 'a', 'z'))).toMatchObject({
      code: 'invalid_charter',
      message:
        'the charter being edited is not valid: charter line 2 "a", id: repeats the id of charter line 1; ids must be unique',
    });
  });
});

// ---- properties ----

const idOrStrangerArb = (edited: Charter): fc.Arbitrary<string> =>
  edited.length === 0
    ? fc.oneof(lineIdArb, fc.string())
    : fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...edited.map((line) => line.id)) },
        { weight: 1, arbitrary: lineIdArb },
        { weight: 1, arbitrary: fc.string() },
      );

const rankArb = (highest: number): fc.Arbitrary<number> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 1, max: Math.max(1, highest) }) },
    { weight: 1, arbitrary: fc.integer({ min: -2, max: highest + 3 }) },
    { weight: 1, arbitrary: fc.constantFrom(1.5, Number.NaN) },
  );
const anySetpointArb = fc.oneof(
  { weight: 4, arbitrary: setpointArb },
  {
    weight: 1,
    arbitrary: fc.constantFrom(0, -1, 0.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53),
  },
);
const anyTextArb = fc.oneof(
  { weight: 4, arbitrary: lineTextArb },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\n\t') },
);
const anySensorArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...charterSensors) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'outbox',
      'tool',
    ) as fc.Arbitrary<string> as fc.Arbitrary<CharterSensor>,
  },
);

type Operation = { name: string; run: (edit: OwnerEdit, input: Charter) => CharterEdit };

const operationArb = (input: Charter): fc.Arbitrary<Operation> =>
  fc.oneof(
    fc
      .tuple(
        fc.record(
          {
            id: fc.oneof(
              { weight: 6, arbitrary: lineIdArb },
              { weight: 1, arbitrary: idOrStrangerArb(input) },
              { weight: 1, arbitrary: fc.constant('Bad Id') },
            ),
            text: anyTextArb,
            sensor: anySensorArb,
            setpoint: anySetpointArb,
          },
          { requiredKeys: ['id', 'text'], noNullPrototype: true },
        ),
        fc.option(rankArb(input.length + 1), { nil: undefined }),
      )
      .map(
        ([line, rank]): Operation => ({
          name: 'addLine',
          run: (edit, c) => addLine(edit, c, line as CharterLine, rank),
        }),
      ),
    fc.tuple(idOrStrangerArb(input), rankArb(input.length)).map(
      ([id, rank]): Operation => ({
        name: 'moveLine',
        run: (edit, c) => moveLine(edit, c, id, rank),
      }),
    ),
    idOrStrangerArb(input).map(
      (id): Operation => ({
        name: 'removeLine',
        run: (edit, c) => removeLine(edit, c, id),
      }),
    ),
    fc.tuple(idOrStrangerArb(input), anyTextArb).map(
      ([id, text]): Operation => ({
        name: 'setLineText',
        run: (edit, c) => setLineText(edit, c, id, text),
      }),
    ),
    fc.tuple(idOrStrangerArb(input), anySensorArb).map(
      ([id, sensor]): Operation => ({
        name: 'setLineSensor',
        run: (edit, c) => setLineSensor(edit, c, id, sensor),
      }),
    ),
    idOrStrangerArb(input).map(
      (id): Operation => ({
        name: 'clearLineSensor',
        run: (edit, c) => clearLineSensor(edit, c, id),
      }),
    ),
    fc.tuple(idOrStrangerArb(input), anySetpointArb).map(
      ([id, setpoint]): Operation => ({
        name: 'setLineSetpoint',
        run: (edit, c) => setLineSetpoint(edit, c, id, setpoint),
      }),
    ),
    idOrStrangerArb(input).map(
      (id): Operation => ({
        name: 'clearLineSetpoint',
        run: (edit, c) => clearLineSetpoint(edit, c, id),
      }),
    ),
  );

const charterAndOperationArb = charterArb.chain((input) =>
  fc.tuple(fc.constant(input), operationArb(input)),
);

/** The invariants, checked directly rather than through the schema under test. */
function expectInvariants(edited: Charter) {
  const ids = edited.map((line) => line.id);
  expect(new Set(ids).size).toBe(ids.length);
  const sensors = edited.flatMap((line) => (line.sensor === undefined ? [] : [line.sensor]));
  expect(new Set(sensors).size).toBe(sensors.length);
  for (const line of edited) {
    if (line.setpoint !== undefined) {
      expect(Number.isSafeInteger(line.setpoint) && line.setpoint > 0).toBe(true);
    }
    expect(line.text.trim()).not.toBe('');
  }
  expect(E.isRight(validateCharter(edited))).toBe(true);
  expect(Object.isFrozen(edited)).toBe(true);
}

describe('editor properties', () => {
  it('every operation keeps the invariants or returns a typed error, and never mutates its input', () => {
    fc.assert(
      fc.property(charterAndOperationArb, ([input, operation]) => {
        const before = structuredClone(input);
        const result = operation.run(owner, input);
        expect(input).toStrictEqual(before);
        if (E.isRight(result)) {
          expectInvariants(result.right);
          expect(result.right).not.toBe(input);
        } else {
          expect(['unknown_line', 'rank_out_of_range', 'invalid_edit']).toContain(result.left.code);
          expect(result.left.message).not.toBe('');
        }
      }),
    );
  });

  it('never mutates a frozen input either (a mutation would throw)', () => {
    fc.assert(
      fc.property(charterAndOperationArb, ([input, operation]) => {
        const frozen = deepFreeze(structuredClone(input));
        expect(() => operation.run(owner, frozen)).not.toThrow();
      }),
    );
  });

  it('addLine then removeLine gives the charter back', () => {
    fc.assert(
      fc.property(charterArb, lineIdArb, lineTextArb, fc.nat(), (input, id, text, at) => {
        fc.pre(!input.some((line) => line.id === id));
        const rank = (at % (input.length + 1)) + 1;
        const added = ok(addLine(owner, input, { id, text }, rank));
        expect(added[rank - 1]).toEqual({ id, text });
        expect(ok(removeLine(owner, added, id))).toStrictEqual(input);
      }),
    );
  });

  it('moveLine puts the line at the rank and keeps every line', () => {
    fc.assert(
      fc.property(
        charterArb.filter((c) => c.length > 0),
        fc.nat(),
        fc.nat(),
        (input, from, to) => {
          const line = input[from % input.length] as CharterLine;
          const rank = (to % input.length) + 1;
          const moved = ok(moveLine(owner, input, line.id, rank));
          expect(moved[rank - 1]).toStrictEqual(line);
          expect([...moved].sort((a, b) => a.id.localeCompare(b.id))).toStrictEqual(
            [...input].sort((a, b) => a.id.localeCompare(b.id)),
          );
        },
      ),
    );
  });

  it('refuses a forged capability, whatever it looks like, before anything else', () => {
    const real = mintOwnerEdit('web', 'sam');
    const forgedArb = fc.oneof(
      fc.anything(),
      fc.record({
        surface: fc.constantFrom('cli', 'web', 'slack', 'tui', 'tool'),
        by: fc.string(),
      }),
      fc.constantFrom<unknown>(
        { ...real },
        Object.create(real),
        new Proxy(real, {}),
        structuredClone(real),
      ),
    );
    fc.assert(
      fc.property(charterAndOperationArb, forgedArb, ([input, operation], forged) => {
        const before = structuredClone(input);
        const result = operation.run(forged as OwnerEdit, input);
        expect(result).toEqual(
          E.left({
            code: 'forged_capability',
            message:
              'refused: only a person can edit the charter, with a capability minted by @mecha/charter/owner on the CLI, web, Slack or TUI',
          }),
        );
        expect(input).toStrictEqual(before);
      }),
    );
  });
});

describe('refusals that name more than one issue, or a line that is not a table', () => {
  it('joins every issue of a refused edit with "; "', () => {
    expect(refused(addLine(owner, charter, { id: 'Bad', text: '' })).message).toBe(
      'refused: charter line 4, id: may hold only lowercase letters, digits, "_", "-" and ".", and must start with a letter or digit; charter line 4, text: is empty',
    );
  });

  it('refuses a line that is null or a number as not a table, not as a table missing its fields', () => {
    for (const [line, kind] of [
      [null, 'null'],
      [7, 'a number'],
    ] as const) {
      const error = refused(addLine(owner, charter, line as unknown as CharterLine));
      expect(error.message).toBe(
        `refused: charter line 4: must be a table with id and text, not ${kind}`,
      );
    }
  });

  it('names the edited line at any rank when the sensor it takes is carried below it', () => {
    const three = deepFreeze([
      { id: 'replies', text: 'Answer people.' },
      { id: 'questions', text: 'Unblock the agent.' },
      { id: 'health', text: 'Sleep.', sensor: 'request_closure' },
    ]) as Charter;
    expect(refused(setLineSensor(owner, three, 'questions', 'request_closure')).message).toBe(
      'refused: charter line 2 "questions", sensor: "request_closure" is already watched by charter line 3 "health"; at most one line carries each sensor',
    );
  });
});
