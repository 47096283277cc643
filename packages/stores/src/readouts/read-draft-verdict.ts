import type { Actor, Taint } from '@mecha/appraisal-core';
import type { MechaHome } from '../home-context.js';

/** What is known of one staged draft, read by its exact id. */
interface DraftFound {
  readonly draftId: string;
  /** The session that staged it. */
  readonly sessionId: string;
  /** The tool that would send it (`mail_send`, `slack_post`, …). */
  readonly tool: string;
  /**
   * Whether third-party text was in the conversation when it was written. An edit keeps it:
   * the owner may have kept a stranger's words.
   */
  readonly taint: Taint;
  /** Damaged outbox lines skipped (0 when read whole): a verdict on one of them is not seen. */
  readonly skipped: number;
}

/** The verdict on a draft as the harness that sends it needs it. */
export type DraftVerdictRead =
  | { readonly state: 'unreadable'; readonly reason: string }
  | { readonly state: 'not_found'; readonly draftId: string; readonly skipped: number }
  | (DraftFound & { readonly state: 'pending' })
  | (DraftFound & {
      /** Released: send `text`. */
      readonly state: 'send';
      readonly outcome: 'sent_unchanged' | 'sent_edited';
      /** `owner`, or `run_shell` when a run's shell approved it. */
      readonly sender: Actor;
      /** When the verdict was recorded. */
      readonly at: string;
      /**
       * The words to send: the draft as staged (`sent_unchanged`) or as the owner edited it
       * (`sent_edited`). Absent when they were not recorded (a draft staged without its text,
       * an edit recorded before mecha kept edits): never guess them.
       */
      readonly text?: string;
    })
  | (DraftFound & {
      /** Not to be sent. */
      readonly state: 'not_sent';
      readonly outcome: 'rejected' | 'cancelled';
      readonly sender: Actor;
      readonly at: string;
    });

/**
 * Reads the verdict on one draft for the harness that sends it: still pending, released (with
 * the words that go out, the owner's edit when there was one), or not to be sent. The first
 * verdict recorded is the one that counts. A rejection's reason is the owner's note to the
 * reflector and is not part of this read.
 */
export async function readDraftVerdict(
  home: MechaHome,
  draftId: string,
): Promise<DraftVerdictRead> {
  const outbox = await home.outbox.read();
  if (outbox.state === 'unreadable') return { state: 'unreadable', reason: outbox.reason };
  const skipped = outbox.state === 'partial' ? outbox.skipped.length : 0;
  const staged = outbox.records.find(
    (record) => record.type === 'staged' && record.draft_id === draftId,
  );
  if (staged?.type !== 'staged') return { state: 'not_found', draftId, skipped };
  const found: DraftFound = {
    draftId,
    sessionId: staged.session_id,
    tool: staged.tool,
    taint: staged.taint,
    skipped,
  };
  const verdict = outbox.records.find(
    (record) => record.type === 'outcome' && record.draft_id === draftId,
  );
  if (verdict?.type !== 'outcome') return { ...found, state: 'pending' };
  const { outcome, sender, at } = verdict;
  if (outcome === 'rejected' || outcome === 'cancelled') {
    return { ...found, state: 'not_sent', outcome, sender, at };
  }
  const text = outcome === 'sent_edited' ? verdict.text : staged.text;
  return {
    ...found,
    state: 'send',
    outcome,
    sender,
    at,
    ...(text === undefined ? {} : { text }),
  };
}
