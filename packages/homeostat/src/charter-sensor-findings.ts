import type { CharterReadingRecord } from '@mecha/appraisal-core';

/** What the recent runs say of one sensored charter line, for `mecha doctor`. */
export interface CharterSensorFinding {
  readonly line: string;
  readonly sensor: CharterReadingRecord['sensor'];
  /** The threshold in force at the newest reading, and where it came from. */
  readonly setpointMs: number;
  readonly setpointSource: CharterReadingRecord['setpoint_source'];
  /** Runs whose reading of the line was taken whole, and runs where it was not. */
  readonly runsRead: number;
  readonly runsNotRead: number;
  readonly runsPastSetpoint: number;
  /**
   * `pinned`: past its setpoint in every run read; `never_moving`: the same waiting level in
   * every run read; `never_read`: no run could read it; `ok` otherwise or with too few runs.
   */
  readonly finding: 'pinned' | 'never_moving' | 'never_read' | 'ok' | 'too_few_runs';
}

/** Fewer whole readings than this say nothing about saturation. */
export const saturationRuns = 5;

/**
 * Reads the charter readings recorded at the start of recent runs (oldest first, one array per
 * run) into one finding per sensored line: its threshold, and whether the sensor is saturated
 * (pinned past its setpoint, or never moving), so the owner can tell a setpoint that no longer
 * discriminates from a store that really waits. A reading cut short or not taken is counted
 * apart and never as within the setpoint.
 */
export function charterSensorFindings(
  runs: readonly (readonly CharterReadingRecord[])[],
): CharterSensorFinding[] {
  const byLine = new Map<string, CharterReadingRecord[]>();
  for (const readings of runs) {
    for (const reading of readings) {
      const list = byLine.get(reading.line) ?? [];
      list.push(reading);
      byLine.set(reading.line, list);
    }
  }
  const findings: CharterSensorFinding[] = [];
  for (const [line, readings] of [...byLine.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const newest = readings[readings.length - 1] as CharterReadingRecord;
    const whole = readings.filter(
      (reading) => reading.state !== 'partial' && reading.state !== 'unread',
    );
    const past = whole.filter((reading) => reading.state === 'past_setpoint').length;
    const levels = new Set(whole.map((reading) => reading.level_ms ?? 0));
    let finding: CharterSensorFinding['finding'] = 'ok';
    if (whole.length === 0) finding = 'never_read';
    else if (whole.length < saturationRuns) finding = 'too_few_runs';
    else if (past === whole.length) finding = 'pinned';
    else if (levels.size === 1 && !levels.has(0)) finding = 'never_moving';
    findings.push({
      line,
      sensor: newest.sensor,
      setpointMs: newest.setpoint_ms,
      setpointSource: newest.setpoint_source,
      runsRead: whole.length,
      runsNotRead: readings.length - whole.length,
      runsPastSetpoint: past,
      finding,
    });
  }
  return findings;
}
