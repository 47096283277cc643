import { join } from 'node:path';
import { stripControl } from '@mecha/appraisal-core';
import { type Either, left, type Refusal, refusal, right } from '@mecha/errors';
import type { OpenReplayer } from '@mecha/replay';
import { configIssueText } from '@mecha/stores';
import type { CommandContext } from './cli-io.js';
import { openCommandHome } from './home.js';

/**
 * The replayer `[probe] replayer` names: `right(null)` when none is configured, `right` the
 * opened replayer, or `left` why it cannot be opened (`config.toml` unreadable, a bad spec).
 */
export type ConfiguredReplayer = Either<Refusal<'unreadable' | 'bad_request'>, OpenReplayer | null>;

/** Opens the replayer the home's `config.toml` names under `[probe]`; loads nothing else. */
export async function configuredReplayer(context: CommandContext): Promise<ConfiguredReplayer> {
  const home = openCommandHome(context);
  const config = home.readConfig();
  if (config._tag === 'Left') {
    return left(
      refusal(
        'unreadable',
        `config.toml has problems: ${config.left.map(configIssueText).join('; ')}`,
      ),
    );
  }
  const spec = config.right.probe.replayer;
  if (spec === undefined) return right(null);
  // Loaded here only: local-model brings the model runtime.
  const { openReplayer } = await import('@mecha/replay');
  const opened = await openReplayer(spec, {
    homePath: home.path,
    configFile: join(home.path, 'config.toml'),
    model: config.right.model,
  });
  return opened._tag === 'Right'
    ? right(opened.right)
    : left(refusal(opened.left.kind, stripControl(opened.left.message)));
}
