import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clamp } from './clamp.js';

test('clamp exists', () => {
  assert.ok(typeof clamp === 'function');
  assert.ok(true);
});
