import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServedModel } from '@mecha/local-model';
import type { CommandContext } from './cli-io.js';

/** Where a home that uses the machine's model server is, and the GGUF it would load. */
export interface ServedModelAt {
  readonly home: string;
  readonly leaseDirectory: string;
  readonly modelPath: string;
}

/**
 * The machine's model server, or why it is not used: `notServed` is undefined when no server is
 * up (nothing to say), else the reason (it holds another GGUF, it does not answer).
 */
export type ServedModelFound =
  | { readonly served: ServedModel }
  | { readonly served?: undefined; readonly notServed: string | undefined };

/**
 * One model per machine: the model `mecha appraiser serve` holds, when it is up and holds the
 * GGUF at `modelPath`, announced on stderr, and the home registered for the server's background
 * ticks. When a server is up but not usable, stderr says why, and the caller loads its own model
 * (still on the machine's device lease).
 */
export async function findServedModel(
  localModel: typeof import('@mecha/local-model'),
  context: CommandContext,
  command: string,
  at: ServedModelAt,
): Promise<ServedModelFound> {
  const endpoint = localModel.readModelEndpoint(at.leaseDirectory);
  if (!endpoint) return { notServed: undefined };
  const served = await localModel.connectModelServer({
    directory: at.leaseDirectory,
    home: at.home,
    modelPath: at.modelPath,
  });
  if (served._tag === 'Left') {
    const reason = served.left.message;
    context.stderr(
      `mecha ${command}: not using the model served by process ${endpoint.pid}: ${reason}; loading [model] path here (its calls still take the machine's device lease)\n`,
    );
    return { notServed: reason };
  }
  const { pid, url } = served.right.endpoint;
  context.stderr(`mecha ${command}: using the model served by process ${pid} at ${url}\n`);
  registerServedHome(at.leaseDirectory, at.home);
  return { served: served.right };
}

/** `findServedModel`'s served model, or undefined when this process loads its own. */
export async function servedModel(
  localModel: typeof import('@mecha/local-model'),
  context: CommandContext,
  command: string,
  at: ServedModelAt,
): Promise<ServedModel | undefined> {
  return (await findServedModel(localModel, context, command, at)).served;
}

// The homes that use the machine's served model are recorded beside its endpoint file, in
// `served-homes/` of the device lease's folder: one file per home (named by a digest of its real
// path, holding the path, mode 0600). `mecha appraiser serve` ticks the background work of each
// one whose [model] path is the GGUF it holds, under that home's own controls and limits.

const registryOf = (leaseDirectory: string) => join(leaseDirectory, 'served-homes');

const realPath = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

/** Records `home` as one that uses the machine's served model (idempotent). */
export function registerServedHome(leaseDirectory: string, home: string): void {
  const real = realPath(home);
  const registry = registryOf(leaseDirectory);
  const file = join(registry, createHash('sha256').update(real).digest('hex').slice(0, 16));
  try {
    if (readFileSync(file, 'utf8') === `${real}\n`) return;
  } catch {
    // Not recorded yet.
  }
  mkdirSync(registry, { recursive: true, mode: 0o700 });
  writeFileSync(file, `${real}\n`, { mode: 0o600 });
}

/** The homes recorded as using the machine's served model, sorted (none when there is no record). */
export function servedHomes(leaseDirectory: string): string[] {
  const registry = registryOf(leaseDirectory);
  let names: string[];
  try {
    names = readdirSync(registry);
  } catch {
    return [];
  }
  const homes = new Set<string>();
  for (const name of names) {
    try {
      const home = readFileSync(join(registry, name), 'utf8').trim();
      if (home !== '') homes.add(home);
    } catch {
      // Removed while listing: not a home any more.
    }
  }
  return [...homes].sort();
}
