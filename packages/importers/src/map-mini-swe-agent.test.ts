import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapMiniSweAgentTrajectory } from './map-mini-swe-agent.js';
import { SessionBuilder } from './session-builder.js';
import { newSessionState } from './session-state.js';
import { readoutOf } from './validity/validity-report.js';

const fixture = (id: string): unknown =>
  JSON.parse(
    readFileSync(
      fileURLToPath(
        new URL(`./__fixtures__/swe-bench/trajs/${id}/${id}.traj.json`, import.meta.url),
      ),
      'utf8',
    ),
  );

const builder = () => new SessionBuilder(newSessionState('bench-s1', 'mini-swe-agent'));

/** A small trajectory in the format's shape (made here; the real ones are the fixture's). */
function made(exitStatus: string | null, stats: { cost: number; calls: number }, extra = {}) {
  return {
    trajectory_format: 'mini-swe-agent-1',
    info: {
      exit_status: exitStatus,
      model_stats: { instance_cost: stats.cost, api_calls: stats.calls },
      config: { agent: { step_limit: 250, cost_limit: 3 } },
    },
    messages: [
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: '<pr_description>fix it</pr_description>' },
      { role: 'assistant', content: 'THOUGHT: look\n\n```bash\nls\n```' },
      { role: 'user', content: '<returncode>2</returncode>\n<output>\nno such file\n</output>' },
      { role: 'assistant', content: 'THOUGHT: two\n\n```bash\nls\n```\n\n```bash\npwd\n```' },
      {
        role: 'user',
        content: 'Please always provide EXACTLY ONE action in triple backticks, found 2 actions.',
      },
    ],
    ...extra,
  };
}

describe('mapMiniSweAgentTrajectory on real trajectories', () => {
  it('maps a submitted run: the task, each bash call and its result, one completed end, nobody present', () => {
    const session = builder();
    const reading = mapMiniSweAgentTrajectory(fixture('django__django-13670'), session);
    expect(reading).toMatchObject({
      kind: 'mapped',
      exitStatus: 'Submitted',
      stopCause: 'completed',
      formatErrors: 1,
      failedCalls: 1,
      commandTimeouts: 0,
      unmapped: 0,
    });
    const events = session.drain();
    const start = events[0];
    expect(start).toMatchObject({
      type: 'run_start',
      surface: 'mini-swe-agent',
      person_present: false,
    });
    expect(events.filter((event) => event.type === 'run_start')).toHaveLength(1);
    const calls = events.filter((event) => event.type === 'tool_call');
    const results = events.filter((event) => event.type === 'tool_result');
    expect(reading.kind === 'mapped' && calls.length).toBe(
      reading.kind === 'mapped' && reading.calls,
    );
    expect(results).toHaveLength(calls.length);
    expect(results.filter((event) => event.status === 'error')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'counter')).toEqual([
      expect.objectContaining({ name: 'format_error', value: 1 }),
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', stop_cause: 'completed' });
    expect(
      events.filter((event) => event.type === 'message' && event.role === 'owner'),
    ).toHaveLength(1);
  });

  it('maps a command that timed out to an error result and a command_timeout counter', () => {
    const session = builder();
    const reading = mapMiniSweAgentTrajectory(fixture('psf__requests-2317'), session);
    expect(reading).toMatchObject({ kind: 'mapped', commandTimeouts: 1, unmapped: 0 });
    const counters = session.drain().filter((event) => event.type === 'counter');
    expect(counters.map((event) => event.type === 'counter' && event.name).sort()).toContain(
      'command_timeout',
    );
  });

  it('gives every real trial a readout the store would accept: neutral, nothing signed', () => {
    for (const id of ['django__django-16255', 'django__django-10999', 'django__django-15127']) {
      const session = builder();
      expect(mapMiniSweAgentTrajectory(fixture(id), session).kind).toBe('mapped');
      expect(readoutOf(session.drain())).toEqual({
        kind: 'read',
        readout: { label: 'neutral', positive: 0, negative: 0, partial: false },
      });
    }
  });
});

describe('mapMiniSweAgentTrajectory on the exit statuses', () => {
  it('reads the cost limit as a cost ceiling, which the readout signs as distress', () => {
    const session = builder();
    expect(
      mapMiniSweAgentTrajectory(made('LimitsExceeded', { cost: 3.02, calls: 80 }), session),
    ).toMatchObject({ stopCause: 'cost_ceiling', formatErrors: 1, failedCalls: 1 });
    expect(readoutOf(session.drain())).toEqual({
      kind: 'read',
      readout: { label: 'distress', positive: 0, negative: 0.5, partial: false },
    });
  });

  it('reads the step limit as a turn ceiling, and any other exit as an error that signs nothing', () => {
    const steps = builder();
    expect(
      mapMiniSweAgentTrajectory(made('LimitsExceeded', { cost: 1, calls: 250 }), steps),
    ).toMatchObject({ stopCause: 'turn_ceiling' });
    const failed = builder();
    expect(
      mapMiniSweAgentTrajectory(made('ContextWindowExceededError', { cost: 1, calls: 9 }), failed),
    ).toMatchObject({ stopCause: 'error', exitStatus: 'ContextWindowExceededError' });
    expect(readoutOf(failed.drain())).toMatchObject({ readout: { label: 'neutral', negative: 0 } });
  });

  it('refuses what it cannot read as a run, saying why', () => {
    expect(mapMiniSweAgentTrajectory([], builder())).toMatchObject({ kind: 'unreadable' });
    expect(mapMiniSweAgentTrajectory(made(null, { cost: 0, calls: 0 }), builder())).toEqual({
      kind: 'unreadable',
      reason: 'no exit status: the run did not finish',
    });
    expect(
      mapMiniSweAgentTrajectory(
        made('Submitted', { cost: 0, calls: 0 }, { trajectory_format: 'swe-agent-0' }),
        builder(),
      ),
    ).toMatchObject({ kind: 'unreadable', reason: expect.stringContaining('"swe-agent-0"') });
  });
});

describe('mapMiniSweAgentTrajectory on any exchange', () => {
  // An exchange in the format's shape: each step an assistant reply with 0, 1 or 2 bash
  // blocks, then the harness's answer (a return code, a timeout, or a format error).
  const step = fc.record({
    blocks: fc.integer({ min: 0, max: 2 }),
    code: fc.integer({ min: 0, max: 3 }),
    timedOut: fc.boolean(),
  });
  const exits = fc.constantFrom('Submitted', 'LimitsExceeded', 'RuntimeError');

  it('writes one run the store accepts, a result for each call, a counter for each format error', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), exits, (steps, exit) => {
        const messages: { role: string; content: string }[] = [
          { role: 'system', content: 'rules' },
          { role: 'user', content: 'the task' },
        ];
        let formatErrors = 0;
        let calls = 0;
        for (const { blocks, code, timedOut } of steps) {
          const block = '```bash\nls\n```';
          messages.push({
            role: 'assistant',
            content: `THOUGHT\n${Array(blocks).fill(block).join('\n')}`,
          });
          if (blocks !== 1) {
            formatErrors += 1;
            messages.push({
              role: 'user',
              content: `Please always provide EXACTLY ONE action, found ${blocks}.`,
            });
          } else {
            calls += 1;
            messages.push({
              role: 'user',
              content: timedOut
                ? 'The last command <command>ls</command> timed out and has been killed.'
                : `<returncode>${code}</returncode>\n<output></output>`,
            });
          }
        }
        const session = builder();
        const reading = mapMiniSweAgentTrajectory(
          {
            trajectory_format: 'mini-swe-agent-1',
            info: { exit_status: exit, model_stats: { instance_cost: 0, api_calls: 0 } },
            messages,
          },
          session,
        );
        expect(reading).toMatchObject({ kind: 'mapped', calls, formatErrors, unmapped: 0 });
        const events = session.drain();
        expect(events.filter((event) => event.type === 'run_start')).toHaveLength(1);
        expect(events.filter((event) => event.type === 'run_end')).toHaveLength(1);
        expect(events.filter((event) => event.type === 'tool_call')).toHaveLength(calls);
        expect(events.filter((event) => event.type === 'tool_result')).toHaveLength(calls);
        expect(
          events.filter((event) => event.type === 'counter' && event.name === 'format_error'),
        ).toHaveLength(formatErrors);
        // Nothing here is signed: a limit with no configured limits is not a ceiling.
        expect(readoutOf(events)).toMatchObject({ kind: 'read', readout: { negative: 0 } });
      }),
      { numRuns: 200 },
    );
  });
});
