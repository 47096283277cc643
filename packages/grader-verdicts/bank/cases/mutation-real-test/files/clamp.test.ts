import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clamp } from './clamp.js';

test('clamp keeps a value inside the range', () => {
  assert.equal(clamp(5, 0, 10), 5);
});

test('clamp raises a low value and lowers a high one', () => {
  assert.equal(clamp(-3, 0, 10), 0);
  assert.equal(clamp(13, 0, 10), 10);
});

test('clamp keeps the bounds themselves', () => {
  assert.equal(clamp(0, 0, 10), 0);
  assert.equal(clamp(10, 0, 10), 10);
});
