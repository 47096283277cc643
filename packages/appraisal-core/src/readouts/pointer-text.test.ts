import { describe, expect, it } from 'vitest';
import { citeText, formatSign, goalText, outcomeText } from './pointer-text.js';

describe('pointer text', () => {
  it('signs with a true minus and marks a zero-signed entry', () => {
    expect(formatSign(1)).toBe('+1.0');
    expect(formatSign(-0.5)).toBe('\u22120.5');
    expect(formatSign(0)).toBe('\u00b10');
  });

  it('writes a cite as the pointer it is, never prose', () => {
    expect(citeText({ kind: 'turn', turn: 4 })).toBe('turn 4');
    expect(citeText({ kind: 'draft', draft_id: 'd-7f3e' })).toBe('draft d-7f3e');
    expect(citeText({ kind: 'counter', name: 'loop_stop' })).toBe('counter loop_stop');
  });

  it('writes a goal as its kind and id, a charter goal as a charter line', () => {
    expect(goalText({ kind: 'task', id: 'task-1' })).toBe('task task-1');
    expect(goalText({ kind: 'charter', id: 'replies' })).toBe('charter line replies');
    expect(goalText(undefined)).toBe('no goal');
  });

  it('writes a judgment’s outcome as words', () => {
    expect(outcomeText('went_well')).toBe('went well');
    expect(outcomeText('went_badly')).toBe('went badly');
    expect(outcomeText('mixed')).toBe('mixed');
    expect(outcomeText('unclear')).toBe('unclear');
  });
});
