import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { stripControl } from '@mecha/appraisal-core';

/** The hooks a home may hold, as executables in `<home>/hooks/`. */
export type HookName = 'pre_task_close' | 'task_closed' | 'task_reopened';

/** What running a hook gave: none there, it succeeded, or it failed (and why, in one line). */
export type HookResult =
  | { readonly kind: 'absent' }
  | { readonly kind: 'ok' }
  | { readonly kind: 'failed'; readonly message: string };

/** How long a hook may run before it is stopped and counted as failed. */
export const hookTimeoutMs = 30_000;

function firstLine(text: string): string {
  const line = text
    .split('\n')
    .map((part) => stripControl(part).trim())
    .find((part) => part !== '');
  if (line === undefined) return '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/**
 * Runs `<home>/hooks/<name>` if it exists, with the move as JSON on stdin and `MECHA_HOME` and
 * `MECHA_HOOK` in its environment. A hook that exists but cannot run (not executable, a folder)
 * counts as failed, so a refusing hook is never skipped by accident. Its message is the first
 * line it printed on stderr (else stdout), stripped of control characters.
 */
export function runHook(
  home: string,
  name: HookName,
  payload: unknown,
  env: Readonly<Record<string, string | undefined>>,
): HookResult {
  const path = join(home, 'hooks', name);
  try {
    const stat = statSync(path);
    if (!stat.isFile()) return { kind: 'failed', message: `hooks/${name} is not a file` };
    if ((stat.mode & 0o111) === 0)
      return { kind: 'failed', message: `hooks/${name} is not executable` };
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return { kind: 'absent' };
    return { kind: 'failed', message: `hooks/${name} could not be read` };
  }
  const result = spawnSync(path, [], {
    input: `${JSON.stringify(payload)}\n`,
    encoding: 'utf8',
    timeout: hookTimeoutMs,
    cwd: home,
    env: { ...env, MECHA_HOME: home, MECHA_HOOK: name },
    maxBuffer: 1024 * 1024,
  });
  const code = (result.error as { code?: unknown } | undefined)?.code;
  // A hook that exits without reading its stdin closes the pipe first: that is no failure.
  if (result.error !== undefined && !(code === 'EPIPE' && result.status !== null)) {
    return {
      kind: 'failed',
      message:
        code === 'ETIMEDOUT'
          ? `hooks/${name} ran longer than ${hookTimeoutMs / 1000} s and was stopped`
          : `hooks/${name} could not be run (${String(code ?? result.error.message)})`,
    };
  }
  if (result.status === 0) return { kind: 'ok' };
  const said = firstLine(result.stderr ?? '') || firstLine(result.stdout ?? '');
  const how = result.signal === null ? `exited ${result.status}` : `was killed by ${result.signal}`;
  return { kind: 'failed', message: said === '' ? `hooks/${name} ${how}` : said };
}
