// Runs examples/otel.ts as a user would: a real node process on the built package (its types
// stripped as a build would), against a home this test made, and checks what it prints against
// what the home holds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appraiseRun } from '@mecha/appraisal-core';
import { homePorts, openHome } from '@mecha/stores';
import { runExample } from '@mecha/vitest-config/run-example';
import { afterEach, beforeEach, expect, it } from 'vitest';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'mecha-otel-example-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

const packageRoot = fileURLToPath(new URL('..', import.meta.url));

it('examples/otel.ts records a stopped run and exports its appraisal as spans over OTLP/HTTP', async () => {
  const printed = JSON.parse(runExample(packageRoot, 'otel.ts', { MECHA_HOME: home })) as {
    home: string;
    session: string;
    outcome: string;
    spans: { name: string; attributes: Record<string, unknown> }[];
  };
  expect(printed.home).toBe(home);
  expect(printed.outcome).toMatch(/^exported the appraisals of 1 sessions \(1 runs, 2 spans\)/);
  expect(printed.spans.map((span) => span.name)).toEqual(['mecha.session', 'invoke_agent']);
  // What arrived is the appraisal of what the home holds, valence kept as two sides.
  const read = await homePorts(openHome(home)).sessions.transcript(printed.session);
  expect(read.state).toBe('read');
  const reading = appraiseRun(read.state === 'read' ? read.records : []);
  expect(reading.valence.negative).toBeGreaterThan(0);
  const run = printed.spans[1]?.attributes;
  expect(run).toMatchObject({
    'mecha.session.id': printed.session,
    'mecha.appraisal.scope': 'run',
    'mecha.run.stop_cause': 'stopped',
    'mecha.appraisal.label': reading.label,
    'mecha.appraisal.valence.positive': reading.valence.positive,
    'mecha.appraisal.valence.negative': reading.valence.negative,
  });
});
