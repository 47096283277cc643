/**
 * The maximum over a run's turns — how close the run came, never a sum. Absent (undefined)
 * when no turn recorded a reading: a sensor that could not be read is not a reading of 0.
 */
export function peakReading(readings: readonly (number | undefined)[]): number | undefined {
  let peak: number | undefined;
  for (const reading of readings) {
    if (reading === undefined || Number.isNaN(reading)) continue;
    if (peak === undefined || reading > peak) peak = reading;
  }
  return peak;
}
