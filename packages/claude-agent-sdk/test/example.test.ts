// Runs examples/claude-agent-sdk.ts as a user would: a real node process on the built package
// (its types stripped as a build would), driving the SDK's real bundled CLI against the
// example's own stand-in model, into a home this test made; checks what it prints against what
// the home holds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { homePorts, openHome } from '@mecha/stores';
import { runExample } from '@mecha/vitest-config/run-example';
import { afterEach, beforeEach, expect, it } from 'vitest';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'mecha-claude-agent-sdk-example-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

const packageRoot = fileURLToPath(new URL('..', import.meta.url));

it('examples/claude-agent-sdk.ts records the owner denying a shell call, and prints the appraisal', async () => {
  const printed = JSON.parse(
    runExample(packageRoot, 'claude-agent-sdk.ts', { MECHA_HOME: home }),
  ) as {
    home: string;
    session: string;
    events: string[];
    stopCause: string;
    valence: { negative: number };
  };
  expect(printed.home).toBe(home);
  expect(printed.events).toEqual([
    'run_start',
    'message',
    'tool_call',
    'tool_result',
    'tool_call',
    'tool_result',
    'intervention',
    'run_end',
  ]);
  expect(printed.stopCause).toBe('completed');
  expect(printed.valence.negative).toBeGreaterThan(0);
  // What it printed is what the home holds: one owner act, from the permission callback.
  const read = await homePorts(openHome(home)).sessions.transcript(printed.session);
  expect(read.state).toBe('read');
  const records = read.state === 'read' ? read.records : [];
  expect(records.filter((event) => event.type === 'intervention')).toEqual([
    expect.objectContaining({ kind: 'deny' }),
  ]);
}, 180_000);
