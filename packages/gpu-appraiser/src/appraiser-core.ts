import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { type AppraisalLimits, defaultAppraisalLimits } from './appraisal-limits.js';
import { type AppraisalPolicy, defaultFlags } from './controls.js';
import { Journal, type JournalRead } from './journal.js';
import { openMemoryDatabase } from './memory-schema.js';
import { settingsSql } from './sql.js';

/** The applied settings of a memory, read from its `settings` table each time. */
export interface Settings {
  get(key: string): string | undefined;
  put(key: string, value: string): void;
  remove(key: string): void;
  flags(): number;
  policy(): AppraisalPolicy;
  imported(): boolean;
  configVersion(): number;
  limits(): AppraisalLimits;
}

/** What the run in this process, if any, shares with the controls recorded here. */
export interface RunningState {
  active: AbortController | undefined;
  /** Why the active run's controller was aborted by the appraiser itself. */
  activeReason: 'control' | undefined;
  /** Whether this handle holds `work.lock` (runs while it does). */
  holdingLock: boolean;
}

/** What recovery found and did, for `status`. */
export interface RecoveryState {
  read: JournalRead;
  readonly recovered: { interrupted: number; applied: number; refused: number };
  /** Recovery waits while another live process works on this memory; it runs when that ends. */
  deferred: boolean;
}

/** One open memory: the database, the journal, the work lock and the state the concepts share. */
export interface AppraiserCore {
  readonly directory: string;
  readonly db: Database.Database;
  readonly journal: Journal;
  readonly workLock: string;
  readonly now: () => string;
  readonly settings: Settings;
  readonly running: RunningState;
  readonly recovery: RecoveryState;
}

function settingsOf(db: Database.Database): Settings {
  const get = (key: string): string | undefined =>
    (db.prepare(settingsSql.get).get(key) as { value: string } | undefined)?.value;
  return {
    get,
    put: (key, value) => {
      db.prepare(settingsSql.put).run(key, value);
    },
    remove: (key) => {
      db.prepare(settingsSql.remove).run(key);
    },
    flags: () => Number(get('flags') ?? defaultFlags),
    policy: () => (get('policy') ?? 'run') as AppraisalPolicy,
    imported: () => get('imported') === '1',
    configVersion: () => Number(get('config_version') ?? 0),
    limits: () => ({
      ...defaultAppraisalLimits,
      ...(JSON.parse(get('limits') ?? '{}') as Partial<AppraisalLimits>),
    }),
  };
}

/** Opens the memory and journal in `directory` (created when missing); recovery is not run here. */
export function openCore(directory: string, clock: () => Date): AppraiserCore {
  mkdirSync(directory, { recursive: true });
  const db = openMemoryDatabase(join(directory, 'memory.sqlite'));
  return {
    directory,
    db,
    journal: new Journal(join(directory, 'journal.jsonl')),
    workLock: join(directory, 'work.lock'),
    now: () => clock().toISOString(),
    settings: settingsOf(db),
    running: { active: undefined, activeReason: undefined, holdingLock: false },
    recovery: {
      read: { records: [], tornBytes: 0, unreadableLines: 0 },
      recovered: { interrupted: 0, applied: 0, refused: 0 },
      deferred: false,
    },
  };
}
