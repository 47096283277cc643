import { leftOrThrow } from '@mecha/errors';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { charterCommand } from './charter-command.js';

describe('charterCommand', () => {
  it('reads an add with its sensor, setpoint and rank', () => {
    expect(
      charterCommand({
        op: 'add',
        positionals: ['replies', 'Answer', 'people'],
        options: { sensor: 'outbox_age', setpoint: '2d', rank: '1' },
      }),
    ).toEqual(
      E.right({
        state: 'parsed',
        changes: [
          {
            op: 'add',
            line: {
              id: 'replies',
              text: 'Answer people',
              sensor: 'outbox_age',
              setpoint: 172_800_000,
            },
            rank: 1,
          },
        ],
        done: 'Added line replies.',
      }),
    );
  });

  it('refuses malformed words with the message every surface shows', () => {
    const cases: [Parameters<typeof charterCommand>[0], string][] = [
      [{ op: 'add', positionals: ['replies'], options: {} }, 'give the line an id and its text'],
      [
        { op: 'add', positionals: ['a', 'b'], options: { sensor: 'inbox' } },
        '--sensor takes outbox_age, question_latency or request_closure, not "inbox"',
      ],
      [
        { op: 'move', positionals: ['a', '0'], options: {} },
        'RANK takes a whole number from 1 to 999,999,999, not "0"',
      ],
      [{ op: 'rm', positionals: [], options: {} }, 'give the id of the line to remove'],
      [
        { op: 'set', positionals: ['a'], options: {} },
        'say what to change: --text, --sensor or --setpoint',
      ],
      [
        { op: 'unset', positionals: ['a'], options: {} },
        'say what to take off: --sensor or --setpoint',
      ],
    ];
    for (const [request, message] of cases) {
      expect(charterCommand(request)).toEqual(E.left({ kind: 'bad_request', message }));
    }
    expect(
      leftOrThrow(charterCommand({ op: 'set', positionals: ['a'], options: { setpoint: 'soon' } })),
    ).toMatchObject({ kind: 'bad_request', message: expect.stringMatching(/^--setpoint: /) });
  });
});
