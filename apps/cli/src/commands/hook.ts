import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { stripControl } from '@mecha/appraisal-core';
import {
  claudeCodeHookEvents,
  codexNotifyTypes,
  defaultSourceFolder,
  importFromClaudeCodeHook,
  importFromCodexNotify,
} from '@mecha/importers';
import type { CommandContext } from '../cli-io.js';
import { type Command, type CommandGroup, exitCodes } from '../command.js';
import { openCommandHome } from '../home.js';
import { flag, type OptionValues } from '../parse-command.js';

/** What a hook prints of its import: the report with --json, the session with --print-session. */
function printImported(
  values: OptionValues,
  context: CommandContext,
  imported: { readonly report: unknown; readonly session: string | null },
): number {
  if (flag(values, 'json')) context.stdout(`${JSON.stringify(imported.report, null, 2)}\n`);
  else if (flag(values, 'print-session') && imported.session !== null) {
    context.stdout(`${imported.session}\n`);
  }
  return exitCodes.ok;
}

const path = 'hook claude-code';

const help = `Usage: mecha hook claude-code [--home DIR] [--json | --print-session]

Run by Claude Code as a hook: reads the hook's payload (JSON) on stdin and imports the new lines
of the transcript it names (transcript_path) into the mecha home at once, incrementally and under
the import lock, sharing the ledger with 'mecha import claude-code' (nothing is imported twice).
On ${claudeCodeHookEvents.join(', ')}. After Stop, SessionEnd and UserPromptSubmit the turn
is over, so the agent's last answer ends its run then.

It never blocks the session: whatever goes wrong (no home, a payload that is not one, a damaged
ledger), it exits 0 with one line on stderr and leaves the home as it was. It prints nothing on
stdout (a UserPromptSubmit hook's stdout would reach the model) unless --json or
--print-session is given.

In .claude/settings.json (see docs/importers.md):
  {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "mecha hook claude-code"}]}]}}

On SessionEnd, to distill the session that ended (and only it):
  id=$(mecha hook claude-code --print-session) && [ -n "$id" ] && (mecha distill --session "$id" >/dev/null 2>&1 &)

Options:
  --home DIR         the mecha home to import into (default: MECHA_HOME, else ~/.mecha)
  --json             print the import report as JSON
  --print-session    print the mecha id of the session the transcript went into (nothing when
                     nothing was imported): for 'mecha distill --session ID' after SessionEnd
  -h, --help         show this help
`;

const hookCommand: Command = {
  path,
  summary: "import a Claude Code transcript's new lines from a hook (stdin payload)",
  help,
  options: { json: { type: 'boolean' }, 'print-session': { type: 'boolean' } },
  takesNoArguments: true,
  async run({ values, context }) {
    const note = (message: string) => {
      context.stderr(`mecha ${path}: ${stripControl(message)} (nothing imported)\n`);
      return exitCodes.ok;
    };
    try {
      // A missing home throws here, and is caught below like every other failure.
      const home = openCommandHome(context);
      if (process.stdin.isTTY) return note('no hook payload on stdin (Claude Code pipes it in)');
      const payload = readFileSync(0, 'utf8');
      const done = await importFromClaudeCodeHook(home, payload);
      if (done._tag === 'Left') return note(done.left.message);
      return printImported(values, context, done.right);
    } catch (error) {
      // A hook must never block the person's session.
      return note(error instanceof Error ? error.message : String(error));
    }
  },
};

const codexPath = 'hook codex';

const codexHelp = `Usage: mecha hook codex [--home DIR] [--json | --print-session] JSON

Run by Codex as its notify program: Codex appends one JSON argument at the end of each agent
turn (${codexNotifyTypes.join(', ')}), naming the session (thread-id). This imports the new lines
of that session's rollout ($CODEX_HOME/sessions, else ~/.codex/sessions) into the mecha home at
once, incrementally and under the import lock, sharing the ledger with 'mecha import codex'
(nothing is imported twice). The turn is over, so the agent's last answer ends its run then.

It never blocks Codex: whatever goes wrong (no home, an argument that is not one, no rollout of
that thread, a damaged ledger), it exits 0 with one line on stderr and leaves the home as it was.
It prints nothing on stdout unless --json or --print-session is given.

In ~/.codex/config.toml (top level, above any [table]; see docs/importers.md):
  notify = ["mecha", "hook", "codex"]

Options:
  --home DIR         the mecha home to import into (default: MECHA_HOME, else ~/.mecha)
  --json             print the import report as JSON
  --print-session    print the mecha id of the session the rollout went into
  -h, --help         show this help
`;

const codexCommand: Command = {
  path: codexPath,
  summary: "import a Codex rollout's new lines from its notify program (JSON argument)",
  help: codexHelp,
  options: { json: { type: 'boolean' }, 'print-session': { type: 'boolean' } },
  async run({ values, positionals, context }) {
    const note = (message: string) => {
      context.stderr(`mecha ${codexPath}: ${stripControl(message)} (nothing imported)\n`);
      return exitCodes.ok;
    };
    try {
      // A missing home throws here, and is caught below like every other failure.
      const home = openCommandHome(context);
      // Codex appends the notification as the last argument.
      const argument = positionals.at(-1);
      if (argument === undefined) return note('no notification argument (Codex appends one)');
      const sessions = defaultSourceFolder('codex', { env: context.env, homeDirectory: homedir() });
      const done = await importFromCodexNotify(home, argument, { sessions });
      if (done._tag === 'Left') return note(done.left.message);
      return printImported(values, context, done.right);
    } catch (error) {
      // A notify program must never get in Codex's way.
      return note(error instanceof Error ? error.message : String(error));
    }
  },
};

/** `mecha hook`: what agent CLIs run as hooks (from @mecha/importers). */
export const hookGroup: CommandGroup = {
  name: 'hook',
  summary: 'run by an agent CLI as a hook: claude-code, codex',
  commands: [hookCommand, codexCommand],
};
