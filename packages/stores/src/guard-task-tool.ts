import { UnguardedTaskToolError } from './unguarded-task-tool-error.js';

/** A model-facing tool that can change a board task (the graph's task tool, say). */
export interface TaskTool<Args, Result> {
  readonly name: string;
  call(args: Args): Promise<Result>;
}

/**
 * What a guarded call gives back: the tool's result, or the harness's own refusal. A refusal
 * is recorded as a `tool_result` with status `denied`, never as a failed run.
 */
export type GuardedCall<Result> =
  | { readonly status: 'ok'; readonly result: Result }
  | { readonly status: 'denied'; readonly reason: string };

/** A task tool wrapped by {@link guardTaskTool}. */
export interface GuardedTaskTool<Args, Result> {
  readonly name: string;
  call(args: Args): Promise<GuardedCall<Result>>;
}

/** The words a model gets back when it tries to close a task. */
export const closeRefusal =
  "Closing a task (done or dropped) is the owner's act and is refused here: the owner closes it with `mecha tasks set --status done` (or dropped).";

// Membership here is the trait: it cannot be copied, serialised or claimed by a wire tool.
const guarded = new WeakSet<object>();

/** Whether a status a model asked for would close a task, however it is spelled. */
function closes(status: unknown): boolean {
  if (typeof status !== 'string') return false;
  const normal = status.trim().toLowerCase();
  return normal === 'done' || normal === 'dropped';
}

/**
 * Wraps a model-facing task tool so that any call moving a task into `done` or `dropped` is
 * refused before it reaches the tool, as the harness's denial. `requestedStatus` reads the
 * status the call asks for (default: `args.status`); make it cover every field of your tool
 * that can set one.
 */
export function guardTaskTool<Args, Result>(
  tool: TaskTool<Args, Result>,
  options: { readonly requestedStatus?: (args: Args) => unknown } = {},
): GuardedTaskTool<Args, Result> {
  const requested =
    options.requestedStatus ??
    ((args: Args) =>
      typeof args === 'object' && args !== null
        ? (args as { status?: unknown }).status
        : undefined);
  const wrapper: GuardedTaskTool<Args, Result> = {
    name: tool.name,
    call: async (args) => {
      let status: unknown;
      try {
        status = requested(args);
      } catch {
        return {
          status: 'denied',
          reason: 'the requested status could not be read, so the call is refused',
        };
      }
      if (closes(status)) return { status: 'denied', reason: closeRefusal };
      return { status: 'ok', result: await tool.call(args) };
    },
  };
  guarded.add(wrapper);
  return wrapper;
}

/** Whether a tool was wrapped by {@link guardTaskTool} in this process. */
export function isGuardedTaskTool(tool: unknown): boolean {
  return typeof tool === 'object' && tool !== null && guarded.has(tool);
}

/**
 * Checks a model-facing tool registry at startup: every tool `isTaskTool` picks out must be
 * guarded. Throws {@link UnguardedTaskToolError} for the first that is not.
 */
export function assertTaskToolsGuarded(
  tools: Iterable<{ readonly name: string }>,
  isTaskTool: (tool: { readonly name: string }) => boolean,
): void {
  for (const tool of tools) {
    if (isTaskTool(tool) && !isGuardedTaskTool(tool)) throw new UnguardedTaskToolError(tool.name);
  }
}
