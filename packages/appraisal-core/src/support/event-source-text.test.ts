import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventSourceText } from './event-source-text.js';

describe('eventSourceText', () => {
  it('names the file and line, and the id in brackets when there is one', () => {
    expect(eventSourceText({ file: 'logs/a.jsonl', line: 12, id: 'msg_01' })).toBe(
      'logs/a.jsonl:12 (msg_01)',
    );
    expect(eventSourceText({ file: 'logs/a.jsonl', line: 3 })).toBe('logs/a.jsonl:3');
  });

  it('never lets a file name or id break the line or hide text', () => {
    // Text with line breaks, terminal escapes and bidi overrides mixed in.
    const text = fc.string({
      unit: fc.oneof(
        fc.constantFrom('\n', '\r', '\t', '\u001b', '\u202e', '\u2066'),
        fc.string({ minLength: 1, maxLength: 1 }),
      ),
    });
    fc.assert(
      fc.property(text, fc.nat(), fc.option(text, { nil: undefined }), (file, line, id) => {
        const text = eventSourceText({ file, line, ...(id === undefined ? {} : { id }) });
        expect(text).not.toMatch(/[\p{Cc}\u202a-\u202e\u2066-\u2069]/u);
        expect(text).toContain(`:${line}`);
      }),
    );
  });
});
