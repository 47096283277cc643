import assert from 'node:assert/strict';
import { test } from 'node:test';
import { slugify } from './slugify.js';

test('joins lower-case words with hyphens', () => {
  assert.equal(slugify('Hello World'), 'hello-world');
});

test('drops punctuation and collapses runs of separators', () => {
  assert.equal(slugify('  Earn the verdict!  Now... '), 'earn-the-verdict-now');
});
