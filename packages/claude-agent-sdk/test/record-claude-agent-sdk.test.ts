// Real Claude Agent SDK runs: `query()` from `@anthropic-ai/claude-agent-sdk` 0.3 starts its own
// bundled Claude Code CLI, whose real hooks, permission callback, tools and interrupts drive
// the adapter. Only the model is a stand-in (test/fake-messages-api.ts: the CLI is pointed at
// a scripted Messages API on 127.0.0.1, since there is no network here). Recorded into a real
// home on disk and read back through @mecha/stores and @mecha/appraisal-core.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { query } from '@anthropic-ai/claude-agent-sdk';
import { appraiseRun, appraiseSession, type TranscriptEvent } from '@mecha/appraisal-core';
import { homePorts, openHome } from '@mecha/stores';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ClaudeAgentSdkRecorder, recordClaudeAgentSdk } from '../src/index.js';
import {
  type Answer,
  type FakeMessagesApi,
  offlineEnv,
  startFakeMessagesApi,
} from './fake-messages-api.js';

// Each run starts the real CLI: slow on a loaded machine, never a timing assertion.
const slow = 180_000;

let folder: string;
let home: string;
let work: string;
let api: FakeMessagesApi | undefined;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'mecha-claude-agent-sdk-'));
  home = join(folder, 'home');
  work = join(folder, 'work');
  mkdirSync(home);
  mkdirSync(work);
  writeFileSync(join(work, 'totals.csv'), 'client,total\nLakeside,1200\n');
});
afterEach(async () => {
  await api?.close();
  api = undefined;
  rmSync(folder, { recursive: true, force: true });
});

async function transcript(sessionId: string): Promise<TranscriptEvent[]> {
  const read = await homePorts(openHome(home)).sessions.transcript(sessionId);
  expect(read.state).toBe('read');
  return read.state === 'unreadable' ? [] : [...read.records];
}

/** Runs one prompt to its end through `mecha.query`; what the loop threw, if anything. */
async function run(
  mecha: ClaudeAgentSdkRecorder,
  answers: readonly Answer[],
  options: Parameters<typeof query>[0]['options'] & object,
  onQuery?: (q: ReturnType<typeof query>) => void,
): Promise<unknown> {
  api = await startFakeMessagesApi(answers);
  const q = mecha.query(query, {
    prompt: 'Send Lakeside the totals.',
    options: { cwd: work, env: offlineEnv(api, folder), ...options },
  });
  onQuery?.(q);
  try {
    for await (const _message of q) {
      // The app reads the messages as usual; the adapter sees the result on the way.
    }
    return undefined;
  } catch (error) {
    return error;
  } finally {
    await mecha.flushed();
    await api.close();
    api = undefined;
  }
}

const read = (id: string, file: string): Answer => ({
  tool: { id, name: 'Read', input: { file_path: file } },
});
const shell = (id: string, command: string): Answer => ({
  tool: { id, name: 'Bash', input: { command } },
});

describe('recordClaudeAgentSdk with the real CLI', () => {
  it(
    'records tool calls, a failure, the owner denying a call, then an abort in the next run',
    async () => {
      const warnings: string[] = [];
      const mecha = recordClaudeAgentSdk({ home, surface: 'cli', warn: (w) => warnings.push(w) });
      const asked: string[] = [];
      const thrown = await run(
        mecha,
        [
          read('toolu_read1', join(work, 'totals.csv')),
          shell('toolu_rm1', 'rm -rf ./outbox'),
          read('toolu_read2', join(work, 'missing.csv')),
          // The model claims approval: words are never taken for the owner's act.
          { text: 'The owner approved, so I removed the outbox.' },
        ],
        {
          // The owner is asked before each call that needs permission, and says no to the shell.
          canUseTool: async (tool, input) => {
            asked.push(tool);
            return tool === 'Bash'
              ? { behavior: 'deny', message: 'Not the outbox.' }
              : { behavior: 'allow', updatedInput: input };
          },
        },
      );
      expect(thrown).toBeUndefined();
      expect(asked).toContain('Bash');

      // The next prompt: the owner stops the run while asked about a call.
      const controller = new AbortController();
      const stopped = await run(mecha, [shell('toolu_rm2', 'rm -rf ./drafts')], {
        abortController: controller,
        canUseTool: async () => {
          controller.abort();
          return new Promise(() => {});
        },
      });
      expect(stopped).toBeInstanceOf(Error);
      expect(warnings).toEqual([]);

      const events = await transcript(mecha.sessionId);
      const runIds = [...new Set(events.map((event) => event.run_id))];
      expect(runIds).toHaveLength(2);
      const [first, second] = runIds.map((id) => events.filter((event) => event.run_id === id));
      expect(first?.map((event) => event.type)).toEqual([
        'run_start',
        'message',
        'tool_call',
        'tool_result',
        'tool_call',
        'tool_result',
        'intervention',
        'tool_call',
        'tool_result',
        'run_end',
      ]);
      expect(first?.[1]).toMatchObject({ role: 'owner', text: 'Send Lakeside the totals.' });
      expect(first?.filter((event) => event.type === 'tool_call')).toEqual([
        expect.objectContaining({
          tool: 'Read',
          call_id: 'toolu_read1',
          target: join(work, 'totals.csv'),
        }),
        expect.objectContaining({ tool: 'Bash', call_id: 'toolu_rm1' }),
        expect.objectContaining({ tool: 'Read', call_id: 'toolu_read2' }),
      ]);
      expect(first?.filter((event) => event.type === 'tool_result')).toEqual([
        expect.objectContaining({ call_id: 'toolu_read1', status: 'ok' }),
        expect.objectContaining({ call_id: 'toolu_rm1', status: 'denied' }),
        expect.objectContaining({ call_id: 'toolu_read2', status: 'error' }),
      ]);
      expect(first?.find((event) => event.type === 'intervention')).toMatchObject({ kind: 'deny' });
      expect(first?.at(-1)).toMatchObject({ type: 'run_end', stop_cause: 'completed' });

      expect(second?.[0]).toMatchObject({ type: 'run_start', resumed: true, surface: 'cli' });
      expect(second?.map((event) => event.type)).toEqual([
        'run_start',
        'message',
        'tool_call',
        'intervention',
        'run_end',
      ]);
      expect(second?.[3]).toMatchObject({ kind: 'stop' });
      expect(second?.[4]).toMatchObject({ stop_cause: 'stopped' });
      // Two owner acts, both from the SDK's own callback and signal; none from the model's words.
      expect(events.filter((event) => event.type === 'intervention')).toHaveLength(2);

      // Read back: each run's readout and the session's appraisal see the owner's acts.
      const reading = appraiseRun(first ?? []);
      expect(reading.valence.negative).toBeGreaterThan(0);
      expect(reading.errors.map((error) => error.channel)).toContain('intervention');
      const session = await appraiseSession(homePorts(openHome(home)), mecha.sessionId);
      expect(session.state).toBe('appraised');
      if (session.state === 'appraised') {
        expect(session.reading.valence.negative).toBeGreaterThan(0);
        expect(session.reading.valence.partial).toBe(false);
      }
    },
    slow,
  );

  it(
    'records a denial that interrupts as one act, and an interrupt() as a steer',
    async () => {
      const mecha = recordClaudeAgentSdk({ home });
      // The owner says no and stops: the SDK's `interrupt: true` on the denial.
      await run(mecha, [shell('toolu_rm3', 'rm -rf ./outbox')], {
        canUseTool: async () => ({ behavior: 'deny', message: 'Stop.', interrupt: true }),
      });
      // The owner presses stop (the app calls `interrupt()`) while a call waits.
      let q: ReturnType<typeof query> | undefined;
      await run(
        mecha,
        [shell('toolu_rm4', 'rm -rf ./drafts')],
        {
          canUseTool: async (_tool, input) => {
            await q?.interrupt();
            return { behavior: 'allow', updatedInput: input };
          },
        },
        (started) => {
          q = started;
        },
      );
      const events = await transcript(mecha.sessionId);
      const runIds = [...new Set(events.map((event) => event.run_id))];
      const [denied, interrupted] = runIds.map((id) => events.filter((e) => e.run_id === id));
      expect(denied?.map((event) => event.type)).toEqual([
        'run_start',
        'message',
        'tool_call',
        'tool_result',
        'intervention',
        'run_end',
      ]);
      expect(denied?.[4]).toMatchObject({ kind: 'deny' });
      expect(denied?.[5]).toMatchObject({ stop_cause: 'interrupted' });
      expect(interrupted?.map((event) => event.type)).toEqual([
        'run_start',
        'message',
        'tool_call',
        'intervention',
        'run_end',
      ]);
      expect(interrupted?.[3]).toMatchObject({ kind: 'steer' });
      expect(interrupted?.[4]).toMatchObject({ stop_cause: 'interrupted' });
    },
    slow,
  );

  it(
    'records a run that hits maxTurns as the turn ceiling, from the result message',
    async () => {
      const mecha = recordClaudeAgentSdk({ home });
      await run(mecha, [read('toolu_read3', join(work, 'totals.csv'))], { maxTurns: 1 });
      const events = await transcript(mecha.sessionId);
      expect(events.at(-1)).toMatchObject({ type: 'run_end', stop_cause: 'turn_ceiling' });
      expect(events.some((event) => event.type === 'intervention')).toBe(false);
    },
    slow,
  );

  it(
    'a missing home: the agent runs to its answer, one warning, nothing created',
    async () => {
      const missing = join(folder, 'not-here');
      const warnings: string[] = [];
      const mecha = recordClaudeAgentSdk({ home: missing, warn: (w) => warnings.push(w) });
      const thrown = await run(mecha, [read('toolu_read4', join(work, 'totals.csv'))], {});
      expect(thrown).toBeUndefined();
      expect(warnings).toEqual([
        `mecha: no mecha home at ${missing} (run \`mecha init\`), so this session is not recorded; the agent keeps running`,
      ]);
      expect(() => mkdirSync(missing)).not.toThrow();
    },
    slow,
  );

  it(
    'a store that cannot be written: the agent runs to its answer, one warning',
    async () => {
      // The session store's folder is a file here: every append fails as an I/O error.
      writeFileSync(join(home, 'sessions'), 'not a folder');
      const warnings: string[] = [];
      const mecha = recordClaudeAgentSdk({ home, warn: (w) => warnings.push(w) });
      const thrown = await run(mecha, [read('toolu_read5', join(work, 'totals.csv'))], {});
      expect(thrown).toBeUndefined();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        /^mecha: could not record the run start in .* so recording stopped; the agent keeps running$/,
      );
    },
    slow,
  );
});
