import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ClaudeToolOutcome,
  claudeOutcomeRecord,
  claudeRejectionText,
  claudeResultStopCause,
  claudeToolOutcome,
  claudeToolTarget,
} from './claude-code-rules.js';

const outcomes: ClaudeToolOutcome[] = ['ok', 'error', 'denied', 'rejected', 'cancelled'];

describe('claudeToolOutcome', () => {
  it('reads the rejection text as a rejection, or a cancellation where no prompt can appear', () => {
    fc.assert(
      fc.property(fc.string(), fc.boolean(), (rest, isError) => {
        const text = `${claudeRejectionText}${rest}`;
        expect(claudeToolOutcome({ text, isError, promptsBypassed: false })).toBe('rejected');
        expect(claudeToolOutcome({ text, isError, promptsBypassed: true })).toBe('cancelled');
      }),
    );
  });

  it('reads any other text by is_error alone: words claiming a rejection are not one', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.constant(`The model says: ${claudeRejectionText}`)),
        fc.boolean(),
        fc.boolean(),
        (text, isError, promptsBypassed) => {
          fc.pre(!text.startsWith(claudeRejectionText));
          expect(claudeToolOutcome({ text, isError, promptsBypassed })).toBe(
            isError ? 'error' : 'ok',
          );
        },
      ),
    );
  });
});

describe('claudeOutcomeRecord', () => {
  it('gives an owner act only for a rejection (deny) or a cancellation (steer), both denied', () => {
    expect(outcomes.map(claudeOutcomeRecord)).toEqual([
      { status: 'ok', act: undefined },
      { status: 'error', act: undefined },
      { status: 'denied', act: undefined },
      { status: 'denied', act: 'deny' },
      { status: 'denied', act: 'steer' },
    ]);
  });
});

describe('claudeResultStopCause', () => {
  it('maps the result subtypes Claude Code writes', () => {
    expect(
      [
        'success',
        'error_max_turns',
        'error_during_execution',
        'error_max_budget_usd',
        undefined,
      ].map((subtype) => claudeResultStopCause(subtype, false)),
    ).toEqual(['completed', 'turn_ceiling', 'error', 'error', 'completed']);
  });

  it('is never completed when the result says it is an error, and only the ceiling is a ceiling', () => {
    fc.assert(
      fc.property(fc.option(fc.string(), { nil: undefined }), (subtype) => {
        const cause = claudeResultStopCause(subtype, true);
        expect(cause).not.toBe('completed');
        expect(cause === 'turn_ceiling').toBe(subtype === 'error_max_turns');
      }),
    );
  });
});

describe('claudeToolTarget', () => {
  it('names the file, notebook, path or URL a call acts on, in that order', () => {
    expect(claudeToolTarget({ file_path: '/a', url: 'u' })).toBe('/a');
    expect(claudeToolTarget({ notebook_path: 'n.ipynb' })).toBe('n.ipynb');
    expect(claudeToolTarget({ path: 'src', pattern: '*.ts' })).toBe('src');
    expect(claudeToolTarget({ url: 'https://y' })).toBe('https://y');
    expect(claudeToolTarget({ path: '', url: 'https://x' })).toBe('https://x');
    expect(claudeToolTarget({ command: 'ls' })).toBeUndefined();
    expect(claudeToolTarget('a string')).toBeUndefined();
    expect(claudeToolTarget(null)).toBeUndefined();
  });
});
