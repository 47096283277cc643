import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rightOrThrow } from '@mecha/errors';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from './__fixtures__/temp-dir.js';
import { guardTaskTool } from './guard-task-tool.js';
import { initHome } from './init-home.js';
import { openHome } from './open-home.js';
import {
  readToolRegistry,
  recordToolRegistry,
  toolFindings,
  toolRegistryFile,
} from './tool-registry.js';

const taskTool = { name: 'kg_task', call: async () => 'ok' };
const isTaskTool = (tool: { readonly name: string }) => tool.name === 'kg_task';

function home() {
  const path = join(tempDir(), 'home');
  initHome(path);
  return openHome(path, { clock: () => new Date('2026-10-01T12:00:00Z') });
}

describe('recordToolRegistry', () => {
  it('records which tools can close tasks and whether each is really guarded', () => {
    const opened = home();
    const recorded = rightOrThrow(
      recordToolRegistry(opened, {
        tools: [guardTaskTool(taskTool), { name: 'fs_read' }],
        isTaskTool,
        sandbox: { shell: 'confined', mounts: ['/work/project'] },
        harness: 'my-harness',
      }),
      'record',
    );
    expect(recorded.tools).toEqual([
      { name: 'kg_task', can_close_tasks: true, guarded: true },
      { name: 'fs_read', can_close_tasks: false, guarded: false },
    ]);
    const read = readToolRegistry(opened);
    expect(read).toEqual({ state: 'read', registry: recorded });
    expect(toolFindings(recorded, opened.path)).toEqual([]);
  });

  it('never takes a tool that only looks guarded for a guarded one', () => {
    const opened = home();
    const lookalike = { ...guardTaskTool(taskTool) };
    const recorded = rightOrThrow(
      recordToolRegistry(opened, {
        tools: [lookalike],
        isTaskTool,
        sandbox: { shell: 'confined', mounts: [] },
      }),
      'record',
    );
    expect(toolFindings(recorded, opened.path)).toEqual([
      expect.objectContaining({ kind: 'unguarded_task_tool', tool: 'kg_task' }),
    ]);
  });

  it('reports an unconfined shell and a sandbox mounting the home or a folder above it', () => {
    const opened = home();
    const recorded = rightOrThrow(
      recordToolRegistry(opened, {
        tools: [],
        isTaskTool,
        sandbox: {
          shell: 'unconfined',
          mounts: ['/elsewhere', join(opened.path, '..'), opened.path],
        },
      }),
      'record',
    );
    const kinds = toolFindings(recorded, opened.path).map((finding) => finding.kind);
    expect(kinds).toEqual(['unconfined_shell', 'home_mounted', 'home_mounted']);
  });

  it('says when no sandbox was recorded, rather than passing the check', () => {
    const opened = home();
    const recorded = rightOrThrow(recordToolRegistry(opened, { tools: [], isTaskTool }), 'record');
    expect(toolFindings(recorded, opened.path)).toEqual([
      expect.objectContaining({ kind: 'no_sandbox_recorded' }),
    ]);
  });

  it('refuses a home that does not exist and writes nothing', () => {
    const opened = openHome(join(tempDir(), 'nothing'));
    const recorded = recordToolRegistry(opened, { tools: [], isTaskTool });
    expect(E.isLeft(recorded) && recorded.left.message).toMatch(/mecha init/);
    expect(readToolRegistry(opened)).toEqual({ state: 'none' });
  });
});

describe('readToolRegistry', () => {
  it('reports a damaged or unreadable registry as unreadable, never as none', () => {
    const opened = home();
    rightOrThrow(recordToolRegistry(opened, { tools: [], isTaskTool }), 'record');
    const file = join(opened.path, toolRegistryFile);
    writeFileSync(file, readFileSync(file, 'utf8').slice(0, 20));
    expect(readToolRegistry(opened)).toEqual({
      state: 'unreadable',
      reason: `${toolRegistryFile} is not JSON`,
    });
    writeFileSync(file, '{"v": 9}');
    expect(readToolRegistry(opened)).toMatchObject({ state: 'unreadable' });
  });
});
