import type { DraftStaged, OutboxRecord } from '../../schemas/outbox.js';
import type { Taint } from '../../schemas/primitives.js';
import type { SourceRead } from '../../schemas/source-read.js';
import type { Success } from './success.js';

/** A draft the owner sent as mecha wrote it: a writing exemplar. No run is shown it yet. */
export interface WritingExemplar {
  readonly draft_id: string;
  readonly session_id: string;
  readonly at: string;
  /** The tool that would send it. */
  readonly tool: string;
  /** Whether third-party text was in the conversation when it was written. */
  readonly taint: Taint;
  /** The draft, word for word; `null` when the staging record kept no text. */
  readonly text: string | null;
  readonly served: false;
}

/**
 * Each standing draft the owner sent unchanged, word for word, with the tool that would send
 * it; `null` when the outbox could not be read.
 */
export function writingExemplars(
  found: readonly Success[],
  outbox: SourceRead<OutboxRecord>,
): WritingExemplar[] | null {
  if (outbox.state === 'unreadable') return null;
  const staged = new Map<string, DraftStaged>();
  for (const record of outbox.records) {
    if (record.type === 'staged') staged.set(record.draft_id, record);
  }
  return found.flatMap((success): WritingExemplar[] => {
    const draft = staged.get(success.cite.id);
    if (success.kind !== 'draft_sent_unchanged' || success.status !== 'standing' || !draft) {
      return [];
    }
    return [
      {
        draft_id: draft.draft_id,
        session_id: draft.session_id,
        at: success.at,
        tool: draft.tool,
        taint: draft.taint,
        text: draft.text ?? null,
        served: false,
      },
    ];
  });
}
