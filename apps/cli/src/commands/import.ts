import { homedir } from 'node:os';
import { basename, dirname, resolve } from 'node:path';
import { stripControl } from '@mecha/appraisal-core';
import { isLeft } from '@mecha/errors';
import {
  defaultSourceFolder,
  type ImportReport,
  type ImportTool,
  importHistory,
  watchHistory,
} from '@mecha/importers';
import { type Command, type CommandGroup, exitCodes, failure, usageError } from '../command.js';
import { openCommandHome } from '../home.js';
import { interruptible } from '../interruptible.js';
import { flag } from '../parse-command.js';
import { progressBar } from '../progress.js';

const names: Record<ImportTool, { readonly title: string; readonly folder: string }> = {
  'claude-code': {
    title: 'Claude Code',
    folder: '$CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects',
  },
  codex: { title: 'Codex', folder: '$CODEX_HOME/sessions, else ~/.codex/sessions' },
};

function help(tool: ImportTool): string {
  const { title, folder } = names[tool];
  return `Usage: mecha import ${tool} [DIR] [--watch] [--home DIR] [--json]

Imports ${title}'s session logs into the mecha home: each log becomes one session marked with
the surface '${tool}' (so 'mecha sessions appraise --kind ${tool}' reads only them), with its
runs, messages, tool calls and results, stop causes, interrupts (steers), rejected tool uses
(denials) and compactions. A rerun imports only what is new; the ledger is imports/${tool}.jsonl
in the home. A damaged line is reported with its file and line, and the rest is imported; a
file that is not read (another tool's log, a subagent's, a pretty-printed JSON file, a copy of a
log already imported from another path) is reported with the reason, and the command exits 1
when nothing at all could be imported.
What each record maps to, and what cannot be known, is in docs/importers.md.

DIR is the folder of logs (default: ${folder}).

With --watch it keeps importing as ${title} writes: one pass now, then another whenever a log
grows or a new one appears (it looks every second), each under the import lock and from the
ledger, so it resumes where the last import or watch stopped. Ctrl-C (SIGINT) or SIGTERM ends
it after the pass under way, with exit 0.

Options:
  --watch     keep importing new lines as they are written, until interrupted
  --home DIR  the mecha home to import into
  --json      print the import report as JSON (with --watch: one line of JSON per pass)
  -h, --help  show this help
`;
}

const subagentReason = "a subagent's log";

/**
 * One line per file not imported, except subagent logs: those are one line per folder, "N
 * subagent logs not mapped" with their names (a session can have hundreds).
 */
function skippedLines(skipped: ImportReport['skippedFiles']): string[] {
  const lines: string[] = [];
  const subagents = new Map<string, string[]>();
  for (const file of skipped) {
    if (file.reason.startsWith(subagentReason)) {
      const folder = dirname(file.file);
      subagents.set(folder, [...(subagents.get(folder) ?? []), basename(file.file)]);
    } else lines.push(`  ${stripControl(file.file)}: ${stripControl(file.reason)}`);
  }
  for (const [folder, names] of subagents) {
    const shown = names.slice(0, 3).join(', ');
    const more = names.length > 3 ? ` and ${names.length - 3} more` : '';
    lines.push(
      `  ${stripControl(folder)}: ${names.length} subagent ${names.length === 1 ? 'log' : 'logs'} not mapped (${stripControl(shown)}${more}): a subagent's conversation is the parent agent's, not the person's`,
    );
  }
  return lines;
}

function render(report: ImportReport): string {
  const lines = [
    `Imported ${names[report.tool].title} logs from ${stripControl(report.source)}`,
    `  files      ${report.files.seen} seen · ${report.files.read} with new lines · ${report.files.unchanged} unchanged · ${report.files.skipped} skipped`,
    `  sessions   ${report.sessions.created} new · ${report.sessions.continued} continued`,
    `  lines      ${report.lines.read} read · ${report.lines.mapped} mapped · ${report.lines.ignored} not mapped · ${report.lines.damaged} damaged`,
    `  events     ${report.events} written`,
    `  signals    ${report.signals.steers} steers · ${report.signals.denials} denials · ${report.signals.ceilings} ceiling stops · ${report.signals.compactions} compactions · ${report.signals.errors} provider errors`,
  ];
  if (report.damaged.length > 0) {
    lines.push('', 'Damaged lines (not imported; the rest was):');
    for (const damaged of report.damaged) {
      lines.push(
        `  ${stripControl(damaged.file)}:${damaged.line}: ${stripControl(damaged.reason)}`,
      );
    }
  }
  if (report.skippedFiles.length > 0) {
    lines.push('', 'Files not imported:', ...skippedLines(report.skippedFiles));
  }
  if (report.pending.length > 0) {
    lines.push('', 'Still being written (the next import reads the last line):');
    for (const file of report.pending) lines.push(`  ${stripControl(file)}`);
  }
  lines.push('', `Next: mecha sessions appraise --kind ${report.tool}`, '');
  return lines.join('\n');
}

/**
 * Whether the pass found nothing it could import: no log read or already imported (every file
 * was refused, or there was none). A rerun over logs already imported is not this.
 */
function nothingImported(report: ImportReport): boolean {
  return report.files.read === 0 && report.files.unchanged === 0;
}

/** One line for a pass of a watch: what it found new, and every file it did not import. */
function renderPass(report: ImportReport, at: Date): string {
  const lines = [
    `${at.toISOString().slice(11, 19)}  ${report.files.read} files with new lines · ${report.lines.read} lines · ${report.events} events · ${report.sessions.created} new sessions · ${report.signals.steers} steers · ${report.signals.denials} denials · ${report.lines.damaged} damaged`,
  ];
  for (const damaged of report.damaged) {
    lines.push(
      `  ${stripControl(damaged.file)}:${damaged.line}: ${stripControl(damaged.reason)} (not imported)`,
    );
  }
  lines.push(...skippedLines(report.skippedFiles));
  return `${lines.join('\n')}\n`;
}

/** `--watch`: passes until SIGINT or SIGTERM, each rendered as it ends. */
async function watch(
  tool: ImportTool,
  source: string,
  json: boolean,
  context: Parameters<Command['run']>[0]['context'],
): Promise<number> {
  let first = true;
  const result = await interruptible(
    (signal) =>
      watchHistory(openCommandHome(context), {
        tool,
        source,
        signal,
        onPass: (report) => {
          if (json) context.stdout(`${JSON.stringify(report)}\n`);
          else if (first) {
            context.stdout(render(report).replace(/\nNext: [^\n]*\n$/, '\n'));
            context.stdout(
              `Watching ${stripControl(report.source)} for new lines (Ctrl-C stops)\n`,
            );
          } else context.stdout(renderPass(report, new Date()));
          first = false;
        },
      }),
    ['SIGINT', 'SIGTERM'],
  );
  if (isLeft(result)) return failure(context, `import ${tool}`, result.left.message);
  if (!json) {
    context.stdout(
      `Stopped watching after ${result.right.passes} ${result.right.passes === 1 ? 'pass' : 'passes'}; the ledger keeps the place.\n`,
    );
  }
  return exitCodes.ok;
}

function importCommand(tool: ImportTool): Command {
  return {
    path: `import ${tool}`,
    summary: `import ${names[tool].title}'s session logs (default ${names[tool].folder.split(', else ')[1]})`,
    help: help(tool),
    options: { json: { type: 'boolean' }, watch: { type: 'boolean' } },
    async run({ values, positionals, context }) {
      if (positionals.length > 1) {
        return usageError(context, `import ${tool}`, `takes one folder, not ${positionals.length}`);
      }
      const given = positionals[0];
      const source =
        given === undefined
          ? defaultSourceFolder(tool, { env: context.env, homeDirectory: homedir() })
          : resolve(context.cwd, given);
      if (flag(values, 'watch')) return watch(tool, source, flag(values, 'json'), context);
      const progress = progressBar({
        write: context.stderr,
        isTTY: context.stderrIsTTY,
        label: 'importing',
      });
      const result = await importHistory(openCommandHome(context), {
        tool,
        source,
        onProgress: (_done, total) => {
          progress.total(total);
          progress.tick();
        },
      });
      progress.done();
      if (isLeft(result)) {
        // The default folder is missing until the agent CLI has run on this machine: say where
        // the logs are looked for and how to point at others.
        const hint =
          result.left.kind === 'source_missing' && given === undefined
            ? ` (${tool} writes its logs there once it has run; give another folder: mecha import ${tool} DIR)`
            : '';
        return failure(context, `import ${tool}`, `${result.left.message}${hint}`);
      }
      const report = result.right;
      if (flag(values, 'json')) {
        context.stdout(`${JSON.stringify(report, null, 2)}\n`);
      } else {
        context.stdout(render(report));
      }
      for (const damaged of report.damaged) {
        if (flag(values, 'json')) {
          context.stderr(
            `mecha import ${tool}: ${stripControl(damaged.file)}:${damaged.line}: ${stripControl(damaged.reason)} (skipped)\n`,
          );
        }
      }
      if (nothingImported(report)) {
        context.stderr(
          `mecha import ${tool}: nothing could be imported from ${stripControl(report.source)} (${report.files.seen === 0 && report.files.skipped === 0 ? `no ${names[tool].title} logs there` : 'see the files not imported above'})\n`,
        );
        return exitCodes.failure;
      }
      return exitCodes.ok;
    },
  };
}

/** `mecha import`: other agent CLIs' session logs into the home (from @mecha/importers). */
export const importGroup: CommandGroup = {
  name: 'import',
  summary: "import other agent CLIs' session logs: claude-code, codex",
  commands: [importCommand('claude-code'), importCommand('codex')],
};
