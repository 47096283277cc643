import type { AppraisalPorts, PortRead, SessionListing, SourceRead } from '@mecha/appraisal-core';

/** One source that was not read whole: what it was and why. */
export interface ReadProblem {
  readonly source: string;
  readonly what: string;
}

/**
 * What one read of a source did not read whole: nothing when it was read, the reason when it
 * could not be read, and each skipped line (`file line N: reason`) when it was partial.
 */
export function readProblems(source: string, result: SourceRead<unknown>): ReadProblem[] {
  if (result.state === 'read') return [];
  if (result.state === 'unreadable') return [{ source, what: result.reason }];
  return result.skipped.map((line) => ({
    source,
    what: `${line.file}${line.line > 0 ? ` line ${line.line}` : ''}: ${line.reason}`,
  }));
}

/**
 * The same ports, noting every source not read whole (unreadable, or lines skipped) so the
 * readout can name what could not be read. Each source is noted once, however often it is read.
 */
export function withReadLog(ports: AppraisalPorts): {
  readonly ports: AppraisalPorts;
  readonly problems: () => readonly ReadProblem[];
} {
  const seen = new Map<string, ReadProblem[]>();
  const note =
    <T>(source: string, read: () => PortRead<T>) =>
    async (): PortRead<T> => {
      const result = await read();
      record(source, result);
      return result;
    };
  const record = <T>(source: string, result: SourceRead<T>) => {
    if (result.state === 'read' || seen.has(source)) return;
    seen.set(source, readProblems(source, result));
  };
  const listed = (result: SourceRead<SessionListing>): SourceRead<SessionListing> => {
    record('sessions', result);
    if (result.state === 'unreadable') return result;
    for (const entry of result.records) {
      if (entry.kind !== undefined) continue;
      record(`session ${entry.sessionId}`, {
        state: 'unreadable',
        reason: 'the head of its transcript (its first run) could not be read',
      });
    }
    return result;
  };
  const learning = ports.learning;
  return {
    ports: {
      sessions: {
        list: async () => listed(await ports.sessions.list()),
        transcript: async (sessionId) => {
          const result = await ports.sessions.transcript(sessionId);
          record(`session ${sessionId}`, result);
          return result;
        },
        scan: async (visitor) =>
          listed(
            await ports.sessions.scan({
              ...visitor,
              visit: (entry, transcript) => {
                record(`session ${entry.sessionId}`, transcript);
                visitor.visit(entry, transcript);
              },
            }),
          ),
      },
      outbox: { read: note('outbox', () => ports.outbox.read()) },
      questions: { read: note('questions', () => ports.questions.read()) },
      requests: { read: note('frontdoor', () => ports.requests.read()) },
      closures: { read: note('closures', () => ports.closures.read()) },
      workflows: { read: note('workflows', () => ports.workflows.read()) },
      board: { read: note('board', () => ports.board.read()) },
      charter: { lines: note('charter', () => ports.charter.lines()) },
      learning: {
        reflections: note('reflections', () => learning.reflections()),
        curation: (target) => note(`curation ${target}`, () => learning.curation(target))(),
        textAppraisals: note('text appraisals', () => learning.textAppraisals()),
        counterfactuals: note('counterfactuals', () => learning.counterfactuals()),
        comparisons: note('comparisons', () => learning.comparisons()),
        scores: note('scores', () => learning.scores()),
      },
      ownerOutcomes: { read: note('owner outcomes', () => ports.ownerOutcomes.read()) },
      predictions: { read: note('predictions', () => ports.predictions.read()) },
    },
    problems: () => [...seen.values()].flat(),
  };
}
