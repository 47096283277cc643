import type { ReflectionRecord } from '@mecha/appraisal-core';
import type { MechaHome } from '@mecha/stores';

/** A lesson on record, with whether the owner dropped it. */
export interface LessonOnRecord {
  readonly lessonId: string;
  readonly sessionId: string;
  readonly at: string;
  readonly lesson: NonNullable<ReflectionRecord['lesson']>;
  readonly dropped: boolean;
}

/** The lessons on record, newest first, or why they could not be read. */
export type LessonsRead =
  | {
      readonly state: 'read';
      readonly lessons: readonly LessonOnRecord[];
      readonly partial: boolean;
    }
  | { readonly state: 'unreadable'; readonly reason: string };

/**
 * Every lesson `mecha reflect` wrote, newest first, each marked dropped when the owner dropped
 * it. A verdicts file that could not be read leaves every lesson unmarked and the read partial.
 */
export async function lessonsOnRecord(home: MechaHome): Promise<LessonsRead> {
  const [reflections, verdicts] = await Promise.all([
    home.learning.reflections.read(),
    home.learning.curation.reflection.read(),
  ]);
  if (reflections.state === 'unreadable') {
    return { state: 'unreadable', reason: reflections.reason };
  }
  const dropped = new Set<string>();
  if (verdicts.state !== 'unreadable') {
    for (const verdict of verdicts.records) {
      if (verdict.verdict === 'dropped') dropped.add(verdict.target_id);
      else if (verdict.verdict === 'restored') dropped.delete(verdict.target_id);
    }
  }
  const lessons: LessonOnRecord[] = [];
  for (const record of reflections.records) {
    if (record.lesson === undefined) continue;
    lessons.push({
      lessonId: record.reflection_id,
      sessionId: record.session_id,
      at: record.at,
      lesson: record.lesson,
      dropped: dropped.has(record.reflection_id),
    });
  }
  lessons.sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
  return {
    state: 'read',
    lessons,
    partial: reflections.state === 'partial' || verdicts.state !== 'read',
  };
}

/** What dropping a lesson did. */
export type LessonDrop =
  | { readonly state: 'dropped'; readonly lessonId: string }
  | {
      readonly state: 'refused';
      readonly reason: 'unknown' | 'already' | 'unreadable' | 'not_written';
      readonly message: string;
    };

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
  const read = await lessonsOnRecord(home);
  if (read.state === 'unreadable') {
    return {
      state: 'refused',
      reason: 'unreadable',
      message: `the lessons could not be read: ${read.reason}`,
    };
  }
  const lesson = read.lessons.find((candidate) => candidate.lessonId === lessonId);
  if (lesson === undefined) {
    return {
      state: 'refused',
      reason: 'unknown',
      message: `no lesson ${lessonId} is on record (see 'mecha reflect lessons')`,
    };
  }
  if (lesson.dropped) {
    return {
      state: 'refused',
      reason: 'already',
      message: `lesson ${lessonId} is already dropped`,
    };
  }
  const written = await home.learning.curation.reflection.append([
    {
      v: 1,
      at: clock().toISOString(),
      target: 'reflection',
      target_id: lessonId,
      verdict: 'dropped',
    },
  ]);
  if (written._tag === 'Left') {
    return { state: 'refused', reason: 'not_written', message: written.left.message };
  }
  return { state: 'dropped', lessonId };
}
