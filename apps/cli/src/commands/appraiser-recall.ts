import { isLeft } from '@mecha/errors';
import type { Appraiser } from '@mecha/gpu-appraiser';
import { type Command, exitCodes, failure, usageError } from '../command.js';
import { flag, stringOption, wholeNumber } from '../parse-command.js';
import { appraiserModel } from './appraiser-model.js';
import { leaseLines, print, withAppraiser } from './appraiser-shared.js';

// `mecha appraiser recall|lease`: recall, and shared context leases.

export const recall: Command = {
  path: 'appraiser recall',
  summary: 'rank retained reports for a caller and render a bounded context',
  help: [
    'Usage: mecha appraiser recall --owner WHO --scope SCOPE --query TEXT [--task ID] [--participant WHO]',
    '                              [--priority N] [--revision 3|4] [--share] [--embeddings [--threads N]] [--json]',
    '',
    'Ranks the available reports in SCOPE against the query and prints the bounded context (at',
    'most 16 references in 4096 bytes). Similarity is word overlap, or with --embeddings the',
    "cosine similarity of [model] path's embeddings; the similarity floor applies before any",
    'priority. With recall defaults on, results with a known intensity bring their evidence and',
    'priority; --priority asks for them explicitly whatever the default. Writes nothing.',
    '',
    'Options:',
    '  --owner WHO      the caller',
    '  --scope SCOPE    the scope to recall from',
    '  --query TEXT     what to recall',
    '  --task ID        only reports admitted with this task (task trust is shown only for it)',
    '  --participant WHO only reports about WHO (subject) or reported by WHO (owner)',
    '  --priority N     explicit appraisal priority, 0–1000000',
    '  --revision N     the context revision (default 4)',
    '  --share          record the context as a shared lease (revision 4) and print its id',
    '  --embeddings     load [model] path and rank by its embeddings (else word overlap)',
    '  --threads N      CPU threads for the model (default: [model] threads, else every core)',
    '  --json           the ranking and context as JSON',
    '  --home DIR       the mecha home',
    '',
  ].join('\n'),
  options: {
    owner: { type: 'string' },
    scope: { type: 'string' },
    query: { type: 'string' },
    task: { type: 'string' },
    participant: { type: 'string' },
    priority: { type: 'string' },
    revision: { type: 'string' },
    share: { type: 'boolean' },
    embeddings: { type: 'boolean' },
    threads: { type: 'string' },
    json: { type: 'boolean' },
  },
  takesNoArguments: true,
  async run({ values, context }) {
    const path = this.path;
    const owner = stringOption(values, 'owner');
    const scope = stringOption(values, 'scope');
    const query = stringOption(values, 'query');
    if (!owner || !scope || !query)
      return usageError(context, path, '--owner, --scope and --query are required');
    const numbers: Record<string, number> = {};
    for (const name of ['priority', 'revision'] as const) {
      const text = stringOption(values, name);
      if (text === undefined) continue;
      const parsed = wholeNumber(text, `--${name}`, 0);
      if (isLeft(parsed)) return usageError(context, path, parsed.left.message);
      numbers[name] = parsed.right;
    }
    if (numbers.priority !== undefined && numbers.priority > 1_000_000) {
      return usageError(context, path, '--priority takes 0 to 1000000');
    }
    const task = stringOption(values, 'task');
    const participant = stringOption(values, 'participant');
    if (stringOption(values, 'threads') !== undefined && !flag(values, 'embeddings')) {
      return usageError(context, path, '--threads goes with --embeddings');
    }
    const answer = async (appraiser: Appraiser): Promise<number> => {
      const request = {
        owner,
        scope,
        query,
        ...(task === undefined ? {} : { task }),
        ...(participant === undefined ? {} : { participant }),
        ...(numbers.priority === undefined ? {} : { appraisal: { priority: numbers.priority } }),
        ...(numbers.revision === undefined ? {} : { revision: numbers.revision }),
      };
      if (flag(values, 'share')) {
        const shared = await appraiser.shareContext(request);
        if (shared._tag === 'Left') return failure(context, path, shared.left.message);
        const lease = shared.right;
        print(context, flag(values, 'json'), { state: 'ok', ...lease }, () => leaseLines(lease));
        return exitCodes.ok;
      }
      const recalled = await appraiser.recall(request);
      if (recalled._tag === 'Left') return failure(context, path, recalled.left.message);
      const result = recalled.right;
      print(context, flag(values, 'json'), { state: 'ok', ...result }, () => [
        ...(result.fallback === undefined ? [] : [`warning: ${result.fallback}`]),
        `${result.ranked.length} ranked by ${result.similarity === 'embedding' ? 'embeddings' : 'word overlap'}; context revision ${result.context.revision}: ${result.context.references} references, ${result.context.memoryBytes} bytes`,
        ...(result.context.system === '' ? [] : [result.context.system]),
        result.context.text,
      ]);
      return exitCodes.ok;
    };
    const made = flag(values, 'embeddings')
      ? await appraiserModel(context, path, values)
      : undefined;
    if (typeof made === 'number') return made;
    try {
      // Through the device scheduler: embeddings take the machine's device lease (or the served model).
      const device = made?.device;
      const embedder = device && {
        embed: (texts: readonly string[]) => device.embed(texts, 'foreground'),
      };
      return await withAppraiser(context, path, answer, embedder ? { embedder } : {});
    } finally {
      await made?.device.dispose();
    }
  },
};

export const leaseCommand: Command = {
  path: 'appraiser lease',
  summary: 'show a shared context lease exactly as it was recorded',
  help: [
    'Usage: mecha appraiser lease ID [--json]',
    '',
    'Prints the shared lease ID (made by `mecha appraiser recall --share`) exactly as it was',
    'rendered, whatever its revision; a lease of a revision this build does not know is refused.',
    '',
    'Options:',
    '  --json          the lease as JSON',
    '  --home DIR      the mecha home',
    '',
  ].join('\n'),
  options: { json: { type: 'boolean' } },
  async run({ values, positionals, context }) {
    const path = this.path;
    if (positionals.length !== 1) return usageError(context, path, 'name one lease ID');
    const id = wholeNumber(positionals[0] as string, 'ID');
    if (isLeft(id)) return usageError(context, path, id.left.message);
    return withAppraiser(context, this.path, (appraiser) => {
      const read = appraiser.readLease(id.right);
      if (read._tag === 'Left') return failure(context, path, read.left.message);
      const lease = read.right;
      print(context, flag(values, 'json'), { state: 'ok', ...lease }, () => leaseLines(lease));
      return exitCodes.ok;
    });
  },
};
