import { explainLabel } from '@mecha/appraisal-core';
import { homePorts, openHome, rightOrThrow, sessionReadout } from '@mecha/stores';
import { describe, expect, it } from 'vitest';
import { fixturePath, mecha } from './helpers.js';

const rows = fixturePath('rows');

// `mecha sessions appraise ID` says why its label in the one sentence the web board and Slack
// show (explainLabel over the same reading), on the line after the summary.
describe('the human readout of one session says why its label', () => {
  it.each(['s-rejected', 's-embarrassed', 's-compacted', 's-sent-unchanged'])('%s', async (id) => {
    const found = rightOrThrow(await sessionReadout(homePorts(openHome(rows)), id), id);
    const { sentence } = explainLabel(found.reading);
    const run = mecha(['--home', rows, 'sessions', 'appraise', id]);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[1]).toBe(`  ${sentence}`);
  });
});
