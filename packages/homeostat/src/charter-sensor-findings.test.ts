import type { CharterReadingRecord } from '@mecha/appraisal-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { charterSensorFindings, saturationRuns } from './charter-sensor-findings.js';

const reading = (
  state: CharterReadingRecord['state'],
  level?: number,
  line = 'replies',
): CharterReadingRecord => ({
  line,
  rank: 1,
  sensor: 'outbox_age',
  store: 'outbox',
  state,
  setpoint_ms: 7_200_000,
  setpoint_source: 'setpoint',
  ...(level === undefined ? {} : { level_ms: level }),
  withdrawn_saturated: false,
});

const runsOf = (readings: CharterReadingRecord[]) => readings.map((one) => [one]);

describe('charterSensorFindings', () => {
  it('finds a line pinned past its setpoint in every run', () => {
    const [finding] = charterSensorFindings(
      runsOf(Array.from({ length: 6 }, (_, index) => reading('past_setpoint', 9e6 + index))),
    );
    expect(finding).toMatchObject({
      line: 'replies',
      setpointMs: 7_200_000,
      setpointSource: 'setpoint',
      runsRead: 6,
      runsPastSetpoint: 6,
      finding: 'pinned',
    });
  });

  it('finds a sensor that never moves', () => {
    const [finding] = charterSensorFindings(
      runsOf(Array.from({ length: 5 }, () => reading('within', 1_000))),
    );
    expect(finding?.finding).toBe('never_moving');
  });

  it('says a line no run could read, never that it is within its setpoint', () => {
    const [finding] = charterSensorFindings(runsOf([reading('unread'), reading('partial', 5)]));
    expect(finding).toMatchObject({ finding: 'never_read', runsRead: 0, runsNotRead: 2 });
  });

  it('calls nothing saturated with too few runs, and a moving sensor ok', () => {
    expect(charterSensorFindings(runsOf([reading('past_setpoint', 9e6)]))[0]?.finding).toBe(
      'too_few_runs',
    );
    const moving = [1, 2, 3, 4, 5].map((level) => reading('within', level * 1000));
    expect(charterSensorFindings(runsOf(moving))[0]?.finding).toBe('ok');
  });

  it('counts every reading once, whatever the runs', () => {
    const state = fc.constantFrom('within', 'past_setpoint', 'no_items', 'partial', 'unread');
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.tuple(state, fc.constantFrom('a', 'b')), { maxLength: 3 }), {
          maxLength: 12,
        }),
        (runs) => {
          const findings = charterSensorFindings(
            runs.map((run) => run.map(([one, line]) => reading(one, 1000, line))),
          );
          const total = runs.flat().length;
          expect(findings.reduce((sum, f) => sum + f.runsRead + f.runsNotRead, 0)).toBe(total);
          for (const finding of findings) {
            expect(finding.runsPastSetpoint).toBeLessThanOrEqual(finding.runsRead);
            if (finding.finding === 'pinned') {
              expect(finding.runsRead).toBeGreaterThanOrEqual(saturationRuns);
              expect(finding.runsPastSetpoint).toBe(finding.runsRead);
            }
          }
        },
      ),
    );
  });
});
