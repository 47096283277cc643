import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { timestampSchema } from '@mecha/appraisal-core';
import * as E from 'fp-ts/lib/Either.js';
import { z } from 'zod';
import { isGuardedTaskTool } from './guard-task-tool.js';
import { contextOf, type MechaHome } from './home-context.js';
import { writeFileAtomically } from './home-manifest.js';
import { refuseMissingHome } from './missing-home.js';
import { describeFileError } from './read-jsonl-file.js';
import type { WriteFailure } from './write-failure.js';

/** Where a harness records the tools it registered for a model, and its sandbox. */
export const toolRegistryFile = 'runs/tools.json';

/**
 * The tools a harness registered for a model, as it recorded them at startup: which can change
 * a board task, and whether each of those is wrapped by `guardTaskTool`; and the sandbox its
 * shell runs in, with what it mounts. The closure guarantee (only the owner closes a task)
 * rests on these.
 */
export const toolRegistrySchema = z.object({
  v: z.literal(1),
  at: timestampSchema,
  harness: z.string().min(1).max(200).optional(),
  tools: z
    .array(
      z.object({
        name: z.string().min(1).max(128),
        can_close_tasks: z.boolean(),
        guarded: z.boolean(),
      }),
    )
    .max(1024),
  /** The run shell's sandbox: `none` (no shell tool), `confined` or `unconfined`. */
  sandbox: z
    .object({
      shell: z.enum(['none', 'confined', 'unconfined']),
      /** Host paths the sandbox mounts (absolute). */
      mounts: z.array(z.string().min(1).max(4096)).max(256),
    })
    .optional(),
});
/** See {@link toolRegistrySchema}. */
export type ToolRegistry = z.infer<typeof toolRegistrySchema>;

/** What a harness hands over at startup: its registry, which of them are task tools, its sandbox. */
export interface ToolRegistration {
  readonly tools: Iterable<{ readonly name: string }>;
  /** Picks out the tools that can change a board task (the same predicate as `assertTaskToolsGuarded`). */
  readonly isTaskTool: (tool: { readonly name: string }) => boolean;
  readonly sandbox?: {
    readonly shell: 'none' | 'confined' | 'unconfined';
    readonly mounts: readonly string[];
  };
  readonly harness?: string;
}

/**
 * Records the harness's tool registry in the home (replacing the last one, written atomically),
 * so `mecha tools` and `mecha doctor` can check the closure guarantee from another process.
 * Whether a task tool is guarded is read from the tool object itself, never claimed.
 */
export function recordToolRegistry(
  home: MechaHome,
  registration: ToolRegistration,
): E.Either<WriteFailure, ToolRegistry> {
  const path = join(home.path, toolRegistryFile);
  const missing = refuseMissingHome(home);
  if (E.isLeft(missing)) return missing;
  const parsed = toolRegistrySchema.safeParse({
    v: 1,
    at: contextOf(home).clock().toISOString(),
    ...(registration.harness === undefined ? {} : { harness: registration.harness }),
    tools: [...registration.tools].map((tool) => {
      const task = registration.isTaskTool(tool);
      return { name: tool.name, can_close_tasks: task, guarded: task && isGuardedTaskTool(tool) };
    }),
    ...(registration.sandbox === undefined
      ? {}
      : {
          sandbox: { shell: registration.sandbox.shell, mounts: [...registration.sandbox.mounts] },
        }),
  });
  if (!parsed.success) {
    return E.left({
      kind: 'invalid_record',
      index: 0,
      message: `the tool registry is not valid: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    });
  }
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomically(path, dirname(path), `${JSON.stringify(parsed.data, null, 2)}\n`);
  } catch (error) {
    return E.left({ kind: 'io', path, message: `${toolRegistryFile} ${describeFileError(error)}` });
  }
  return E.right(parsed.data);
}

/** The recorded registry: none recorded yet, read, or unreadable with the reason. */
export type ToolRegistryRead =
  | { readonly state: 'none' }
  | { readonly state: 'read'; readonly registry: ToolRegistry }
  | { readonly state: 'unreadable'; readonly reason: string };

/** Reads the tool registry a harness recorded. Writes nothing. */
export function readToolRegistry(home: MechaHome): ToolRegistryRead {
  let text: string;
  try {
    text = readFileSync(join(home.path, toolRegistryFile), 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return { state: 'none' };
    return { state: 'unreadable', reason: `${toolRegistryFile} ${describeFileError(error)}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { state: 'unreadable', reason: `${toolRegistryFile} is not JSON` };
  }
  const parsed = toolRegistrySchema.safeParse(json);
  if (!parsed.success) {
    return { state: 'unreadable', reason: `${toolRegistryFile} is not a tool registry` };
  }
  return { state: 'read', registry: parsed.data };
}

/** Something the closure guarantee rests on that does not hold. */
export type ToolFinding =
  | { readonly kind: 'unguarded_task_tool'; readonly tool: string; readonly message: string }
  | { readonly kind: 'unconfined_shell'; readonly message: string }
  | { readonly kind: 'home_mounted'; readonly mount: string; readonly message: string }
  | { readonly kind: 'no_sandbox_recorded'; readonly message: string };

function covers(mount: string, home: string): boolean {
  if (!isAbsolute(mount)) return false;
  const between = relative(resolve(mount), resolve(home));
  const inside = between === '' || (!between.startsWith('..') && !isAbsolute(between));
  const within = relative(resolve(home), resolve(mount));
  return inside || (!within.startsWith('..') && !isAbsolute(within));
}

/**
 * Checks what the closure guarantee rests on: every tool that can close a task is guarded, the
 * run shell is confined, and its sandbox mounts neither the home nor a folder above or inside it
 * (a run could then write the closure log itself).
 */
export function toolFindings(registry: ToolRegistry, homePath: string): ToolFinding[] {
  const findings: ToolFinding[] = [];
  for (const tool of registry.tools) {
    if (tool.can_close_tasks && !tool.guarded) {
      findings.push({
        kind: 'unguarded_task_tool',
        tool: tool.name,
        message: `${tool.name} can change a board task and is not wrapped by guardTaskTool: a model could close a task`,
      });
    }
  }
  const sandbox = registry.sandbox;
  if (sandbox === undefined) {
    findings.push({
      kind: 'no_sandbox_recorded',
      message:
        'the harness did not say what its run shell is confined to, so the home cannot be checked',
    });
    return findings;
  }
  if (sandbox.shell === 'unconfined') {
    findings.push({
      kind: 'unconfined_shell',
      message:
        'the run shell is unconfined: a command a model runs could write the home, closures included',
    });
  }
  for (const mount of sandbox.mounts) {
    if (covers(mount, homePath)) {
      findings.push({
        kind: 'home_mounted',
        mount,
        message: `the sandbox mounts ${mount}, which holds the mecha home: a run could write the closure log itself`,
      });
    }
  }
  return findings;
}
