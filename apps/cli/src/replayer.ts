import { join } from 'node:path';
import { stripControl } from '@mecha/appraisal-core';
import type { OpenReplayer } from '@mecha/replay';
import { configIssueText } from '@mecha/stores';
import type { CommandContext } from './cli-io.js';
import { openCommandHome } from './home.js';

/** The replayer `[probe] replayer` names: none configured, one opened, or why it cannot be. */
export type ConfiguredReplayer =
  | { readonly state: 'none' }
  | { readonly state: 'open'; readonly replayer: OpenReplayer }
  | { readonly state: 'refused'; readonly message: string };

/** Opens the replayer the home's `config.toml` names under `[probe]`; loads nothing else. */
export async function configuredReplayer(context: CommandContext): Promise<ConfiguredReplayer> {
  const home = openCommandHome(context);
  const config = home.readConfig();
  if (config._tag === 'Left') {
    return {
      state: 'refused',
      message: `config.toml has problems: ${config.left.map(configIssueText).join('; ')}`,
    };
  }
  const spec = config.right.probe.replayer;
  if (spec === undefined) return { state: 'none' };
  // Loaded here only: local-model brings the model runtime.
  const { openReplayer } = await import('@mecha/replay');
  const opened = await openReplayer(spec, {
    homePath: home.path,
    configFile: join(home.path, 'config.toml'),
    model: config.right.model,
  });
  return opened._tag === 'Right'
    ? { state: 'open', replayer: opened.right }
    : { state: 'refused', message: stripControl(opened.left.message) };
}
