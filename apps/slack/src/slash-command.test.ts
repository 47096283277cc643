import { describe, expect, it } from 'vitest';
import { parseSlash, splitWords } from './slash-command.js';

describe('splitWords', () => {
  it('keeps quoted phrases together, straight or curly', () => {
    expect(splitWords('add replies "Answer people" --rank 1')).toEqual([
      'add',
      'replies',
      'Answer people',
      '--rank',
      '1',
    ]);
    expect(splitWords('add a \u201cone two\u201d \u2018three four\u2019')).toEqual([
      'add',
      'a',
      'one two',
      'three four',
    ]);
    expect(splitWords('set a --text ""')).toEqual(['set', 'a', '--text', '']);
  });

  it('says when a quote is not closed', () => {
    expect(splitWords('add a "one two')).toEqual({ error: 'a quote is not closed (")' });
  });
});

describe('parseSlash', () => {
  it('reads charter edits with the options each one takes', () => {
    expect(parseSlash('charter unset replies --sensor')).toEqual({
      kind: 'charter_edit',
      op: 'unset',
      positionals: ['replies'],
      options: { sensor: true },
    });
    expect(parseSlash('charter')).toEqual({ kind: 'charter' });
    expect(parseSlash('')).toEqual({ kind: 'help' });
    expect(parseSlash('tasks')).toEqual({ kind: 'tasks' });
  });

  it('refuses an unknown command, an unknown edit and an unknown option', () => {
    expect(parseSlash('deploy')).toMatchObject({
      kind: 'usage',
      message: 'unknown command "deploy"',
    });
    expect(parseSlash('charter wipe')).toMatchObject({ kind: 'usage' });
    expect(parseSlash('charter rm replies --force')).toEqual({
      kind: 'usage',
      message: "unknown option '--force'",
    });
    expect(parseSlash('charter set replies --text')).toEqual({
      kind: 'usage',
      message: '--text needs a value',
    });
    expect(parseSlash('charter unset replies --sensor=yes')).toEqual({
      kind: 'usage',
      message: '--sensor is a switch and takes no value',
    });
  });
});
