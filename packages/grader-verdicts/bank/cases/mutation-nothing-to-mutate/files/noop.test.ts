import assert from 'node:assert/strict';
import { test } from 'node:test';
import { noop } from './noop.js';

test('noop returns nothing', () => {
  assert.equal(noop(), undefined);
});
