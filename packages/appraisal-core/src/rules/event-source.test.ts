import { describe, expect, it } from 'vitest';
import { type TranscriptEvent, transcriptEventSchema } from '../schemas/transcript.js';
import { readTranscript } from './read-transcript.js';

const at = '2026-09-20T09:00:00.000Z';
const source = { file: '/home/owner/.claude/projects/p/s.jsonl', line: 12, id: 'toolu_01' };

describe('an event’s source', () => {
  it('is optional: an event written before it existed still reads, one with it keeps it', () => {
    const old = { v: 1, type: 'intervention', at, run_id: 's.r1', turn: 2, kind: 'steer' };
    expect(transcriptEventSchema.parse(old)).toEqual(old);
    expect(transcriptEventSchema.parse({ ...old, source })).toEqual({ ...old, source });
    expect(
      transcriptEventSchema.safeParse({ ...old, source: { file: 'x', line: 0 } }).success,
    ).toBe(false);
    expect(transcriptEventSchema.safeParse({ ...old, source: { line: 3 } }).success).toBe(false);
  });

  it('goes with the signed entry the event signs, and only with it', () => {
    const events: TranscriptEvent[] = [
      {
        v: 1,
        type: 'run_start',
        at,
        run_id: 's.r1',
        session_id: 's',
        surface: 'claude-code',
        session_kind: 'ordinary',
      },
      { v: 1, type: 'intervention', at, run_id: 's.r1', turn: 2, kind: 'deny', source },
      { v: 1, type: 'intervention', at, run_id: 's.r1', turn: 4, kind: 'steer' },
      {
        v: 1,
        type: 'run_end',
        at,
        run_id: 's.r1',
        stop_cause: 'token_ceiling',
        source: { file: source.file, line: 20 },
      },
    ];
    const { entries } = readTranscript(events);
    expect(entries.map((entry) => [entry.error.cite, entry.source])).toEqual([
      [{ kind: 'turn', turn: 2 }, source],
      [{ kind: 'turn', turn: 4 }, undefined],
      [
        { kind: 'counter', name: 'token_ceiling' },
        { file: source.file, line: 20 },
      ],
    ]);
  });
});
