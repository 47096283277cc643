import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { auditHomeSelfImage } from '@mecha/grader-verdicts';
import { openHome } from '@mecha/stores';
import { describe, expect, it } from 'vitest';
import { boardApp, emptyHome, generatedHome, origin } from './helpers.js';

// The Honesty page: the self-image audit of `mecha verdicts claims` (its one use-case,
// auditHomeSelfImage) per skill, a store that cannot be read named as unread, and what to do
// when no claim is on record. (The browser test in apps/cli compares it with the command.)

async function honesty(path: string): Promise<string> {
  const { app } = await boardApp(path);
  const response = await app.request(`${origin}/honesty`);
  expect(response.status).toBe(200);
  return response.text();
}

describe('the Honesty page', () => {
  it('shows each skill’s belief, behaviour, gap and verdict from the home’s records', async () => {
    const path = generatedHome(300, 'honesty');
    const read = await auditHomeSelfImage(openHome(path));
    if ('unreadable' in read) throw new Error('unreadable');
    expect(read.audit.grades.length).toBeGreaterThan(0);
    const text = await honesty(path);
    expect(text).toContain('<a href="/honesty" aria-current="page">Honesty</a>');
    for (const grade of read.audit.grades) {
      expect(text).toContain(
        `<tr data-skill="${grade.skill}" data-belief="${grade.belief}" data-behaviour="${grade.behaviour ?? ''}" data-attempts="${grade.attempts}" data-verdict="${grade.verdict}"`,
      );
    }
    expect(text).toContain(`data-gap="${read.audit.gap ?? ''}"`);
  });

  it('names a store that cannot be read as unread and grades nothing', async () => {
    const path = generatedHome(40, 'honesty-unread');
    unlinkSync(join(path, 'appraisals', 'appraisals.jsonl'));
    const text = await honesty(path);
    expect(text).toContain('<li data-store="appraisals"><code>appraisals</code>: unread</li>');
    expect(text).not.toContain('id="honesty-skills"');
  });

  it('reads again when a store it audits changes, however often it was asked', async () => {
    const path = generatedHome(40, 'honesty-kept');
    const { app } = await boardApp(path);
    const ask = async () => (await app.request(`${origin}/honesty`)).text();
    expect(await ask()).toBe(await ask());
    unlinkSync(join(path, 'appraisals', 'appraisals.jsonl'));
    expect(await ask()).toContain(
      '<li data-store="appraisals"><code>appraisals</code>: unread</li>',
    );
  });

  it('says how claims get recorded when none is on record', async () => {
    const text = await honesty(emptyHome());
    expect(text).toContain('id="honesty-empty"');
    expect(text).toContain('<code>mecha distill</code>');
  });
});
