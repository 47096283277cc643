import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  escapeText,
  isPostgresUrl,
  numberedPlaceholders,
  redactedUrl,
  unescapeText,
} from './postgres-backend.js';

describe('the U+0000 escape PostgreSQL text needs', () => {
  it('round-trips any string, leaves no U+0000, and keeps length as stored minus U+FFFF count', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom('\u0000', '\uFFFF', '0', '1', 'a', 'é', '\uD83D\uDE00'),
        }),
        (text) => {
          const stored = escapeText(text);
          expect(stored).not.toContain('\u0000');
          expect(unescapeText(stored)).toBe(text);
          expect(stored.replaceAll('\uFFFF', '').length).toBe(text.length);
        },
      ),
    );
  });

  it('leaves text without either character untouched', () => {
    expect(escapeText('plain 0 and 1')).toBe('plain 0 and 1');
    expect(unescapeText('plain 0 and 1')).toBe('plain 0 and 1');
  });
});

describe('numberedPlaceholders', () => {
  it('numbers ? outside quotes only', () => {
    expect(numberedPlaceholders(`SELECT '?' AS "a?b", x FROM t WHERE a = ? AND b = ?`)).toBe(
      `SELECT '?' AS "a?b", x FROM t WHERE a = $1 AND b = $2`,
    );
    expect(numberedPlaceholders(`SELECT 'it''s ?', ?`)).toBe(`SELECT 'it''s ?', $1`);
  });
});

describe('connection URLs', () => {
  it('tells a PostgreSQL URL from a file path', () => {
    expect(isPostgresUrl('postgres://h/db')).toBe(true);
    expect(isPostgresUrl('postgresql://u:p@h:5432/db')).toBe(true);
    expect(isPostgresUrl('/home/you/postgres://x')).toBe(false);
    expect(isPostgresUrl('graph.db')).toBe(false);
  });

  it('masks the password before a URL is printed', () => {
    expect(redactedUrl('postgres://team:s3cret@db.internal:5432/graph')).toBe(
      'postgres://team:***@db.internal:5432/graph',
    );
    expect(redactedUrl('postgres://db.internal/graph')).toBe('postgres://db.internal/graph');
    expect(redactedUrl('postgres://team:s3cret@db.internal/graph')).not.toContain('s3cret');
  });

  it('masks a password or key passphrase given in the query string, which the driver also takes', () => {
    const shown = redactedUrl(
      'postgres://team@db.internal/graph?password=s3cret&sslpassword=k3y&sslmode=require',
    );
    expect(shown).not.toMatch(/s3cret|k3y/);
    expect(shown).toContain('sslmode=require');
  });
});
