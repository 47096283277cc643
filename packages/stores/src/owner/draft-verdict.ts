import type { Actor } from '@mecha/appraisal-core';
import * as E from 'fp-ts/lib/Either.js';
import type { MechaHome } from '../home-context.js';
import { createOutcomeRecorder } from '../outcome-recorder.js';
import { runPresence } from '../run-registration.js';
import { findByPrefix } from './find-by-prefix.js';
import { type OwnerActRefusal, ownerRefused } from './owner-refusal.js';
import { isUntouchedEdit, ownerWords } from './owner-words.js';

/** What the owner decides about a staged draft. */
export type DraftChoice = 'send' | 'send_edited' | 'reject';

/** A verdict on a draft from any surface. */
export interface DraftVerdictRequest {
  /** The draft's id, or a unique prefix of one. */
  readonly query: string;
  readonly verdict: DraftChoice;
  /** Why it was rejected, in the owner's words (for the reflector; never part of a score). */
  readonly reason?: string;
  /**
   * For `send_edited`, and only then: the words to send, as the owner edited them. Required
   * there (an edit with no words, or the draft's own words unchanged, is refused); they are
   * kept on the outcome so that the harness that sends reads them (`readDraftVerdict`).
   */
  readonly text?: string;
  /** The environment the request came from (a run's shell names its run there). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** A verdict recorded, render-ready. */
export interface DraftVerdict {
  readonly state: 'decided';
  readonly draftId: string;
  readonly outcome: 'sent_unchanged' | 'sent_edited' | 'rejected';
  /** `owner` when a person acted directly; `run_shell` when a run's shell carried it. */
  readonly sender: Actor;
  /** For `sent_edited`: the words kept, as they will go out (line endings `\n`). */
  readonly text?: string;
  /** `Sent draft-… as written.` and the like. */
  readonly line: string;
}

const said = {
  send: (id: string) => `Sent ${id} as written.`,
  send_edited: (id: string) => `Sent ${id} with your edits.`,
  reject: (id: string) => `Rejected ${id}.`,
} as const;

/**
 * Records the owner's verdict on a draft still waiting in the outbox: sent as written, sent
 * edited (the edited words kept on the outcome), or rejected. The sender is `owner` only when
 * no run's shell started the request (a run's approval is recorded as `run_shell`, which no
 * success counts). A draft that was never staged, or already has a verdict, is refused and
 * nothing is written.
 */
export async function decideDraft(
  home: MechaHome,
  request: DraftVerdictRequest,
): Promise<E.Either<OwnerActRefusal, DraftVerdict>> {
  if (request.reason !== undefined && request.verdict !== 'reject') {
    return ownerRefused('bad_request', 'a reason is only kept for a rejected draft');
  }
  if (request.text !== undefined && request.verdict !== 'send_edited') {
    return ownerRefused('bad_request', 'edited text is only kept for Edit then send');
  }
  let edited: string | undefined;
  if (request.verdict === 'send_edited') {
    const words = ownerWords(request.text, 'the edit');
    if (E.isLeft(words)) return words;
    edited = words.right;
  }
  const outbox = await home.outbox.read();
  if (outbox.state === 'unreadable') {
    return ownerRefused('unreadable', `the outbox could not be read: ${outbox.reason}`);
  }
  const staged = new Map(
    outbox.records.flatMap((record) =>
      record.type === 'staged' ? [[record.draft_id, record.text] as const] : [],
    ),
  );
  const match = findByPrefix(staged.keys(), request.query);
  if (match.state === 'none') {
    return ownerRefused(
      'not_found',
      `there is no draft ${JSON.stringify(request.query)} in the outbox`,
    );
  }
  if (match.state === 'ambiguous') {
    return ownerRefused(
      'ambiguous',
      `${JSON.stringify(request.query)} matches ${match.candidates.length} drafts: give more of the id`,
    );
  }
  const draftId = match.id;
  const earlier = outbox.records.find(
    (record) => record.type === 'outcome' && record.draft_id === draftId,
  );
  if (earlier !== undefined && earlier.type === 'outcome') {
    return ownerRefused('unchanged', `${draftId} already has a verdict (${earlier.outcome})`);
  }
  const draftText = staged.get(draftId);
  if (edited !== undefined && isUntouchedEdit(edited, draftText)) {
    // An unchanged "edit" would sign the run −1.0 for words the owner kept as written; a box
    // submitted as it was shown (control characters stripped) is unchanged too.
    return ownerRefused(
      'bad_request',
      `the edit is the draft as written: use Send to send ${draftId} unchanged`,
    );
  }
  const presence = await runPresence(home, request.env);
  const sender: Actor = presence.kind === 'terminal' ? 'owner' : 'run_shell';
  const outcomes = createOutcomeRecorder(home);
  const written =
    request.verdict === 'send'
      ? await outcomes.sendDraft(draftId, { sender })
      : request.verdict === 'send_edited'
        ? await outcomes.sendEditedDraft(draftId, {
            sender,
            ...(edited === undefined ? {} : { text: edited }),
          })
        : await outcomes.rejectDraft(draftId, {
            sender,
            ...(request.reason === undefined ? {} : { reason: request.reason }),
          });
  if (E.isLeft(written)) {
    return ownerRefused('not_written', `${draftId} was not decided: ${written.left.message}`);
  }
  const outcome =
    request.verdict === 'send'
      ? 'sent_unchanged'
      : request.verdict === 'send_edited'
        ? 'sent_edited'
        : 'rejected';
  return E.right({
    state: 'decided',
    draftId,
    outcome,
    sender,
    ...(edited === undefined ? {} : { text: edited }),
    line: said[request.verdict](draftId),
  });
}
