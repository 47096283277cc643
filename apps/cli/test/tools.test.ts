import { join } from 'node:path';
import { guardTaskTool, openHome, recordToolRegistry, rightOrThrow } from '@mecha/stores';
import { describe, expect, it } from 'vitest';
import { mecha, mechaJson, snapshot, tempDir } from './helpers.js';

const taskTool = { name: 'kg_task', call: async () => 'ok' };
const isTaskTool = (tool: { readonly name: string }) => tool.name === 'kg_task';

function home(): string {
  const path = join(tempDir(), 'home');
  expect(mecha(['init', '--home', path]).code).toBe(0);
  return path;
}

describe('mecha tools', () => {
  it('lists the recorded tools and says the closure guarantee holds (exit 0), writing nothing', () => {
    const path = home();
    rightOrThrow(
      recordToolRegistry(openHome(path), {
        tools: [guardTaskTool(taskTool), { name: 'fs_read' }],
        isTaskTool,
        sandbox: { shell: 'confined', mounts: ['/srv/project'] },
        harness: 'my-harness',
      }),
      'record',
    );
    const before = snapshot(path);
    const run = mecha(['--home', path, 'tools']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/kg_task +can change a task; guarded/);
    expect(run.stdout).toMatch(/fs_read +cannot change a task/);
    expect(run.stdout).toContain('Run shell: confined, mounting /srv/project.');
    expect(run.stdout).toContain('The closure guarantee holds');
    expect(snapshot(path)).toEqual(before);
  });

  it('exits 1 and names each broken part: an unguarded task tool, a mounted home', () => {
    const path = home();
    rightOrThrow(
      recordToolRegistry(openHome(path), {
        tools: [taskTool],
        isTaskTool,
        sandbox: { shell: 'confined', mounts: [path] },
      }),
      'record',
    );
    const { run, json } = mechaJson<{ findings: { kind: string }[] }>([
      '--home',
      path,
      'tools',
      '--json',
    ]);
    expect(run.code).toBe(1);
    expect(json.findings.map((finding) => finding.kind)).toEqual([
      'unguarded_task_tool',
      'home_mounted',
    ]);
  });

  it('says the guarantee cannot be checked when no harness recorded its tools (exit 1)', () => {
    const path = home();
    const run = mecha(['--home', path, 'tools']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('call recordToolRegistry() at startup');
  });
});
