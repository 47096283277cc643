import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { homeLayout, toolRegistryFile } from '@mecha/stores';

/** One file (or folder, ending in `/`) a home may hold, whether it is there, and what writes it. */
export interface HomeFile {
  readonly path: string;
  readonly present: boolean;
  readonly writtenBy: string;
}

/**
 * Every file a mecha home may hold, each with what writes it, and whether it is there now: the
 * stores of `homeLayout`, and the files the appraiser, the importers and the nightly pass keep
 * beside them. Lock files and `--repair` copies are reported by doctor's own sections.
 */
export async function homeInventory(home: string): Promise<readonly HomeFile[]> {
  const [{ ledgerFile, ledgerPointers }, { nightlyLockFile, reflectLockFile }] = await Promise.all([
    import('@mecha/importers'),
    import('@mecha/distill'),
  ]);
  const stores: Record<string, string> = {
    config: 'mecha init; you edit it',
    charter: "mecha init (a template); 'mecha charter' and the web board edit it",
    manifest: 'mecha init and the first write of each store',
    sessions: 'the session recorder (a harness), mecha import',
  };
  const entries: [string, string][] = [
    ...Object.entries(homeLayout).map(([name, path]): [string, string] => [
      name === 'sessions' ? `${path}/` : path,
      stores[name] ?? `the ${name} store (the recorder, the owner's acts, distill)`,
    ]),
    ['sessions/known.log', 'the session recorder: every transcript this home created'],
    ['appraiser/memory.sqlite', "'mecha appraiser add' and the appraiser's other writes"],
    ['appraiser/journal.jsonl', "'mecha appraiser' writes (its recovery journal)"],
    ['appraiser/work.lock', "'mecha appraiser run' (or serve) while it works on the memory"],
    ['appraiser/serve.lock', "'mecha appraiser serve' while it serves the home"],
    [ledgerFile('claude-code'), "'mecha import claude-code' (what was imported)"],
    [ledgerFile('codex'), "'mecha import codex' (what was imported)"],
    [`${ledgerPointers('claude-code')}/`, 'the same imports (where each log is in the ledger)'],
    [`${ledgerPointers('codex')}/`, 'the same imports (where each log is in the ledger)'],
    [nightlyLockFile, "'mecha nightly' while it runs"],
    [reflectLockFile, "'mecha reflect' (and the nightly pass) while it runs"],
    [toolRegistryFile, "a harness's recordToolRegistry() at startup (read by 'mecha tools')"],
    ['slack/posted.jsonl', "'mecha slack' (what it posted, and its retries)"],
  ];
  return entries.map(([path, writtenBy]) => ({
    path,
    present: existsSync(join(home, path)),
    writtenBy,
  }));
}
