import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bearerMatches, hostnameOf, isLoopback } from './http-server.js';

describe('isLoopback', () => {
  it('knows the names and addresses only this machine can reach', () => {
    for (const host of ['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '::1', '[::1]']) {
      expect(isLoopback(host)).toBe(true);
    }
    for (const host of ['0.0.0.0', '10.0.0.1', 'evil.example', 'localhost.evil.example', '::']) {
      expect(isLoopback(host)).toBe(false);
    }
  });
});

describe('hostnameOf', () => {
  it('reads the name of a Host header and nothing that merely contains one', () => {
    expect(hostnameOf('localhost')).toBe('localhost');
    expect(hostnameOf('127.0.0.1:7411')).toBe('127.0.0.1');
    expect(hostnameOf('[::1]:7411')).toBe('[::1]');
    for (const header of ['evil.example@127.0.0.1', '127.0.0.1/x', '', 'a b', 'localhost:port']) {
      expect(hostnameOf(header)).toBeUndefined();
    }
  });
});

describe('bearerMatches', () => {
  it('accepts exactly "Bearer <token>"', () => {
    expect(bearerMatches('Bearer s3cret', 's3cret')).toBe(true);
    expect(bearerMatches('bearer s3cret', 's3cret')).toBe(true);
    expect(bearerMatches(undefined, 's3cret')).toBe(false);
    expect(bearerMatches('s3cret', 's3cret')).toBe(false);
    expect(bearerMatches('Basic s3cret', 's3cret')).toBe(false);
    expect(bearerMatches('Bearer s3cret ', 's3cret')).toBe(false);
    expect(bearerMatches('Bearer s3cre', 's3cret')).toBe(false);
  });

  it('matches a presented token if and only if it equals the expected one', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.string({ minLength: 1 }),
        (presented, expected) => {
          expect(bearerMatches(`Bearer ${presented}`, expected)).toBe(presented === expected);
          expect(bearerMatches(`Bearer ${expected}`, expected)).toBe(true);
        },
      ),
    );
  });
});
