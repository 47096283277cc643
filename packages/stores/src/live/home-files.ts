import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  SessionStoreIndex,
  SessionStores,
  SourceRead,
  TranscriptEvent,
} from '@mecha/appraisal-core';
import { homeLayout } from '../home-layout.js';

/** A store of the home a live readout keeps in memory, by the name its ports give it. */
export type LiveStoreKey =
  | 'outbox'
  | 'questions'
  | 'requests'
  | 'closures'
  | 'workflows'
  | 'board'
  | 'charter'
  | 'reflections'
  | 'curation:rule'
  | 'curation:reflection'
  | 'curation:candidate'
  | 'textAppraisals'
  | 'counterfactuals'
  | 'comparisons'
  | 'scores'
  | 'ownerOutcomes'
  | 'predictions';

/** Which store a file of the home is, by its path relative to the home. */
export const storeOfFile: ReadonlyMap<string, LiveStoreKey> = new Map<string, LiveStoreKey>([
  [homeLayout.outbox, 'outbox'],
  [homeLayout.questions, 'questions'],
  [homeLayout.requests, 'requests'],
  [homeLayout.closures, 'closures'],
  [homeLayout.workflows, 'workflows'],
  [homeLayout.board, 'board'],
  [homeLayout.charter, 'charter'],
  [homeLayout.reflections, 'reflections'],
  [homeLayout.ruleVerdicts, 'curation:rule'],
  [homeLayout.reflectionVerdicts, 'curation:reflection'],
  [homeLayout.candidateVerdicts, 'curation:candidate'],
  [homeLayout.textAppraisals, 'textAppraisals'],
  [homeLayout.counterfactuals, 'counterfactuals'],
  [homeLayout.comparisons, 'comparisons'],
  [homeLayout.scores, 'scores'],
  [homeLayout.ownerOutcomes, 'ownerOutcomes'],
  [homeLayout.predictions, 'predictions'],
]);

const sessionFile = /^sessions\/([A-Za-z0-9][A-Za-z0-9._:-]*)\.jsonl$/;

/** The session a path of the home (relative, `/`-separated) is the transcript of, if it is one. */
export function sessionOfPath(path: string): string | undefined {
  return sessionFile.exec(path)?.[1];
}

/** The path of a session's transcript, relative to the home. */
export function sessionPath(sessionId: string): string {
  return `${homeLayout.sessions}/${sessionId}.jsonl`;
}

/** Whether a path of the home is one a live readout takes in: a transcript or a store. */
export function isLivePath(path: string): boolean {
  return sessionFile.test(path) || storeOfFile.has(path);
}

/**
 * The folders a watch covers, relative to the home ('' is the home itself, for the charter):
 * the sessions folder and each store's folder, never one watch per file.
 */
export function liveFolders(): ReadonlySet<string> {
  return new Set<string>([
    '',
    homeLayout.sessions,
    ...[...storeOfFile.keys()].flatMap((file) =>
      file.includes('/') ? [file.slice(0, file.lastIndexOf('/'))] : [],
    ),
  ]);
}

/** Each live file's size and time of change, by path relative to the home. */
export type FileStamps = ReadonlyMap<string, string>;

/**
 * What the live files of a home look like now: one `stat` per transcript and store, nothing
 * read. A sessions folder that cannot be listed (other than absent) is said, never taken as
 * empty: its transcripts are then left out of the stamps and `sessions` carries the reason.
 */
export async function liveFileStamps(
  homePath: string,
): Promise<{ readonly stamps: FileStamps; readonly sessions: string | undefined }> {
  const stamps = new Map<string, string>();
  let sessions: string | undefined;
  let names: string[] = [];
  try {
    names = await readdir(join(homePath, homeLayout.sessions));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') sessions = `the sessions folder could not be listed (${code})`;
  }
  const paths = [
    ...names
      .map((name) => `${homeLayout.sessions}/${name}`)
      .filter((path) => sessionFile.test(path)),
    ...storeOfFile.keys(),
  ];
  await Promise.all(
    paths.map(async (path) => {
      try {
        const found = await stat(join(homePath, path));
        stamps.set(path, `${found.mtimeMs}:${found.size}`);
      } catch {
        // Gone between the listing and the look, or never there: absent from the stamps.
      }
    }),
  );
  return { stamps, sessions };
}

/** The paths whose stamp differs between two looks: changed, appeared or gone. */
export function changedStamps(before: FileStamps, after: FileStamps): string[] {
  const changed: string[] = [];
  for (const [path, stamp] of after) if (before.get(path) !== stamp) changed.push(path);
  for (const path of before.keys()) if (!after.has(path)) changed.push(path);
  return changed.sort();
}

/** The stores a session's evidence is built from: a change there may change its reading. */
const evidenceStores: ReadonlyMap<LiveStoreKey, keyof SessionStores> = new Map<
  LiveStoreKey,
  keyof SessionStores
>([
  ['outbox', 'outbox'],
  ['questions', 'questions'],
  ['requests', 'requests'],
  ['closures', 'closures'],
  ['workflows', 'workflows'],
  ['reflections', 'reflections'],
  ['ownerOutcomes', 'ownerOutcomes'],
]);

const recordCount = (read: SourceRead<unknown>): number =>
  read.state === 'unreadable' ? 0 : read.records.length;

/**
 * Which sessions a change of stores may change the reading of: everyone (the charter, or a
 * store that became readable or unreadable), nobody (no evidence store), or those holding
 * evidence in a changed store before or after.
 */
export function storesTouch(
  keys: ReadonlySet<LiveStoreKey>,
  index: {
    readonly before: SessionStoreIndex | undefined;
    readonly after: SessionStoreIndex;
    readonly charterChanged: boolean;
  },
):
  | 'everyone'
  | 'nobody'
  | ((sessionId: string, transcript: SourceRead<TranscriptEvent>) => boolean) {
  const { before, after } = index;
  const names = [...keys].flatMap((key) => {
    const name = evidenceStores.get(key);
    return name === undefined ? [] : [name];
  });
  if (
    keys.has('charter') ||
    index.charterChanged ||
    before === undefined ||
    names.some((name) => before.stores[name].state !== after.stores[name].state)
  ) {
    return 'everyone';
  }
  if (names.length === 0) return 'nobody';
  return (sessionId, transcript) =>
    names.some(
      (name) =>
        recordCount(before.evidenceFor(sessionId, transcript)[name]) > 0 ||
        recordCount(after.evidenceFor(sessionId, transcript)[name]) > 0,
    );
}
