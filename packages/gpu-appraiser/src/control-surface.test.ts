import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { leftOrThrow, rightOrThrow } from '@mecha/errors';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedAppraiserModel } from './__fixtures__/scripted-appraiser.js';
import { appraisalLimitRanges, defaultAppraisalLimits } from './appraisal-limits.js';
import { openAppraiser } from './appraiser.js';
import { AppraiserInputError } from './appraiser-error.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function directory(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mecha-appraiser-surface-'));
  dirs.push(dir);
  return dir;
}

describe('the configuration each control answers with', () => {
  it('folds every pending control in order; a refusal shows what stands', () => {
    const appraiser = openAppraiser({ directory: directory() });
    appraiser.setAppraisal('on');
    const paused = rightOrThrow(appraiser.setPolicy('paused'));
    expect(paused).toMatchObject({
      configuration: {
        flags: { writes: true, recall: true, background: false },
        policy: 'paused',
        imported: false,
      },
    });
    const rows = rightOrThrow(appraiser.setLimits({ sourceRows: 8 }));
    expect(rows.configuration.limits).toEqual({ ...defaultAppraisalLimits, sourceRows: 8 });
    const refused = leftOrThrow(appraiser.setLimits({ sourceRows: 65, pagesPerSequence: 0 }));
    expect(refused.kind).toBe('rejected');
    // Nothing changed by the refusal: the configuration still has the pending 8 rows.
    expect(refused.configuration.limits.sourceRows).toBe(8);
    expect(appraiser.configuration()).toEqual({
      ...paused.configuration,
      limits: rows.configuration.limits,
    });
    // Applying yields exactly the projected configuration.
    const projected = appraiser.configuration();
    appraiser.applyPending();
    const status = appraiser.status();
    expect({
      flags: status.flags,
      policy: status.policy,
      imported: status.imported,
      limits: status.limits,
    }).toEqual(projected);
    appraiser.close();
  });

  it('imports a previous configuration as recall only; bad flags are refused', () => {
    const appraiser = openAppraiser({ directory: directory() });
    expect(rightOrThrow(appraiser.importConfiguration({ flags: 3 })).configuration).toMatchObject({
      imported: true,
      flags: { writes: true, recall: true },
    });
    expect(() => appraiser.importConfiguration({ flags: 9 })).toThrow(AppraiserInputError);
    expect(rightOrThrow(appraiser.setAppraisal('off')).configuration.imported).toBe(false);
    appraiser.close();
  });

  it('accepts a limit exactly when it lies in its published range', () => {
    const appraiser = openAppraiser({ directory: directory() });
    const fields = Object.keys(appraisalLimitRanges) as (keyof typeof appraisalLimitRanges)[];
    fc.assert(
      fc.property(
        fc.constantFrom(...fields),
        fc.oneof(fc.integer({ min: -10, max: 5000 }), fc.constantFrom(1_000_000, 1_000_001)),
        (field, value) => {
          const [min, max] = appraisalLimitRanges[field];
          const result = appraiser.setLimits({ [field]: value });
          expect(result._tag).toBe(value >= min && value <= max ? 'Right' : 'Left');
        },
      ),
    );
    appraiser.close();
  });
});

describe('the scheduler hold in one process', () => {
  it('starts no model call while held and resumes on release', async () => {
    const model = scriptedAppraiserModel(() => ({ quotes: [] }));
    const appraiser = openAppraiser({ directory: directory(), model });
    appraiser.setAppraisal('on');
    appraiser.retainSource({ text: 'Bob fixed it.', owner: 'a', scope: 's', subject: 'bob' });
    appraiser.hold();
    const run = appraiser.run();
    const other = openAppraiser({ directory: appraiser.directory });
    while (other.status().hold.waiting !== process.pid) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(model.prompts).toHaveLength(0);
    other.release();
    const report = await run;
    expect(report).toMatchObject({ state: 'done', modelCalls: 2 });
    expect(other.status().hold).toEqual({ held: false, waiting: null });
    other.close();
    appraiser.close();
  });
});
