import type { TextAppraisalRecord, TranscriptEvent } from '@mecha/appraisal-core';
import type { MechaHome } from '@mecha/stores';

/** The situation a session ran in: where, on which surface, toward which goal. */
export interface Situation {
  readonly workspace: string | undefined;
  readonly surface: string | undefined;
  readonly goal: string | undefined;
}

function situationOf(events: readonly TranscriptEvent[]): Situation {
  const start = events.find((event) => event.type === 'run_start');
  if (start?.type !== 'run_start')
    return { workspace: undefined, surface: undefined, goal: undefined };
  return {
    workspace: start.workspace,
    surface: start.surface,
    goal: start.goal === undefined ? undefined : `${start.goal.kind}:${start.goal.id ?? ''}`,
  };
}

const same = (a: Situation, b: Situation) =>
  a.workspace === b.workspace && a.surface === b.surface && a.goal === b.goal;

/** How many earlier appraisals the appraiser is shown, and how much of each. */
const shown = 3;
const characters = 400;
/** Transcripts read to find them, at most, per session. */
const reads = 20;

const cut = (text: string) =>
  text.length > characters ? `${text.slice(0, characters - 1)}…` : text;

/**
 * Up to three earlier text appraisals of clean sessions in the same situation (workspace and
 * surface) and toward the same goal, newest first, as the lines the follow-up question shows the
 * appraiser. Only clean appraisals go further than their own record; others are never shown.
 * Each earlier session's first run is read to learn its situation (at most 20 reads, cached).
 */
export async function earlierAppraisals(
  home: MechaHome,
  records: readonly TextAppraisalRecord[],
  sessionId: string,
  events: readonly TranscriptEvent[],
  situations: Map<string, Situation | undefined>,
): Promise<string[]> {
  const here = situationOf(events);
  const found: string[] = [];
  let read = 0;
  const candidates = records
    .filter((record) => record.taint === 'clean' && record.session_id !== sessionId)
    .sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
  for (const record of candidates) {
    if (found.length >= shown) break;
    let there = situations.get(record.session_id);
    if (!situations.has(record.session_id)) {
      if (read >= reads) break;
      read += 1;
      const transcript = await home.sessions.transcript(record.session_id);
      there = transcript.state === 'unreadable' ? undefined : situationOf(transcript.records);
      situations.set(record.session_id, there);
    }
    if (there === undefined || !same(here, there)) continue;
    const prediction =
      record.prediction === undefined ? '' : ` Expected next: ${cut(record.prediction)}`;
    const act = record.expected_act === undefined ? '' : ` (expected act: ${record.expected_act})`;
    const wants =
      record.owner_wants === undefined
        ? ''
        : ` The owner seemed to want: ${cut(record.owner_wants)}`;
    const lessons =
      record.lessons === undefined || record.lessons.length === 0
        ? ''
        : ` Lessons: ${cut(record.lessons.join(' / '))}`;
    found.push(
      `${found.length + 1}. ${cut(record.interpretation)}${prediction}${act}${wants}${lessons}`,
    );
  }
  return found;
}
