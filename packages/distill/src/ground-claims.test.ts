import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { conversation } from './__fixtures__/events.js';
import { claimReferents, groundClaims, type ProposedClaim } from './ground-claims.js';

const referents = claimReferents(conversation());
const claim = (kind: ProposedClaim['cite']['kind'], id: string, quote: string): ProposedClaim => ({
  text: 'a claim',
  cite: { kind, id },
  quote,
});

describe('groundClaims', () => {
  it('keeps a claim whose quote is in the owner message it cites', () => {
    const result = groundClaims([claim('owner_message', 'msg-1', 'she moved to Yale')], referents);
    expect(result.kept).toHaveLength(1);
    expect(result.dropped).toEqual({});
  });

  it('keeps a claim quoting a tool result across a line break laid out differently', () => {
    const result = groundClaims(
      [claim('tool_result', 'call-1', 'priya@yale.edu> Subject: grant')],
      referents,
    );
    expect(result.kept).toHaveLength(1);
  });

  it('drops a quote that is not in what it cites', () => {
    const result = groundClaims([claim('owner_message', 'msg-1', 'she moved to Brown')], referents);
    expect(result).toEqual({ kept: [], dropped: { quote_not_in_referent: 1 } });
  });

  it('drops a claim that cites the agent’s own words', () => {
    const result = groundClaims(
      [claim('owner_message', 'msg-2', 'I drafted the reply')],
      referents,
    );
    expect(result.dropped).toEqual({ not_evidence: 1 });
  });

  it('drops a claim citing an id that names nothing of that kind', () => {
    const result = groundClaims(
      [claim('tool_result', 'msg-1', 'Please'), claim('owner_message', 'msg-404', 'x')],
      referents,
    );
    expect(result.dropped).toEqual({ no_such_referent: 2 });
  });

  it('drops an empty quote, and a quote of a result that kept no text', () => {
    const bare = claimReferents([
      {
        v: 1,
        at: '2026-09-25T09:00:00Z',
        run_id: 'r',
        type: 'tool_result',
        turn: 0,
        call_id: 'call-9',
        status: 'ok',
        taint: 'clean',
      },
    ]);
    expect(groundClaims([claim('tool_result', 'call-9', 'anything')], bare).dropped).toEqual({
      referent_has_no_text: 1,
    });
    expect(groundClaims([claim('owner_message', 'msg-1', '  ')], referents).dropped).toEqual({
      empty_quote: 1,
    });
  });

  it('keeps exactly the claims whose quote is a piece of what they cite, and counts the rest', () => {
    const owner = 'Please draft the grant reply to Priya Nair; she moved to Yale last month.';
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc
              .tuple(fc.nat(owner.length - 1), fc.integer({ min: 1, max: 20 }))
              .map(([start, length]) => owner.slice(start, start + length))
              .filter((quote) => quote.trim() !== ''),
            fc.string({ minLength: 1, maxLength: 12 }),
          ),
          { maxLength: 8 },
        ),
        (quotes) => {
          const claims = quotes.map((quote) => claim('owner_message', 'msg-1', quote));
          const result = groundClaims(claims, referents);
          const dropped = Object.values(result.dropped).reduce((sum, count) => sum + count, 0);
          expect(result.kept.length + dropped).toBe(claims.length);
          for (const kept of result.kept) {
            expect(owner.replace(/\s+/g, ' ')).toContain(kept.quote.replace(/\s+/g, ' ').trim());
          }
        },
      ),
    );
  });
});
