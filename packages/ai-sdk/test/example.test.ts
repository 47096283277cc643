// Runs examples/ai-sdk.ts as a user would: a real node process on the built package (its types
// stripped as a build would), against a home this test made, and checks what it prints against
// what the home holds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { homePorts, openHome } from '@mecha/stores';
import { runExample } from '@mecha/vitest-config/run-example';
import { afterEach, beforeEach, expect, it } from 'vitest';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'mecha-ai-sdk-example-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

const packageRoot = fileURLToPath(new URL('..', import.meta.url));

it('examples/ai-sdk.ts records a parked call and the owner denying it, and prints the appraisal', async () => {
  const printed = JSON.parse(runExample(packageRoot, 'ai-sdk.ts', { MECHA_HOME: home })) as {
    home: string;
    session: string;
    runs: { events: string[]; stopCause: string; label: string; valence: { negative: number } }[];
  };
  expect(printed.home).toBe(home);
  expect(printed.runs.map((run) => run.stopCause)).toEqual(['parked', 'completed']);
  expect(printed.runs[1]?.events).toEqual([
    'run_start',
    'message',
    'intervention',
    'tool_result',
    'message',
    'run_end',
  ]);
  // The denial is a negative reading; the parked run before it signed nothing.
  expect(printed.runs[0]?.valence.negative).toBe(0);
  expect(printed.runs[1]?.valence.negative).toBeGreaterThan(0);
  // What it printed is what the home holds: one owner act, from the approval response.
  const read = await homePorts(openHome(home)).sessions.transcript(printed.session);
  expect(read.state).toBe('read');
  const records = read.state === 'read' ? read.records : [];
  expect(records.filter((event) => event.type === 'intervention')).toEqual([
    expect.objectContaining({ kind: 'deny' }),
  ]);
});
