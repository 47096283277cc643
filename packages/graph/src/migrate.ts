import { MechaError } from '@mecha/errors';
import type { Database } from 'better-sqlite3';

/** The schema version this build writes; `PRAGMA user_version` holds the file's. */
export const schemaVersion = 2;

// Described row by row in docs/graph.md; change both together.
const schema = `
CREATE TABLE sources (
  source TEXT PRIMARY KEY,
  corrections_against INTEGER NOT NULL DEFAULT 0,
  first_seen_at TEXT NOT NULL
);
CREATE TABLE episodes (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  source TEXT NOT NULL REFERENCES sources(source),
  source_id TEXT NOT NULL,
  source_ref TEXT,
  occurred_at TEXT NOT NULL,
  body TEXT NOT NULL,
  meta TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  salience REAL NOT NULL DEFAULT 0,
  version INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  redacted_at TEXT,
  UNIQUE (source, source_id)
);
CREATE INDEX episodes_by_time ON episodes (occurred_at DESC, id DESC);
CREATE TABLE facts (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('entity', 'relation', 'statement')),
  subject TEXT NOT NULL,
  predicate TEXT NOT NULL,
  object TEXT NOT NULL,
  fact_key TEXT NOT NULL,
  subject_key TEXT NOT NULL,
  text_key TEXT NOT NULL,
  status TEXT NOT NULL
    CHECK (status IN ('staged', 'accepted', 'closed', 'denied', 'rejected', 'retracted')),
  origin TEXT NOT NULL CHECK (origin IN ('extractor', 'correction')),
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  closed_at TEXT,
  closed_reason TEXT,
  supersedes INTEGER REFERENCES facts(id),
  created_at TEXT NOT NULL,
  decided_at TEXT,
  CHECK ((status IN ('staged', 'accepted')) = (closed_at IS NULL))
);
CREATE UNIQUE INDEX facts_one_open_per_key ON facts (fact_key) WHERE closed_at IS NULL;
CREATE INDEX facts_by_key ON facts (fact_key);
CREATE INDEX facts_by_text ON facts (text_key) WHERE closed_at IS NULL;
CREATE INDEX facts_by_status ON facts (status, id);
CREATE INDEX facts_by_subject ON facts (subject_key, id);
CREATE TABLE corrections (
  id INTEGER PRIMARY KEY,
  correction_key TEXT NOT NULL UNIQUE,
  source TEXT NOT NULL REFERENCES sources(source),
  source_id TEXT,
  wrong_spec TEXT NOT NULL,
  right_spec TEXT,
  about TEXT,
  status TEXT NOT NULL CHECK (status IN ('applied', 'denied', 'review', 'dismissed')),
  review_reason TEXT,
  candidates TEXT,
  wrong_fact_id INTEGER REFERENCES facts(id),
  replacement_fact_id INTEGER REFERENCES facts(id),
  replacement_blocked INTEGER NOT NULL DEFAULT 0,
  occurred_at TEXT,
  created_at TEXT NOT NULL,
  resolved_at TEXT,
  redacted_at TEXT
);
CREATE INDEX corrections_by_status ON corrections (status, id);
CREATE INDEX corrections_by_source ON corrections (source);
CREATE TABLE support (
  fact_id INTEGER NOT NULL REFERENCES facts(id),
  episode_id INTEGER REFERENCES episodes(id),
  correction_id INTEGER REFERENCES corrections(id),
  via TEXT NOT NULL CHECK (via IN ('extractor', 'correction')),
  created_at TEXT NOT NULL,
  CHECK ((episode_id IS NULL) <> (correction_id IS NULL))
);
CREATE UNIQUE INDEX support_from_episode ON support (fact_id, episode_id, via)
  WHERE episode_id IS NOT NULL;
CREATE UNIQUE INDEX support_from_correction ON support (fact_id, correction_id)
  WHERE correction_id IS NOT NULL;
CREATE INDEX support_by_episode ON support (episode_id) WHERE episode_id IS NOT NULL;
CREATE INDEX support_by_correction ON support (correction_id) WHERE correction_id IS NOT NULL;
CREATE TABLE denials (
  id INTEGER PRIMARY KEY,
  fact_key TEXT NOT NULL UNIQUE,
  text_key TEXT NOT NULL,
  subject TEXT NOT NULL,
  predicate TEXT NOT NULL,
  object TEXT NOT NULL,
  reason TEXT NOT NULL CHECK (reason IN ('correction', 'review')),
  fact_id INTEGER REFERENCES facts(id),
  correction_id INTEGER REFERENCES corrections(id),
  created_at TEXT NOT NULL
);
CREATE INDEX denials_by_text ON denials (text_key);
`;

// Version 2: a full-text index over how facts read, so kg_search's substring match uses an
// index (FTS5's trigram tokenizer answers LIKE '%…%' of three or more characters) instead of
// scanning every fact. Kept in step with facts by triggers; facts are never deleted, but the
// triggers would follow if they were.
const fullText = `
CREATE VIRTUAL TABLE facts_text USING fts5(text_key, content='facts', content_rowid='id', tokenize='trigram');
CREATE TRIGGER facts_text_insert AFTER INSERT ON facts BEGIN
  INSERT INTO facts_text (rowid, text_key) VALUES (new.id, new.text_key);
END;
CREATE TRIGGER facts_text_delete AFTER DELETE ON facts BEGIN
  INSERT INTO facts_text (facts_text, rowid, text_key) VALUES ('delete', old.id, old.text_key);
END;
CREATE TRIGGER facts_text_update AFTER UPDATE OF text_key ON facts BEGIN
  INSERT INTO facts_text (facts_text, rowid, text_key) VALUES ('delete', old.id, old.text_key);
  INSERT INTO facts_text (rowid, text_key) VALUES (new.id, new.text_key);
END;
INSERT INTO facts_text (facts_text) VALUES ('rebuild');
`;

/**
 * Sets the connection up for several processes sharing one file (WAL, a busy timeout, foreign
 * keys) and creates the schema once, under the write lock so two first openers cannot race.
 */
export function migrate(db: Database, busyTimeoutMs: number): void {
  db.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  const version = Number(db.pragma('user_version', { simple: true }));
  if (version === schemaVersion) return;
  db.transaction(() => {
    const current = Number(db.pragma('user_version', { simple: true }));
    if (current === schemaVersion) return;
    if (current > schemaVersion || current < 0) {
      throw new MechaError(
        `the graph database has schema version ${current}, and this build knows only up to ${schemaVersion}: upgrade @mecha/graph or point --db at another file`,
      );
    }
    // Each step upgrades one version, inside this one write transaction.
    if (current < 1) db.exec(schema);
    if (current < 2) db.exec(fullText);
    db.pragma(`user_version = ${schemaVersion}`);
  }).immediate();
}
