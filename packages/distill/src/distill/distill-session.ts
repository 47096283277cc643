import { join } from 'node:path';
import {
  readSession,
  type SessionListing,
  type SourceRead,
  type TranscriptEvent,
} from '@mecha/appraisal-core';
import {
  boundTranscript,
  boundTranscriptInTokens,
  defaultTranscriptBounds,
} from '../bound-transcript.js';
import { buildEpisode, type Episode, type EpisodeParts } from '../build-episode.js';
import { classifySession } from '../classify-session.js';
import { distillInstructions, distillPrompt } from '../distill-prompt.js';
import { type DistillReply, parseDistillReply } from '../distill-reply.js';
import { groundCorrections } from '../ground-corrections.js';
import { renderTranscript } from '../render-transcript.js';
import { type EpisodeTaint, isKnownClean, sessionTaint } from '../session-taint.js';
import { followUpQuestion } from '../text-appraisal.js';
import { askAppraisal } from './ask-appraisal.js';
import { askFacts } from './ask-facts.js';
import type { DistillRun } from './distill-run.js';
import { earlierAppraisals } from './earlier-appraisals.js';
import { markSession, recordFailure } from './ledger-steps.js';
import { pushEpisode } from './push-episode.js';
import { pushSkip } from './push-skip.js';
import type { SessionResult } from './session-outcome.js';
import { loadWorkContext, type WorkContext } from './work-context.js';

/**
 * One session through the run: read it, tell whether it is finished, and either mark it too
 * short, or ask the model once for its episode, then skip it or appraise it and push the
 * episode. Every way it can stop short is a result, never a throw.
 */
export async function distillSession(
  run: DistillRun,
  entry: SessionListing,
  index: number,
): Promise<SessionResult> {
  const { home } = run;
  const { sessionId } = entry;
  run.progress(index, sessionId, 'reading');
  const transcript = await home.sessions.transcript(sessionId);
  if (transcript.state === 'unreadable') {
    return { sessionId, outcome: 'unreadable', reason: transcript.reason };
  }
  // Only the question store is needed to tell a finished session from a parked one; the
  // other stores are read once the first session turns out to need distilling.
  run.questions ??= await home.questions.read();
  const events: readonly TranscriptEvent[] = transcript.records;
  const standing = classifySession(sessionId, events, run.questions, {
    ...run.classify,
    now: run.clock(),
  });
  if (standing.state === 'running' || standing.state === 'parked') {
    return { sessionId, outcome: standing.state };
  }
  if (standing.state === 'too_short') {
    if (run.dryRun) return { sessionId, outcome: 'would_mark_too_short' };
    return run.ledger.under(sessionId, (ledger) =>
      markSession(ledger, sessionId, 'too_short', { sessionId, outcome: 'too_short' }),
    );
  }
  if (run.dryRun) return { sessionId, outcome: 'would_distill' };
  run.context ??= await loadWorkContext(home);
  const work = run.context;

  const taint = sessionTaint(transcript);
  const clean = isKnownClean(taint);
  const bounded = boundTranscript(
    renderTranscript(events),
    run.options.transcriptBounds ?? defaultTranscriptBounds,
  );
  const maxTokens = run.options.maxTokens ?? 2_048;
  // The appraiser is shown up to three earlier clean appraisals of the same situation and goal.
  const earlier =
    run.options.appraise === false
      ? []
      : await earlierAppraisals(
          home,
          [...work.appraisals, ...run.appraisedNow],
          sessionId,
          events,
          run.situations,
        );
  const header = { sessionId, startedAt: entry.startedAt, endedAt: standing.endedAt };
  // Bounded again in the loaded model's own tokens, so the distiller's prompt and the follow-up
  // (the same conversation, the reply and the question) fit its context whatever the script.
  const fitted = await fitToContext(run, header, bounded.text, maxTokens, earlier);
  if ('failure' in fitted) return recordFailure(run, sessionId, fitted.failure);
  const shown = fitted.text;
  const prompt = distillPrompt({ ...header, transcript: shown });
  run.progress(index, sessionId, 'distilling');
  const completion = await run.model.complete(prompt, { grammar: run.grammar, maxTokens });
  if (completion._tag === 'Left') {
    const { stop, repeats, message } = completion.left;
    if (stop !== undefined) run.stop.note(stop);
    if (repeats === true) return recordFailure(run, sessionId, message);
    return { sessionId, outcome: 'model_failed', reason: message };
  }
  const parsed = parseDistillReply(completion.right.text, run.bounds);
  // Decoding is greedy, so the same transcript gets the same reply: this failure repeats.
  if (parsed.state !== 'read') return recordFailure(run, sessionId, parsed.reason);
  const reply: DistillReply = parsed.value;
  run.tally.reported(reply);
  const corrections = groundCorrections(reply.corrections, events);
  const settle = (result: SessionResult) =>
    run.tally.settle(reply, sessionId, clean, result, corrections);

  if (reply.skip) {
    return settle(
      await pushSkip(run, index, { sessionId, endedAt: standing.endedAt, clean }, corrections),
    );
  }

  const appraised = await askAppraisal(
    run,
    index,
    { sessionId, prompt, reply: completion.right.text, taint, events, earlier },
    work,
  );
  if (appraised.state === 'aborted') {
    return { sessionId, outcome: 'model_failed', reason: 'stopped before the push' };
  }

  // The episode's candidate facts, from the model under a grammar; the graph queues them for review.
  const extracted = await askFacts(run, index, sessionId, reply.episode);
  if (extracted.state === 'aborted') {
    return { sessionId, outcome: 'model_failed', reason: 'stopped before the push' };
  }

  const episode = sessionEpisode(run, work, {
    sessionId,
    transcript,
    endedAt: standing.endedAt,
    body: reply.episode,
    taint,
    corrections,
    surprises: reply.surprises,
    facts: extracted.facts,
  });
  const pushed = await pushEpisode(run, index, sessionId, episode, appraised.appraisal);
  if (
    extracted.facts !== undefined &&
    (pushed.outcome === 'pushed' || pushed.outcome === 'not_marked')
  ) {
    run.tally.factsSent(extracted.facts);
  }
  return settle(pushed);
}

/**
 * The transcript bounded again in the loaded model's own tokens, so the distiller's prompt and
 * the follow-up (the same conversation, the reply and the question) fit its context; as it is
 * when the model cannot count; a failure when the context leaves no room for it.
 */
async function fitToContext(
  run: DistillRun,
  header: { readonly sessionId: string; readonly startedAt: string; readonly endedAt: string },
  text: string,
  maxTokens: number,
  earlier: readonly string[],
): Promise<{ readonly text: string } | { readonly failure: string }> {
  const measure = await run.model.measure();
  if (measure === undefined) return { text };
  const { countTokens, contextSize } = measure;
  const appraising = run.options.appraise !== false;
  const around = distillPrompt({ ...header, transcript: '' });
  const fixed =
    (await countTokens(distillInstructions)) +
    (await countTokens(around.user)) +
    maxTokens +
    (appraising
      ? (await countTokens(`${followUpQuestion}\n${earlier.join('\n')}`)) +
        48 +
        (run.options.appraisalMaxTokens ?? 2_048)
      : 0) +
    // The chat template's own markers around up to four turns.
    128;
  const budget = contextSize - fixed;
  if (budget < 64) {
    return {
      failure: `the model's context (${contextSize} tokens) leaves no room for the transcript after the instructions and the replies' budgets (${fixed} tokens): raise [model] context_size`,
    };
  }
  return { text: (await boundTranscriptInTokens(text, budget, countTokens)).text };
}

/** The episode pushed for a session: the model's body, the reading, the goal and the facts. */
function sessionEpisode(
  run: DistillRun,
  work: WorkContext,
  session: {
    readonly sessionId: string;
    readonly transcript: Exclude<SourceRead<TranscriptEvent>, { readonly state: 'unreadable' }>;
    readonly endedAt: string;
    readonly body: string;
    readonly taint: EpisodeTaint;
    readonly corrections: ReturnType<typeof groundCorrections>;
    readonly surprises: DistillReply['surprises'];
    readonly facts: EpisodeParts['facts'];
  },
): Episode {
  const { sessionId, transcript } = session;
  const events: readonly TranscriptEvent[] = transcript.records;
  const hasOutcome = events.some((event) => event.type === 'run_end');
  const reading = hasOutcome
    ? readSession(work.index.evidenceFor(sessionId, transcript), work.charter)
    : undefined;
  const firstStart = events.find((event) => event.type === 'run_start');
  return buildEpisode({
    sessionId,
    sourceRef: join(run.home.path, run.home.sessions.file(sessionId)),
    occurredAt: session.endedAt,
    body: session.body,
    taint: session.taint,
    distilledBy: run.model.distilledBy ?? 'unknown',
    ...(reading === undefined
      ? {}
      : { appraisal: { label: reading.label, errors: reading.errors } }),
    ...(firstStart?.type === 'run_start' && firstStart.goal !== undefined
      ? { goal: firstStart.goal }
      : {}),
    directory: work.directory,
    corrections: session.corrections,
    surprises: session.surprises,
    ...(session.facts === undefined ? {} : { facts: session.facts }),
  });
}
