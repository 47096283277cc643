import { stripControl } from '@mecha/appraisal-core';
import { readToolRegistry, type ToolRegistry, toolFindings } from '@mecha/stores';
import { type Command, type CommandGroup, exitCodes } from '../command.js';
import { openCommandHome } from '../home.js';
import { flag } from '../parse-command.js';

function renderRegistry(registry: ToolRegistry, findings: ReturnType<typeof toolFindings>): string {
  const lines = [
    `Tools registered for a model${registry.harness === undefined ? '' : ` by ${registry.harness}`}, as recorded ${registry.at}:`,
  ];
  if (registry.tools.length === 0) lines.push('  none');
  const width = Math.max(4, ...registry.tools.map((tool) => tool.name.length));
  for (const tool of registry.tools) {
    const what = tool.can_close_tasks
      ? tool.guarded
        ? 'can change a task; guarded (closing is refused)'
        : 'can change a task; NOT guarded'
      : 'cannot change a task';
    lines.push(`  ${tool.name.padEnd(width)}  ${what}`);
  }
  const sandbox = registry.sandbox;
  lines.push(
    sandbox === undefined
      ? 'Run shell: not recorded.'
      : `Run shell: ${sandbox.shell}${sandbox.mounts.length === 0 ? ', mounting nothing' : `, mounting ${sandbox.mounts.join(', ')}`}.`,
  );
  lines.push('');
  if (findings.length === 0) {
    lines.push('The closure guarantee holds: only the owner can close a task.');
  } else {
    lines.push('The closure guarantee does not hold:');
    for (const finding of findings) lines.push(`  - ${finding.message}`);
  }
  return `${lines.map(stripControl).join('\n')}\n`;
}

const tools: Command = {
  path: 'tools',
  summary: 'the tools a harness registered, which can close tasks, and whether each is guarded',
  help: `Usage: mecha tools [--json]

Lists the tools a harness registered for a model, as it recorded them with
recordToolRegistry() from @mecha/stores at startup (runs/tools.json): which can change a board
task and whether each of those is wrapped by guardTaskTool(), and the sandbox its run shell is
in. Then checks what the closure guarantee rests on: no unguarded task tool, a confined shell,
and a sandbox that mounts neither the home nor a folder above or inside it.

Options:
  --json      the registry and the findings as JSON
  -h, --help  show this help

Exit codes: 0 when the guarantee holds, 1 when it does not or nothing was recorded (the
guarantee cannot be checked), 2 usage.
`,
  options: { json: { type: 'boolean' } },
  takesNoArguments: true,
  async run({ values, context }) {
    const home = openCommandHome(context);
    const read = readToolRegistry(home);
    const json = flag(values, 'json');
    if (read.state !== 'read') {
      const message =
        read.state === 'none'
          ? 'No harness has recorded its tools in this home, so the closure guarantee cannot be checked: call recordToolRegistry() at startup (docs/integrating.md).'
          : `The tool registry could not be read (${read.reason}), so the closure guarantee cannot be checked.`;
      context.stdout(
        json
          ? `${JSON.stringify({ state: read.state, ...(read.state === 'unreadable' ? { reason: read.reason } : {}), findings: null }, null, 2)}\n`
          : `${stripControl(message)}\n`,
      );
      return exitCodes.failure;
    }
    const findings = toolFindings(read.registry, home.path);
    context.stdout(
      json
        ? `${JSON.stringify({ state: 'read', registry: read.registry, findings }, null, 2)}\n`
        : renderRegistry(read.registry, findings),
    );
    return findings.length === 0 ? exitCodes.ok : exitCodes.failure;
  },
};

/** `mecha tools`: what the closure guarantee rests on, as the harness recorded it. */
export const toolsGroup: CommandGroup = {
  name: 'tools',
  summary: tools.summary,
  fallback: tools,
  commands: [],
};
