import { spawn } from 'node:child_process';
import { userInfo } from 'node:os';
import { type Either, isLeft, left, type Refusal, refusal, right } from '@mecha/errors';
import { configIssueText, type McpServerConfig } from '@mecha/stores';
import type { CommandContext } from '../cli-io.js';
import { type Command, type CommandGroup, exitCodes, failure, usageError } from '../command.js';
import { openCommandHome } from '../home.js';
import { flag, stringOption, wholeNumber } from '../parse-command.js';
import { cliVersion } from '../version.js';

function owner(context: CommandContext): string {
  try {
    const name = userInfo().username;
    if (name !== '') return name;
  } catch {
    // Some containers have no passwd entry for the user; fall back to the environment.
  }
  return context.env.USER || context.env.LOGNAME || 'owner';
}

/**
 * The home's graph server as the review queue reaches it: a url server as configured, a command
 * server as configured (the package use-case adds `--role owner`), `mecha-graph-mcp` run as the
 * script installed beside this command; or why there is none.
 */
async function ownerGraphServer(
  context: CommandContext,
  name: string,
): Promise<Either<Refusal<'unreadable' | 'not_found'>, McpServerConfig>> {
  const config = openCommandHome(context).readConfig();
  if (config._tag === 'Left') {
    return left(
      refusal(
        'unreadable',
        `config.toml has problems, so the graph's review queue is not shown: ${config.left.map(configIssueText).join('; ')}`,
      ),
    );
  }
  const server = config.right.mcp.find((entry) => entry.name === name);
  if (server === undefined) {
    return left(
      refusal(
        'not_found',
        `config.toml has no [[mcp]] server named '${name}', so there is no review queue to show`,
      ),
    );
  }
  if (server.command === undefined) return right(server);
  const args = [...server.args];
  for (let index = args.indexOf('--role'); index !== -1; index = args.indexOf('--role')) {
    args.splice(index, 2);
  }
  const { runnableGraphServer } = await import('../graph-server-path.js');
  return right(runnableGraphServer({ ...server, args }));
}

function openBrowser(url: string): void {
  const opener =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(opener, [url], { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // Opening a browser is a courtesy; the address is printed either way.
  }
}

const web: Command = {
  path: 'web',
  summary: 'the web board: runs with their chips, the board, drafts, the charter, graph review',
  help: [
    'Usage: mecha web [--port N] [--host H] [--open] [--graph-server NAME]',
    '',
    "Serves the web board for this home until Ctrl-C: runs newest first with mecha's",
    'appraisal chip, each session in detail, the corpus readout with charts, successes, the',
    'board (Done, Drop, Reopen through the one closure path), pending drafts and parked',
    "questions, the charter, and the knowledge graph's review queue. Pages update live when a",
    'run finishes with something signed.',
    '',
    'Bound to 127.0.0.1 unless --host says otherwise. Requests must name a loopback host (or',
    "the --host given), acts need the page's CSRF token and must come from the page itself.",
    'Off loopback every request also needs a bearer token: MECHA_WEB_TOKEN, or one generated',
    'and printed once in the address to open.',
    '',
    'Options:',
    '  --port N             the port (default 4380; 0 picks a free one)',
    '  --host H             the address to bind (default 127.0.0.1)',
    '  --open               open the board in a browser',
    "  --graph-server NAME  the [[mcp]] server holding the graph (default 'graph')",
    '  --home DIR           the mecha home',
    '',
  ].join('\n'),
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    open: { type: 'boolean' },
    'graph-server': { type: 'string' },
  },
  takesNoArguments: true,
  async run({ values, context }) {
    const path = this.path;
    let port = 4380;
    const portText = stringOption(values, 'port');
    if (portText !== undefined) {
      const parsed = wholeNumber(portText, '--port', 0, 65_535);
      if (isLeft(parsed)) return usageError(context, path, parsed.left.message);
      port = parsed.right;
    }
    const host = stringOption(values, 'host') ?? '127.0.0.1';
    if (host === '' || !/^[A-Za-z0-9.:[\]-]+$/.test(host)) {
      return usageError(
        context,
        path,
        `--host takes an address or host name, not ${JSON.stringify(host)}`,
      );
    }
    const serverName = stringOption(values, 'graph-server') ?? 'graph';
    if (serverName === '') return usageError(context, path, '--graph-server needs a name');

    const [{ startWebServer }, { openGraphOwner }] = await Promise.all([
      import('@mecha/web'),
      import('@mecha/distill'),
    ]);
    const home = openCommandHome(context);
    const graph = await ownerGraphServer(context, serverName);
    let running: Awaited<ReturnType<typeof startWebServer>>;
    try {
      running = await startWebServer({
        home,
        host,
        port,
        version: cliVersion,
        env: context.env,
        owner: owner(context),
        ...(context.env.MECHA_WEB_TOKEN === undefined
          ? {}
          : { token: context.env.MECHA_WEB_TOKEN }),
        ...(isLeft(graph)
          ? { graphMissing: graph.left.message }
          : { graph: openGraphOwner(home, { server: graph.right, env: context.env }) }),
      });
    } catch (error) {
      return failure(
        context,
        path,
        `the board could not start on ${host}:${port}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    context.stdout(`mecha web: serving ${running.url} (Ctrl-C stops it)\n`);
    if (running.token?.generated === true) {
      context.stdout(
        'mecha web: not on loopback, so every request needs the token in that address (shown once; set MECHA_WEB_TOKEN to choose it)\n',
      );
    }
    if (flag(values, 'open')) openBrowser(running.url);
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    await running.close();
    context.stdout('mecha web: stopped\n');
    return exitCodes.ok;
  },
};

/** `mecha web`: the local web board. */
export const webGroup: CommandGroup = {
  name: 'web',
  summary: 'the web board for this home',
  fallback: web,
  commands: [],
};
