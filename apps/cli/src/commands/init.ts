import { isLeft } from '@mecha/errors';
import { initHome } from '@mecha/stores';
import { type Command, type CommandGroup, exitCodes, failure, usageError } from '../command.js';
import { homePath } from '../home.js';
import { flag } from '../parse-command.js';

const init: Command = {
  path: 'init',
  summary: 'create a mecha home (manifest, config.toml with the graph server, a charter template)',
  help: `Usage: mecha init [--home DIR] [--json]

Creates a mecha home: the folder, manifest.json, a config.toml that names the embedded
knowledge-graph server as [[mcp]] graph, and a commented charter.toml to fill in. Safe to run
again: a file already there is kept as it is, never overwritten.

The home is --home DIR, else $MECHA_HOME, else ~/.mecha.

Options:
  --home DIR  where to create the home
  --json      print {"path", "created", "kept"} as JSON
  -h, --help  show this help
`,
  options: { json: { type: 'boolean' } },
  homeMayBeMissing: true,
  async run({ values, positionals, context }) {
    if (positionals.length > 0) {
      return usageError(context, 'init', `takes no arguments (use --home ${positionals[0]})`);
    }
    const made = initHome(homePath(context));
    if (isLeft(made)) return failure(context, 'init', made.left.message);
    const { path, created, kept } = made.right;
    if (flag(values, 'json')) {
      context.stdout(`${JSON.stringify({ path, created, kept }, null, 2)}\n`);
      return exitCodes.ok;
    }
    const say = (line = '') => context.stdout(`${line}\n`);
    say(
      created.length === 0
        ? `A mecha home is already at ${path}; nothing was changed.`
        : `Created a mecha home at ${path}.`,
    );
    for (const file of created) say(`  wrote ${file}`);
    for (const file of kept) say(`  kept  ${file} (already there)`);
    say();
    say('Next:');
    say(`  edit ${path}/charter.toml, or: mecha --home ${path} charter add <id> "<text>"`);
    say(`  mecha --home ${path} import claude-code   (or codex): your agent CLI's logs so far`);
    say(`  record runs from your harness with @mecha/stores (docs/integrating.md)`);
    say(`  mecha --home ${path} doctor        every store's state`);
    say(`  mecha --home ${path} sessions list  the sessions recorded so far`);
    return exitCodes.ok;
  },
};

/** `mecha init`: create a home. */
export const initGroup: CommandGroup = {
  name: 'init',
  summary: init.summary,
  fallback: init,
  commands: [],
};
