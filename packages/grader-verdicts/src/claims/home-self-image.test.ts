import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateHome } from '@mecha/fixtures/home';
import { openHome } from '@mecha/stores';
import { afterAll, describe, expect, it } from 'vitest';
import { readGapHistory } from './gap-history.js';
import { auditHomeSelfImage } from './home-self-image.js';
import { auditSelfImage } from './self-claims.js';
import { readSkillEvidence } from './skill-evidence-from-records.js';

describe('the self-image audit of a home', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const home = () => {
    const parent = mkdtempSync(join(tmpdir(), 'mecha-home-self-image-'));
    dirs.push(parent);
    const path = join(parent, 'home');
    generateHome({ path, seed: 'home-self-image', sessions: 300, tornRate: 0 });
    return { parent, path };
  };

  it('audits the evidence the records hold, and returns those records', async () => {
    const { path } = home();
    const evidence = await readSkillEvidence(openHome(path));
    if ('unreadable' in evidence) throw new Error('unreadable');
    expect(evidence.skills.length).toBeGreaterThan(0);
    expect(await auditHomeSelfImage(openHome(path))).toEqual({
      audit: auditSelfImage(evidence.skills),
      records: evidence,
    });
  });

  it('records the gap when given a history, and reads its trend', async () => {
    const { parent, path } = home();
    const history = join(parent, 'gap.jsonl');
    const result = await auditHomeSelfImage(openHome(path), { path: history, at: new Date(0) });
    if ('unreadable' in result) throw new Error('unreadable');
    expect(result.audit.recorded).toBe(result.audit.gap !== null);
    expect(readGapHistory(history).readings).toHaveLength(result.audit.gap === null ? 0 : 1);
    expect(result.audit.trend).toEqual({ status: 'too little history', slope: null });
  });

  it('grades nothing and names the store when one cannot be read', async () => {
    const { path } = home();
    unlinkSync(join(path, 'appraisals', 'appraisals.jsonl'));
    expect(await auditHomeSelfImage(openHome(path))).toEqual({ unreadable: ['appraisals'] });
  });
});
