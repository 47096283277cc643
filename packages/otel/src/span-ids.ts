import { createHash } from 'node:crypto';

// Ids derived from mecha's own ids, so the same session exported twice lands as the same trace
// with the same spans: a backend that keys on ids sees one trace, never a duplicate.

function digest(parts: readonly string[], bytes: number): string {
  const hash = createHash('sha256');
  // Each part is length-prefixed, so ('ab', 'c') and ('a', 'bc') never collide by joining.
  for (const part of parts) hash.update(`${part.length}:${part}`);
  const hex = hash.digest('hex').slice(0, bytes * 2);
  // An all-zero id is invalid in OTLP; the chance is 2^-64 or less, but never send one.
  return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}

/** The trace id (32 hex digits) of a session: every span of its appraisal lives in it. */
export function traceIdFor(sessionId: string): string {
  return digest(['mecha.session', sessionId], 16);
}

/** The span id (16 hex digits) of a session's own span, or of one of its runs. */
export function spanIdFor(sessionId: string, runId?: string): string {
  return runId === undefined
    ? digest(['mecha.session.span', sessionId], 8)
    : digest(['mecha.run.span', sessionId, runId], 8);
}
