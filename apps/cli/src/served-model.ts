import type { ServedModel } from '@mecha/local-model';
import type { CommandContext } from './cli-io.js';

/**
 * One model per machine: the model `mecha appraiser serve` holds, when it is up and holds the
 * GGUF at `modelPath`, announced on stderr; undefined when none does (the caller loads its own).
 */
export async function servedModel(
  localModel: typeof import('@mecha/local-model'),
  context: CommandContext,
  command: string,
  at: { readonly home: string; readonly leaseDirectory: string; readonly modelPath: string },
): Promise<ServedModel | undefined> {
  const served = await localModel.connectModelServer({
    directory: at.leaseDirectory,
    home: at.home,
    modelPath: at.modelPath,
  });
  if (served._tag === 'Left') return undefined;
  const { pid, url } = served.right.endpoint;
  context.stderr(`mecha ${command}: using the model served by process ${pid} at ${url}\n`);
  return served.right;
}
