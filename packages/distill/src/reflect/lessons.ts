import type { CurationRecord, ReflectionRecord } from '@mecha/appraisal-core';
import {
  type Either,
  left,
  type Refusal,
  refusal,
  right,
  type SkippedLine,
  type SourceRead,
} from '@mecha/errors';
import type { MechaHome } from '@mecha/stores';

/** A lesson on record, with the owner's verdicts on it: dropped, and the newest edit. */
export interface LessonOnRecord {
  readonly lessonId: string;
  readonly sessionId: string;
  readonly at: string;
  /** The lesson as the reflector wrote it, with its provenance (never changed by an edit). */
  readonly lesson: NonNullable<ReflectionRecord['lesson']>;
  readonly dropped: boolean;
  /** The owner's newest edit: the text that replaces the reflector's, and when it was made. */
  readonly edited?: { readonly text: string; readonly at: string };
  /** The text in force: the owner's edit when there is one, the reflector's otherwise. */
  readonly text: string;
}

/**
 * The lessons on record, newest first. Partial when a reflection line was skipped, or when the
 * verdicts file could not be read whole (then a lesson's drop or edit may be missing: the
 * skipped line names the verdicts file).
 */
export type LessonsRead = SourceRead<LessonOnRecord>;

const verdictsFile = 'learning/curation-reflections.jsonl';

/**
 * Every lesson `mecha reflect` wrote, newest first, each with the owner's verdicts on it read in
 * order: dropped (until restored), and the text of the newest edit. A verdicts file that could
 * not be read leaves every lesson as the reflector wrote it, and the read partial.
 */
export async function lessonsOnRecord(home: MechaHome): Promise<LessonsRead> {
  const [reflections, verdicts] = await Promise.all([
    home.learning.reflections.read(),
    home.learning.curation.reflection.read(),
  ]);
  if (reflections.state === 'unreadable') return reflections;
  const skipped: SkippedLine[] = reflections.state === 'partial' ? [...reflections.skipped] : [];
  const dropped = new Set<string>();
  const edits = new Map<string, { text: string; at: string }>();
  if (verdicts.state === 'unreadable') {
    skipped.push({
      file: verdictsFile,
      line: 0,
      reason: `could not be read (${verdicts.reason}): no drop or edit is shown`,
    });
  } else {
    if (verdicts.state === 'partial') skipped.push(...verdicts.skipped);
    for (const verdict of ordered(verdicts.records)) {
      if (verdict.target !== 'reflection') continue;
      if (verdict.verdict === 'dropped') dropped.add(verdict.target_id);
      else if (verdict.verdict === 'restored') dropped.delete(verdict.target_id);
      else if (verdict.verdict === 'edited' && verdict.text !== undefined) {
        edits.set(verdict.target_id, { text: verdict.text, at: verdict.at });
      }
    }
  }
  const lessons: LessonOnRecord[] = [];
  for (const record of reflections.records) {
    if (record.lesson === undefined) continue;
    const edited = edits.get(record.reflection_id);
    lessons.push({
      lessonId: record.reflection_id,
      sessionId: record.session_id,
      at: record.at,
      lesson: record.lesson,
      dropped: dropped.has(record.reflection_id),
      ...(edited === undefined ? {} : { edited }),
      text: edited?.text ?? record.lesson.text,
    });
  }
  lessons.sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
  return skipped.length === 0
    ? { state: 'read', records: lessons }
    : { state: 'partial', records: lessons, skipped };
}

/** Verdicts in the order they were given (file order among equal times). */
function ordered(records: readonly CurationRecord[]): CurationRecord[] {
  return records
    .map((record, index) => ({ record, index }))
    .sort((a, b) => Date.parse(a.record.at) - Date.parse(b.record.at) || a.index - b.index)
    .map(({ record }) => record);
}

/** Why a verdict on a lesson was refused. */
export type LessonRefusal = Refusal<
  'bad_request' | 'unreadable' | 'not_found' | 'unchanged' | 'refused' | 'not_written'
>;

/** What dropping a lesson did: the lesson dropped, or why not. */
export type LessonDrop = Either<LessonRefusal, { readonly lessonId: string }>;

/** What editing a lesson did: the lesson and its text now, or why not. */
export type LessonEdit = Either<
  LessonRefusal,
  { readonly lessonId: string; readonly text: string }
>;

/** How long an edited lesson may be, in characters (as long as the record keeps). */
export const editedLessonBound = 2_000;

async function lessonNamed(
  home: MechaHome,
  lessonId: string,
): Promise<Either<LessonRefusal, LessonOnRecord>> {
  const read = await lessonsOnRecord(home);
  if (read.state === 'unreadable') {
    return left(refusal('unreadable', `the lessons could not be read: ${read.reason}`));
  }
  // A verdict given over verdicts that could not be read could contradict one of them.
  if (read.state === 'partial' && read.skipped.some((line) => line.file === verdictsFile)) {
    return left(refusal('unreadable', `${verdictsFile} could not be read whole`));
  }
  const lesson = read.records.find((candidate) => candidate.lessonId === lessonId);
  if (lesson === undefined) {
    return left(
      refusal('not_found', `no lesson ${lessonId} is on record (see 'mecha reflect lessons')`),
    );
  }
  return right(lesson);
}

async function giveVerdict(
  home: MechaHome,
  verdict: CurationRecord & { readonly target: 'reflection' },
): Promise<Either<LessonRefusal, void>> {
  const written = await home.learning.curation.reflection.append([verdict]);
  return written._tag === 'Left'
    ? left(refusal('not_written', written.left.message))
    : right(undefined);
}

/**
 * The owner drops a lesson: a `dropped` verdict on the reflector in
 * `learning/curation-reflections.jsonl`, counted in the curation section and never on the run
 * the correction came from. The lesson stays on record, marked dropped.
 */
export async function dropLesson(
  home: MechaHome,
  lessonId: string,
  clock: () => Date = () => new Date(),
): Promise<LessonDrop> {
  const found = await lessonNamed(home, lessonId);
  if (found._tag === 'Left') return found;
  if (found.right.dropped) {
    return left(refusal('unchanged', `lesson ${lessonId} is already dropped`));
  }
  const given = await giveVerdict(home, {
    v: 1,
    at: clock().toISOString(),
    target: 'reflection',
    target_id: lessonId,
    verdict: 'dropped',
  });
  return given._tag === 'Left' ? given : right({ lessonId });
}

/**
 * The owner edits a lesson: an `edited` verdict on the reflector carrying the owner's text, in
 * `learning/curation-reflections.jsonl`, counted in the curation section apart from drops and
 * never on the run. The reflector's lesson stays on record as it wrote it; the lessons read
 * the newest edit as the text in force. A dropped lesson, an empty or overlong text, and a text
 * that is already the lesson's are refused.
 */
export async function editLesson(
  home: MechaHome,
  lessonId: string,
  text: string,
  clock: () => Date = () => new Date(),
): Promise<LessonEdit> {
  const wanted = text.trim();
  if (wanted === '') return left(refusal('bad_request', 'the edited lesson is empty'));
  if (wanted.length > editedLessonBound) {
    return left(
      refusal('bad_request', `the edited lesson is longer than ${editedLessonBound} characters`),
    );
  }
  const found = await lessonNamed(home, lessonId);
  if (found._tag === 'Left') return found;
  if (found.right.dropped) {
    return left(
      refusal('refused', `lesson ${lessonId} is dropped: an edit would change nothing in force`),
    );
  }
  if (found.right.text === wanted) {
    return left(refusal('unchanged', `lesson ${lessonId} already says that`));
  }
  const given = await giveVerdict(home, {
    v: 1,
    at: clock().toISOString(),
    target: 'reflection',
    target_id: lessonId,
    verdict: 'edited',
    text: wanted,
  });
  return given._tag === 'Left' ? given : right({ lessonId, text: wanted });
}
