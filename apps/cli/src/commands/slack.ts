import { isLeft } from '@mecha/errors';
import type { CommandContext } from '../cli-io.js';
import { type Command, type CommandGroup, exitCodes, failure } from '../command.js';
import { openCommandHome } from '../home.js';
import { flag } from '../parse-command.js';

const help = `Usage: mecha slack [--check] [--home DIR]

Runs the Slack app on the home the CLI uses: a line in the thread of each run started from
Slack, staged drafts with Send, Edit and Reject, /mecha tasks and /mecha drafts (private
lists), and /mecha charter. Each act replaces its buttons with what happened. Every act goes through the same owner paths as the CLI, and only the Slack
users named in MECHA_SLACK_OWNERS may act. It runs until interrupted (Ctrl-C).

Settings come from the environment (see docs/slack.md):
  SLACK_SIGNING_SECRET      the app's signing secret (required)
  SLACK_BOT_TOKEN           the bot token, xoxb-… (required; never printed)
  MECHA_SLACK_OWNERS        the owner's Slack user ids, comma-separated (required)
  MECHA_SLACK_CHANNEL       the channel id to post in (required)
  MECHA_SLACK_PORT          the HTTP receiver's port (default 3000)
  MECHA_SLACK_HOST          the address it listens on (default 127.0.0.1)
  MECHA_SLACK_SOCKET_MODE   1 for socket mode instead of HTTP, with SLACK_APP_TOKEN (xapp-…)
  MECHA_SLACK_POLL_MS       how often to look for finished runs and drafts (default 2000)
  MECHA_SLACK_BOARD_URL     the web board's address, for "Open on the board" on long drafts
  MECHA_SLACK_API_URL       another Web API base URL (default Slack's own)

Options:
  --check     check the settings, ask Slack whether the token is accepted (auth.test) and
              the bot is in MECHA_SLACK_CHANNEL (conversations.info), say what would run, exit
  --home DIR  the mecha home (default: $MECHA_HOME, else ~/.mecha)
`;

function waitForInterrupt(): Promise<string> {
  return new Promise((resolve) => {
    const done = (signal: string) => () => {
      process.removeAllListeners('SIGINT');
      process.removeAllListeners('SIGTERM');
      resolve(signal);
    };
    process.once('SIGINT', done('SIGINT'));
    process.once('SIGTERM', done('SIGTERM'));
  });
}

async function runSlack(check: boolean, context: CommandContext): Promise<number> {
  const { checkSlack, slackConfigFromEnv, startSlackApp, redactingLog } = await import(
    '@mecha/slack'
  );
  const config = slackConfigFromEnv(context.env);
  if (isLeft(config)) {
    for (const issue of config.left) {
      context.stderr(`mecha slack: ${issue.variable} ${issue.message}\n`);
    }
    context.stderr("mecha slack: nothing started (see 'mecha slack --help' and docs/slack.md)\n");
    return exitCodes.failure;
  }
  const settings = config.right;
  const home = openCommandHome(context);
  const where = settings.socketMode
    ? 'socket mode'
    : `http://${settings.host}:${settings.port}/slack/events`;
  const owners = `${settings.ownerUserIds.size} owner user${settings.ownerUserIds.size === 1 ? '' : 's'}`;
  if (check) {
    // Asks Slack (auth.test, conversations.info): is the token accepted, is the bot in the channel.
    const checked = await checkSlack(settings);
    const passed = !isLeft(checked);
    for (const line of passed ? checked.right.lines : checked.left.lines) {
      (passed ? context.stdout : context.stderr)(`mecha slack: ${redactSecrets(settings, line)}\n`);
    }
    if (!passed) {
      context.stderr("mecha slack: nothing started (see 'mecha slack --help' and docs/slack.md)\n");
      return exitCodes.failure;
    }
    context.stdout(
      `mecha slack would listen on ${where}, post in ${settings.channel} for ${owners}, on the home at ${home.path}.\n`,
    );
    return exitCodes.ok;
  }
  const log = redactingLog(settings, (line) => context.stderr(`${line}\n`));
  // Ctrl-C while Slack is still being asked (a slow or hanging auth.test) stops at once.
  const interrupted = waitForInterrupt();
  const starting = startSlackApp({ config: settings, home, log });
  const first = await Promise.race([
    starting.then(
      (running) => ({ state: 'started' as const, running }),
      (error: unknown) => ({ state: 'failed' as const, error }),
    ),
    interrupted.then(() => ({ state: 'interrupted' as const })),
  ]);
  if (first.state === 'interrupted') {
    context.stdout('mecha slack: stopped during start-up; nothing was started.\n');
    // Whatever the start was waiting on (a call to Slack) may still hold the process open.
    starting.then((running) => running.stop()).catch(() => {});
    setTimeout(() => process.exit(exitCodes.ok), 200).unref();
    return exitCodes.ok;
  }
  if (first.state === 'failed') {
    return failure(context, 'slack', `could not start: ${redactSecrets(settings, first.error)}`);
  }
  const running = first.running;
  const listening = settings.socketMode
    ? 'socket mode'
    : `http://${settings.host}:${running.port}/slack/events`;
  context.stdout(
    `mecha slack: listening on ${listening}; posting in ${settings.channel} for ${owners}; home ${home.path}. Ctrl-C stops it.\n`,
  );
  await interrupted;
  await running.stop();
  context.stdout('mecha slack: stopped.\n');
  return exitCodes.ok;
}

function redactSecrets(
  settings: { botToken: string; signingSecret: string; appToken: string | undefined },
  error: unknown,
): string {
  let text = error instanceof Error ? error.message : String(error);
  for (const secret of [settings.botToken, settings.signingSecret, settings.appToken]) {
    if (secret !== undefined && secret !== '') text = text.split(secret).join('[redacted]');
  }
  return text;
}

const slack: Command = {
  path: 'slack',
  summary: 'run the Slack app: run-end lines, Done/Drop, drafts and /mecha charter',
  help,
  options: { check: { type: 'boolean' } },
  takesNoArguments: true,
  async run({ values, context }) {
    return runSlack(flag(values, 'check'), context);
  },
};

/** `mecha slack`: starts the app from `@mecha/slack` on the home the CLI uses. */
export const slackGroup: CommandGroup = {
  name: 'slack',
  summary: slack.summary,
  fallback: slack,
  commands: [],
};
