import Database from 'better-sqlite3';
import { AppraiserInputError } from './appraiser-error.js';

/** The schema version this build writes; `PRAGMA user_version` holds the file's. */
export const memorySchemaVersion = 2;

// Described table by table in docs/appraiser.md; change both together.
const schema = `
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE controls (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('flags', 'limits', 'policy', 'import')),
  value TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'applied', 'refused')),
  reason TEXT,
  requested_at TEXT NOT NULL,
  applied_at TEXT,
  config_version INTEGER
);
CREATE TABLE task_cues (
  task_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  descriptor TEXT NOT NULL,
  current INTEGER NOT NULL CHECK (current IN (0, 1)),
  recorded_at TEXT NOT NULL,
  PRIMARY KEY (task_id, version)
);
CREATE UNIQUE INDEX task_cues_current ON task_cues (task_id) WHERE current = 1;
CREATE TABLE sources (
  id INTEGER PRIMARY KEY,
  version INTEGER NOT NULL DEFAULT 1,
  text TEXT NOT NULL,
  owner TEXT NOT NULL,
  scope TEXT NOT NULL,
  subject TEXT,
  task_id TEXT,
  available INTEGER NOT NULL DEFAULT 1 CHECK (available IN (0, 1)),
  retained_at TEXT NOT NULL
);
CREATE TABLE queue (
  id INTEGER PRIMARY KEY,
  source_id INTEGER NOT NULL UNIQUE REFERENCES sources(id),
  processor TEXT NOT NULL,
  config_version INTEGER NOT NULL,
  task_descriptor TEXT,
  created_at TEXT NOT NULL
);
CREATE TABLE queue_versions (
  queue_id INTEGER NOT NULL REFERENCES queue(id),
  version INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'complete', 'refused', 'interrupted')),
  reason TEXT,
  at TEXT NOT NULL,
  PRIMARY KEY (queue_id, version)
);
CREATE UNIQUE INDEX queue_one_completion ON queue_versions (queue_id) WHERE state = 'complete';
CREATE TABLE assessments (
  id INTEGER PRIMARY KEY,
  schema INTEGER NOT NULL CHECK (schema IN (1, 2)),
  queue_id INTEGER UNIQUE REFERENCES queue(id),
  source_id INTEGER NOT NULL REFERENCES sources(id),
  subject TEXT NOT NULL,
  owner TEXT NOT NULL,
  scope TEXT NOT NULL,
  processor TEXT NOT NULL,
  model TEXT NOT NULL,
  support INTEGER NOT NULL CHECK (support IN (0, 1)),
  benefit INTEGER,
  harm INTEGER,
  arousal INTEGER,
  consequence INTEGER NOT NULL CHECK (consequence BETWEEN 0 AND 4),
  confidence INTEGER,
  evidence TEXT NOT NULL,
  task TEXT,
  commitment TEXT,
  correction INTEGER,
  quotes TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('current', 'superseded', 'withdrawn', 'protected', 'expired')),
  created_at TEXT NOT NULL
);
CREATE TABLE relationships (
  id INTEGER PRIMARY KEY,
  assessment_id INTEGER NOT NULL UNIQUE REFERENCES assessments(id),
  queue_id INTEGER UNIQUE REFERENCES queue(id),
  subject TEXT NOT NULL,
  owner TEXT NOT NULL,
  scope TEXT NOT NULL,
  task_id TEXT,
  regard_gain INTEGER,
  regard_loss INTEGER,
  trust_gain INTEGER,
  trust_loss INTEGER,
  exposure INTEGER NOT NULL CHECK (exposure = 1),
  spans TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('current', 'superseded', 'withdrawn', 'protected', 'expired'))
);
CREATE TABLE supersessions (
  superseded INTEGER NOT NULL UNIQUE REFERENCES assessments(id),
  by_assessment INTEGER NOT NULL REFERENCES assessments(id),
  at TEXT NOT NULL
);
CREATE INDEX assessments_by_subject ON assessments (subject, owner, scope, id DESC);
`;

// Schema 2: shared context leases, each with the revision and rendering it was given.
const sharedLeases = `
CREATE TABLE shared_leases (
  id INTEGER PRIMARY KEY,
  revision INTEGER NOT NULL,
  policy INTEGER NOT NULL,
  owner TEXT NOT NULL,
  scope TEXT NOT NULL,
  request TEXT NOT NULL,
  groups TEXT NOT NULL,
  system TEXT NOT NULL,
  text TEXT NOT NULL,
  created_at TEXT NOT NULL
);
`;

// Added without a new schema version: an older build ignores the table, and every build that
// knows it creates it when missing. Runs asked of a serving process (`mecha appraiser serve`).
const runRequests = `
CREATE TABLE IF NOT EXISTS run_requests (
  id INTEGER PRIMARY KEY,
  background INTEGER NOT NULL CHECK (background IN (0, 1)),
  pid INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('waiting', 'running', 'done')),
  report TEXT,
  requested_at TEXT NOT NULL,
  done_at TEXT
);
`;

/**
 * Opens (creating when new) the appraiser's memory: one SQLite file in WAL mode with foreign
 * keys on. A file written by a newer build is refused rather than misread.
 */
export function openMemoryDatabase(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version === 0) {
    db.transaction(() => {
      db.exec(schema);
      db.exec(sharedLeases);
      db.pragma(`user_version = ${memorySchemaVersion}`);
    }).immediate();
  } else if (version === 1) {
    // A schema-1 file gains the lease table; everything it holds stays as it is.
    db.transaction(() => {
      db.exec(sharedLeases);
      db.pragma(`user_version = ${memorySchemaVersion}`);
    }).immediate();
  } else if (version > memorySchemaVersion) {
    db.close();
    throw new AppraiserInputError(
      `${path} was written by a newer mecha (memory schema ${version}); this build reads ${memorySchemaVersion}. Upgrade mecha to open it.`,
    );
  }
  db.exec(runRequests);
  return db;
}
