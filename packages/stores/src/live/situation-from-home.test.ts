import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readValue, renderBrief } from '@mecha/homeostat';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../__fixtures__/temp-dir.js';
import { homeLayout } from '../home-layout.js';
import { openHome } from '../open-home.js';
import { situationFromHome } from './situation-from-home.js';

const now = Date.UTC(2026, 8, 25, 14, 0, 0);

// Each store a brief reads, and the brief field that must then read as unknown.
const breakable = {
  board: { file: homeLayout.board, field: 'board' },
  sessions: { file: homeLayout.sessions, field: 'runs' },
  attention: { file: 'workflows/attention.toml', field: 'time' },
} as const;

describe('situationFromHome', () => {
  it('reads every store it could not read as unknown with a reason, never as empty or none', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(Object.keys(breakable) as (keyof typeof breakable)[], { minLength: 1 }),
        async (broken) => {
          const path = tempDir();
          for (const name of broken) {
            // A folder where a file should be (or a file where the sessions folder should be).
            const target = join(path, breakable[name].file);
            mkdirSync(dirname(target), { recursive: true });
            if (name === 'sessions') writeFileSync(target, 'not a folder');
            else mkdirSync(target);
          }
          const home = openHome(path);
          const input = await situationFromHome(home, {
            goal: { kind: 'task', id: 'task-1' },
            now,
            conditions: undefined,
            timeZone: readValue('UTC'),
          });
          const brief = renderBrief(input);
          for (const name of broken) {
            const field = brief.fields[breakable[name].field];
            expect(['unread', 'partial']).toContain(field.state);
            expect(field.reason).toBeTruthy();
          }
          if (broken.includes('board')) expect(brief.text).not.toMatch(/no open tasks/);
          if (broken.includes('sessions')) {
            expect(brief.text).not.toMatch(/no delegated tasks/);
            expect(brief.fields.attempts.state).toBe('unread');
          }
          // Whatever the harness did not say is unknown too.
          for (const field of ['seats', 'slots', 'voice', 'budget'] as const) {
            expect(brief.fields[field].state).toBe('unread');
          }
        },
      ),
      { numRuns: 20 },
    );
  });
});

describe('situationFromHome: other runs in flight', () => {
  it('counts delegated tasks and triggers with no end from the last day, not interactive chats or a run a crash left open', async () => {
    const { createSessionRecorder } = await import('../session-recorder.js');
    const at = (offset: number) => () => new Date(now - offset);
    const record = async (offset: number, surface: string, id: string, ended = false) => {
      const home = openHome(path, { clock: at(offset) });
      const run = await createSessionRecorder(home).startRun({
        surface,
        goal: { kind: 'task', id },
      });
      if (ended && run._tag === 'Right') await run.right.end({ stopCause: 'completed' });
    };
    const path = tempDir();
    await record(60_000, 'task', 'task-live');
    await record(60_000, 'trigger', 'task-fired');
    await record(60_000, 'web', 'task-chat');
    await record(60_000, 'task', 'task-done', true);
    await record(3 * 86_400_000, 'task', 'task-crashed');
    const input = await situationFromHome(openHome(path), {
      now,
      conditions: undefined,
      timeZone: readValue('UTC'),
    });
    expect(input.runs).toEqual(
      readValue({ delegatedTasks: ['task-live'], triggers: ['task-fired'] }),
    );
  });
});
