import { fileURLToPath } from 'node:url';
import { bundleForBrowser } from '@mecha/vitest-config/browser-bundle';
import { describe, expect, it } from 'vitest';

// Paths held in variables: the test reads what was built, not the sources.
const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const nodeEntry = fileURLToPath(new URL('../dist/node.js', import.meta.url));

describe('the built @mecha/homeostat', () => {
  it('exposes exactly its public surface', async () => {
    const api = await import(entry);
    expect(Object.keys(api).sort()).toEqual([
      'boredomDetector',
      'boredomRungs',
      'briefHeading',
      'charterReadings',
      'charterSensorFindings',
      'couldNotRead',
      'detectBoredom',
      'finishConditions',
      'meetsSetpoint',
      'ownerTime',
      'parseRecordedConditions',
      'pendingCommitments',
      'planningGuidance',
      'readValue',
      'recordedConditions',
      'renderBrief',
      'replayContext',
      'sampleConditions',
      'saturationRuns',
      'shouldSendBrief',
      'summarizeBoard',
      'voiceState',
    ]);
  });

  it('bundles for a browser with no Node module', async () => {
    const result = await bundleForBrowser(entry);
    expect(result.errors).toEqual([]);
    expect(result.ok).toBe(true);
  });
});

describe('the built @mecha/homeostat/node', () => {
  it('exposes only the machine sensors', async () => {
    const api = await import(nodeEntry);
    expect(Object.keys(api).sort()).toEqual(['machineSensors']);
  });

  it('gives live readings through the built entry', async () => {
    const { machineSensors } = await import(nodeEntry);
    const sensors = machineSensors();
    expect((await sensors.memAvailableKb()).state).toBe('read');
  });
});
