import type { SeededRandom } from '@mecha/stores';

export const day = 86_400_000;
export const hour = 3_600_000;
export const minute = 60_000;

/** A time as the stores write it. */
export const iso = (at: number): string => new Date(at).toISOString();

/**
 * The prose of a generated home reads like an owner's requests: word `i` of a text is drawn from
 * slot `i % 5` of this small grammar (an ask, whose thing, the thing, a link, a when), so the
 * text is one plain sentence after another, and each word still costs one draw of the seed.
 */
const proseSlots: readonly (readonly string[])[] = [
  [
    'Please send',
    'Could you check',
    'Draft a reply about',
    'Review',
    'Update',
    'Confirm',
    'Follow up on',
    'Summarise',
  ],
  ['the Lakeside', 'the Northwind', 'our', "the team's", "the client's", 'the quarterly'],
  [
    'invoice',
    'budget figures',
    'shipment schedule',
    'meeting agenda',
    'account notes',
    'totals report',
    'open items',
  ],
  ['before', 'by', 'for', 'after', 'ahead of'],
  [
    'Thursday.',
    'tomorrow.',
    'the review meeting.',
    'the end of the quarter.',
    'the client call.',
    'Friday morning.',
  ],
];

/**
 * Everything a generated home draws from its seed: the random stream, prose and ids. Every
 * module draws through one `Draw`, in the order the generator calls them, which is what keeps a
 * seed's home byte-identical.
 */
export interface Draw {
  readonly random: SeededRandom;
  /** A sentence or a few, of `low` to `high` words (fewer when it ends early). */
  text(low: number, high: number): string;
  /** `prefix-` and ten hex digits. */
  id(prefix: string): string;
}

export function drawFrom(random: SeededRandom): Draw {
  return {
    random,
    text(low, high) {
      const n = random.int(low, high);
      const out: string[] = [];
      for (let index = 0; index < n; index += 1) {
        out.push(random.pick(proseSlots[index % proseSlots.length] as readonly string[]));
      }
      // End on a thing or a when, never on a dangling ask, owner or link.
      while (
        out.length > 3 &&
        (out.length - 1) % proseSlots.length !== 2 &&
        out.length % proseSlots.length !== 0
      ) {
        out.pop();
      }
      const prose = out.join(' ');
      return prose.endsWith('.') ? prose : `${prose}.`;
    },
    id: (prefix) => `${prefix}-${random.hex(10)}`,
  };
}
