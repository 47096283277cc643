import { parseArgs } from 'node:util';
import { type Charter, formatDuration } from '@mecha/charter';
import { mintOwnerEdit } from '@mecha/charter/owner';
import {
  type CharterCommandOp,
  charterCommand,
  charterCommandOptions,
  editCharter,
  type MechaHome,
} from '@mecha/stores';
import * as E from 'fp-ts/lib/Either.js';

/** What `/mecha …` asks for, once its words are read. */
export type SlashRequest =
  | { readonly kind: 'help' }
  | { readonly kind: 'tasks' }
  | { readonly kind: 'drafts' }
  | { readonly kind: 'charter' }
  | {
      readonly kind: 'charter_edit';
      readonly op: CharterCommandOp;
      readonly positionals: readonly string[];
      readonly options: Readonly<
        Record<string, string | boolean | (string | boolean)[] | undefined>
      >;
    }
  | { readonly kind: 'usage'; readonly message: string };

const quotes: Record<string, string> = {
  '"': '"',
  "'": "'",
  '\u201c': '\u201d',
  '\u2018': '\u2019',
};

/**
 * Splits a slash command's text into words the way a shell would for plain quoting: spaces
 * separate, and "…", '…' or Slack's curly quotes keep a phrase together.
 */
export function splitWords(text: string): string[] | { readonly error: string } {
  const words: string[] = [];
  let current: string | undefined;
  let closing: string | undefined;
  for (const char of text) {
    if (closing !== undefined) {
      if (char === closing) closing = undefined;
      else current += char;
    } else if (/\s/.test(char)) {
      if (current !== undefined) words.push(current);
      current = undefined;
    } else if (quotes[char] !== undefined) {
      closing = quotes[char];
      current ??= '';
    } else current = (current ?? '') + char;
  }
  if (closing !== undefined) return { error: `a quote is not closed (${closing})` };
  if (current !== undefined) words.push(current);
  return words;
}

const ops: readonly CharterCommandOp[] = ['add', 'move', 'rm', 'set', 'unset'];
const isOp = (word: string): word is CharterCommandOp => (ops as readonly string[]).includes(word);

/** What `parseArgs` refused, said as `mecha charter` says it. */
function optionMessage(error: unknown, options: Record<string, { readonly type: string }>): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const quoted = /'(-[^']*)'/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && quoted !== undefined) {
    return `unknown option '${quoted.split('=')[0]}'`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && quoted !== undefined) {
    const name = quoted.replace(/^-+/, '').split(/[ ,=]/)[0] as string;
    return options[name]?.type === 'boolean'
      ? `--${name} is a switch and takes no value`
      : `--${name} needs a value`;
  }
  return message.split('\n')[0]?.replace(/\.$/, '') ?? 'bad arguments';
}

/** Reads the text of `/mecha …`: `charter`, `charter add|move|rm|set|unset …`, `tasks`, `drafts`, `help`. */
export function parseSlash(text: string): SlashRequest {
  const words = splitWords(text);
  if (!Array.isArray(words)) return { kind: 'usage', message: words.error };
  const [first, second, ...rest] = words;
  if (first === undefined || first === 'help') return { kind: 'help' };
  if (first === 'tasks' && second === undefined) return { kind: 'tasks' };
  if (first === 'drafts' && second === undefined) return { kind: 'drafts' };
  if (first !== 'charter') {
    return { kind: 'usage', message: `unknown command ${JSON.stringify(first)}` };
  }
  if (second === undefined) return { kind: 'charter' };
  if (!isOp(second)) {
    return {
      kind: 'usage',
      message: `unknown charter command ${JSON.stringify(second)}: use add, move, rm, set or unset`,
    };
  }
  try {
    const parsed = parseArgs({
      args: rest,
      options: charterCommandOptions[second] as Record<string, { type: 'string' | 'boolean' }>,
      allowPositionals: true,
      strict: true,
    });
    return {
      kind: 'charter_edit',
      op: second,
      positionals: parsed.positionals,
      options: parsed.values as Record<string, string | boolean | undefined>,
    };
  } catch (error) {
    return { kind: 'usage', message: optionMessage(error, charterCommandOptions[second]) };
  }
}

/** The help `/mecha help` answers with. */
export const slashHelp = [
  'Usage: /mecha charter | /mecha charter add|move|rm|set|unset … | /mecha tasks | /mecha drafts',
  '  /mecha charter                         your charter, highest first',
  '  /mecha charter add ID TEXT… [--sensor SENSOR] [--setpoint DURATION] [--rank N]',
  '  /mecha charter move ID RANK',
  '  /mecha charter rm ID',
  '  /mecha charter set ID [--text TEXT] [--sensor SENSOR] [--setpoint DURATION]',
  '  /mecha charter unset ID [--sensor] [--setpoint]',
  '  /mecha tasks                           your open tasks, with Done and Drop (only you see it)',
  '  /mecha drafts                          the drafts waiting on you, with Send, Edit and Reject',
].join('\n');

/** The charter as a short listing for a Slack reply. */
export function charterListing(charter: Charter): string {
  if (charter.length === 0) {
    return 'Your charter is empty. Add a line with: /mecha charter add replies "Answer what people send me" --sensor outbox_age --setpoint 2d';
  }
  return [
    `Your charter: ${charter.length} line${charter.length === 1 ? '' : 's'}, highest first. Rank is position; there are no weights.`,
    ...charter.map((line, index) => {
      const watch = [
        line.sensor === undefined ? undefined : `sensor ${line.sensor}`,
        line.setpoint === undefined ? undefined : `setpoint ${formatDuration(line.setpoint)}`,
      ].filter((part) => part !== undefined);
      return `${index + 1}. ${line.id}: ${line.text}${watch.length === 0 ? '' : ` (${watch.join(' · ')})`}`;
    }),
  ].join('\n');
}

/**
 * Runs a charter request from Slack for a user already known to be the owner: shows the
 * charter, or reads the edit with stores' `charterCommand` (the CLI's messages) and writes it
 * through `editCharter` with a capability minted here, where the person's request arrived.
 */
export async function runCharterRequest(
  home: MechaHome,
  request: SlashRequest & { readonly kind: 'charter' | 'charter_edit' },
  slackUserId: string,
): Promise<string> {
  if (request.kind === 'charter') {
    const read = home.readCharter();
    return read.state === 'unreadable'
      ? `/mecha charter: ${read.reason}`
      : charterListing(read.charter);
  }
  const path = `/mecha charter ${request.op}`;
  const parsed = charterCommand(request);
  if (E.isLeft(parsed)) return `${path}: ${parsed.left.message} (see /mecha help)`;
  const { changes, done } = parsed.right;
  const edited = await editCharter(home, {
    capability: mintOwnerEdit('slack', slackUserId),
    env: {},
    changes,
  });
  if (E.isLeft(edited)) return `${path}: ${edited.left.message}`;
  return `${done}\n\n${charterListing(edited.right.charter)}`;
}
