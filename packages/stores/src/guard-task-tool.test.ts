import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assertTaskToolsGuarded,
  closeRefusal,
  guardTaskTool,
  isGuardedTaskTool,
} from './guard-task-tool.js';
import { UnguardedTaskToolError } from './unguarded-task-tool-error.js';

function taskTool() {
  const calls: unknown[] = [];
  return {
    calls,
    tool: {
      name: 'kg_task',
      call: async (args: { readonly id: string; readonly status?: string }) => {
        calls.push(args);
        return { ok: true };
      },
    },
  };
}

describe('guardTaskTool', () => {
  it('refuses a move into done or dropped before it reaches the tool', async () => {
    const { calls, tool } = taskTool();
    const guarded = guardTaskTool(tool);
    expect(await guarded.call({ id: 't', status: 'done' })).toEqual({
      status: 'denied',
      reason: closeRefusal,
    });
    expect(await guarded.call({ id: 't', status: ' Dropped ' })).toEqual({
      status: 'denied',
      reason: closeRefusal,
    });
    expect(calls).toEqual([]);
  });

  it('passes every other call through', async () => {
    fc.assert(
      fc.asyncProperty(
        fc
          .option(fc.string(), { nil: undefined })
          .filter((status) => !['done', 'dropped'].includes(status?.trim().toLowerCase() ?? '')),
        async (status) => {
          const { calls, tool } = taskTool();
          const args = status === undefined ? { id: 't' } : { id: 't', status };
          expect(await guardTaskTool(tool).call(args)).toEqual({
            status: 'ok',
            result: { ok: true },
          });
          expect(calls).toEqual([args]);
        },
      ),
    );
  });

  it('reads the status where the tool keeps it', async () => {
    const { tool } = taskTool();
    const guarded = guardTaskTool(
      {
        name: tool.name,
        call: async (args: { readonly patch: { readonly state: string } }) => args,
      },
      { requestedStatus: (args) => args.patch.state },
    );
    expect((await guarded.call({ patch: { state: 'done' } })).status).toBe('denied');
  });

  it('refuses a call whose status cannot be read', async () => {
    const guarded = guardTaskTool(
      {
        name: 'kg_task',
        call: async (args: { readonly patch?: { readonly state: string } }) => args,
      },
      { requestedStatus: (args) => (args.patch as { state: string }).state },
    );
    expect((await guarded.call({})).status).toBe('denied');
  });

  it('marks the wrapper so a registry can tell it from a copy', () => {
    const { tool } = taskTool();
    const guarded = guardTaskTool(tool);
    expect(isGuardedTaskTool(guarded)).toBe(true);
    expect(isGuardedTaskTool({ ...guarded })).toBe(false);
    expect(isGuardedTaskTool(tool)).toBe(false);
  });

  it('makes an unguarded task tool on a model-facing registry a startup error', () => {
    const { tool } = taskTool();
    const isTask = (entry: { readonly name: string }) => entry.name === 'kg_task';
    expect(() =>
      assertTaskToolsGuarded([guardTaskTool(tool), { name: 'fs_read' }], isTask),
    ).not.toThrow();
    let thrown: unknown;
    try {
      assertTaskToolsGuarded([tool], isTask);
    } catch (error) {
      thrown = error;
    }
    expect(UnguardedTaskToolError.isInstance(thrown)).toBe(true);
  });
});
