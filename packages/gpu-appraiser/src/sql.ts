// Every SQL statement the appraiser runs against its memory, in one place, by concept. The
// tables are created in memory-schema.ts and described in docs/appraiser.md.

/** The latest state of a queue object, as a correlated subquery on `q.id`. */
const latestState =
  '(SELECT state FROM queue_versions v WHERE v.queue_id = q.id ORDER BY version DESC LIMIT 1)';

/** Settings: the applied configuration, the hold and its waiter. */
export const settingsSql = {
  get: 'SELECT value FROM settings WHERE key = ?',
  put: 'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  remove: 'DELETE FROM settings WHERE key = ?',
} as const;

/** Controls: recorded, pending until a quiet boundary, then applied (or refused at once). */
export const controlSql = {
  record: "INSERT INTO controls (kind, value, state, requested_at) VALUES (?, ?, 'pending', ?)",
  refuseLimits:
    "INSERT INTO controls (kind, value, state, reason, requested_at) VALUES ('limits', ?, 'refused', ?, ?)",
  latestPendingFlags:
    "SELECT value FROM controls WHERE kind = 'flags' AND state = 'pending' ORDER BY id DESC LIMIT 1",
  byState: 'SELECT id, kind, value, state, reason FROM controls WHERE state = ? ORDER BY id',
  markApplied:
    "UPDATE controls SET state = 'applied', applied_at = ?, config_version = ? WHERE id = ?",
  newestId: 'SELECT MAX(id) AS id FROM controls',
  anySince: "SELECT 1 FROM controls WHERE state <> 'refused' AND id > ? LIMIT 1",
} as const;

/** Task cues: the authored descriptors task trust is checked against. */
export const taskCueSql = {
  lastVersion: 'SELECT MAX(version) AS v FROM task_cues WHERE task_id = ?',
  retire: 'UPDATE task_cues SET current = 0 WHERE task_id = ?',
  insert:
    'INSERT INTO task_cues (task_id, version, descriptor, current, recorded_at) VALUES (?, ?, ?, 1, ?)',
  current: 'SELECT descriptor FROM task_cues WHERE task_id = ? AND current = 1',
} as const;

/** Sources and the queue with its versions. */
export const queueSql = {
  insertSource:
    'INSERT INTO sources (text, owner, scope, subject, task_id, retained_at) VALUES (?, ?, ?, ?, ?, ?)',
  source: 'SELECT * FROM sources WHERE id = ?',
  withdrawSource: 'UPDATE sources SET available = 0 WHERE id = ?',
  insertQueue:
    'INSERT INTO queue (source_id, processor, config_version, task_descriptor, created_at) VALUES (?, ?, ?, ?, ?)',
  queue: 'SELECT * FROM queue WHERE id = ?',
  state: 'SELECT state FROM queue_versions WHERE queue_id = ? ORDER BY version DESC LIMIT 1',
  lastVersion: 'SELECT MAX(version) AS v FROM queue_versions WHERE queue_id = ?',
  insertVersion:
    'INSERT INTO queue_versions (queue_id, version, state, reason, at) VALUES (?, ?, ?, ?, ?)',
  pending: `SELECT q.* FROM queue q
         WHERE q.processor = ? AND ${latestState} = 'pending'
         ORDER BY q.id LIMIT ?`,
  retryable: `SELECT q.id FROM queue q WHERE ${latestState} IN ('refused', 'interrupted') ORDER BY q.id`,
  countsByState: `SELECT ${latestState} AS state, COUNT(*) AS n
         FROM queue q WHERE q.processor = ? GROUP BY state`,
  boundElsewhere: 'SELECT COUNT(*) AS n FROM queue WHERE processor <> ?',
  sourceCount: 'SELECT COUNT(*) AS n FROM sources',
} as const;

/** Assessments, their relationships and supersessions: what a completed queue object publishes. */
export const assessmentSql = {
  correctionCandidates: `SELECT a.id, a.evidence FROM assessments a JOIN sources s ON s.id = a.source_id
         WHERE a.subject = ? AND a.owner = ? AND a.scope = ? AND a.status = 'current'
           AND s.available = 1 AND a.source_id <> ?
         ORDER BY a.id DESC LIMIT ?`,
  insert: `INSERT INTO assessments (schema, queue_id, source_id, subject, owner, scope, processor, model,
              support, benefit, harm, arousal, consequence, confidence, evidence, task, commitment,
              correction, quotes, status, created_at)
             VALUES (2, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'current', ?)`,
  insertRelationship: `INSERT INTO relationships (assessment_id, queue_id, subject, owner, scope, task_id,
            regard_gain, regard_loss, trust_gain, trust_loss, exposure, spans, status)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, 'current')`,
  supersede: "UPDATE assessments SET status = 'superseded' WHERE id = ? AND status = 'current'",
  supersedeRelationship:
    "UPDATE relationships SET status = 'superseded' WHERE assessment_id = ? AND status = 'current'",
  insertSupersession: 'INSERT INTO supersessions (superseded, by_assessment, at) VALUES (?, ?, ?)',
  relationship: 'SELECT * FROM relationships WHERE assessment_id = ?',
  all: 'SELECT * FROM assessments ORDER BY id',
  bySubject: 'SELECT * FROM assessments WHERE subject = ? ORDER BY id',
  countCurrent: "SELECT COUNT(*) AS n FROM assessments WHERE status = 'current'",
  countSuperseded: "SELECT COUNT(*) AS n FROM assessments WHERE status = 'superseded'",
} as const;

/** Recall and shared context leases. */
export const recallSql = {
  sourcesInScope: 'SELECT * FROM sources WHERE scope = ? AND available = 1 ORDER BY id DESC',
  currentAppraisal: `SELECT a.*, r.id AS relationship_id, r.task_id AS rel_task, r.regard_gain, r.regard_loss, r.trust_gain, r.trust_loss
       FROM assessments a JOIN relationships r ON r.assessment_id = a.id
       WHERE a.source_id = ? AND a.schema = 2 AND a.status = 'current' AND r.status = 'current'`,
  insertLease: `INSERT INTO shared_leases (revision, policy, owner, scope, request, groups, system, text, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  lease: 'SELECT * FROM shared_leases WHERE id = ?',
} as const;

/** Runs asked of a serving process, and their reports. */
export const serveSql = {
  request:
    "INSERT INTO run_requests (background, pid, state, requested_at) VALUES (?, ?, 'waiting', ?)",
  read: 'SELECT state, report FROM run_requests WHERE id = ?',
  oldestWaiting:
    "SELECT id, background FROM run_requests WHERE state = 'waiting' ORDER BY id LIMIT 1",
  start: "UPDATE run_requests SET state = 'running' WHERE id = ? AND state = 'waiting'",
  done: "UPDATE run_requests SET state = 'done', report = ?, done_at = ? WHERE id = ?",
  // A request left running by a server that died is answered, never left waiting forever.
  abandon:
    "UPDATE run_requests SET state = 'done', report = ?, done_at = ? WHERE state = 'running'",
} as const;
