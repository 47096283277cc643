import type { CommandGroup } from '../command.js';

/**
 * The top-level commands: names and one-line summaries, and how to load each. This module
 * imports nothing at run time, so `mecha --version` and `mecha --help` (whose text comes from
 * here) load no command, and each group is loaded only when named: nothing heavy (a model
 * runtime, an MCP client, the appraisal core) is on the startup path of a command that does not
 * need it.
 */
export const commands: readonly {
  readonly name: string;
  readonly summary: string;
  readonly load: () => Promise<CommandGroup>;
}[] = [
  {
    name: 'init',
    summary: 'create a mecha home: manifest, config.toml with the graph server, a charter template',
    load: async () => (await import('./init.js')).initGroup,
  },
  {
    name: 'doctor',
    summary: "every store's state, the config, model, graph server and locks; --repair compacts",
    load: async () => (await import('./doctor.js')).doctorGroup,
  },
  {
    name: 'charter',
    summary: 'your ranked priorities: show them, or add, move, remove and edit lines',
    load: async () => (await import('./charter.js')).charterGroup,
  },
  {
    name: 'sessions',
    summary: 'appraise, list, compare, health and successes: readouts derived from your records',
    load: async () => (await import('./sessions/index.js')).sessionsGroup,
  },
  {
    name: 'tasks',
    summary: 'the board: list and add tasks, close and reopen them with an appraisal',
    load: async () => (await import('./tasks.js')).tasksGroup,
  },
  {
    name: 'tools',
    summary: 'the tools a harness registered, which can close tasks, and whether each is guarded',
    load: async () => (await import('./tools.js')).toolsGroup,
  },
  {
    name: 'import',
    summary: "import other agent CLIs' session logs (claude-code, codex) into the home",
    load: async () => (await import('./import.js')).importGroup,
  },
  {
    name: 'export',
    summary: 'export appraisals as OpenTelemetry spans to an OTLP backend (Langfuse, Phoenix, …)',
    load: async () => (await import('./export.js')).exportGroup,
  },
  {
    name: 'validity',
    summary: 'the readout against verifier outcomes of benchmark runs: AUC, intervals, counts',
    load: async () => (await import('./validity.js')).validityGroup,
  },
  {
    name: 'hook',
    summary: 'run by an agent CLI as a hook: import its transcript live (claude-code, codex)',
    load: async () => (await import('./hook.js')).hookGroup,
  },
  {
    name: 'distill',
    summary: 'carry finished sessions into long-term memory (from @mecha/distill)',
    load: async () => (await import('./distill.js')).distillGroup,
  },
  {
    name: 'reflect',
    summary:
      "turn the owner's corrections into lessons, with the local model (from @mecha/distill)",
    load: async () => (await import('./reflect.js')).reflectGroup,
  },
  {
    name: 'nightly',
    summary: 'the nightly pass: reflect, distill, then score predictions, never two at once',
    load: async () => (await import('./nightly.js')).nightlyGroup,
  },
  {
    name: 'graph',
    summary: 'review what distillation proposed: approve, deny, redact, search, show',
    load: async () => (await import('./graph.js')).graphGroup,
  },
  {
    name: 'gossip',
    summary:
      'the probe a surprise seeds: what the graph holds about someone, and where it was wrong',
    load: async () => (await import('./graph.js')).gossipGroup,
  },
  {
    name: 'appraiser',
    summary: 'appraise external reports with the local model; recall them (@mecha/gpu-appraiser)',
    load: async () => (await import('./appraiser.js')).appraiserGroup,
  },
  {
    name: 'verdicts',
    summary: 'honest graders: audit, meta bank, drift watch, grade (from @mecha/grader-verdicts)',
    load: async () => (await import('./verdicts/index.js')).verdictsGroup,
  },
  {
    name: 'web',
    summary: 'the web board: runs with their chips, the board, drafts, the charter, graph review',
    load: async () => (await import('./web.js')).webGroup,
  },
  {
    name: 'slack',
    summary: 'run the Slack app: run-end lines, Done/Drop, drafts and /mecha charter',
    load: async () => (await import('./slack.js')).slackGroup,
  },
  {
    name: 'demo',
    summary: 'generate a sample home and show every readout on it',
    load: async () => (await import('./demo.js')).demoGroup,
  },
];
