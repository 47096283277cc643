import { type Command, type CommandGroup, failure } from '../command.js';

// The place for `mecha distill`, which @mecha/distill provides. Until it is wired here the
// command says so and fails, rather than pretending to have distilled anything.
const distill: Command = {
  path: 'distill',
  summary: 'carry finished sessions into long-term memory',
  help: [
    'Usage: mecha distill',
    '',
    'Distils finished sessions into episodes in the knowledge graph and writes their text',
    'appraisals. It comes with @mecha/distill and is not wired into this build yet.',
    '',
  ].join('\n'),
  options: {},
  async run({ context }) {
    return failure(
      context,
      'distill',
      'not available in this build yet (it comes with @mecha/distill)',
    );
  },
};

/** `mecha distill`: reserved for @mecha/distill. */
export const distillGroup: CommandGroup = {
  name: 'distill',
  summary: 'carry finished sessions into long-term memory',
  fallback: distill,
  commands: [],
};
