/**
 * How long each part of a distiller reply may be, in characters (an escape counts as one), and
 * how many corrections and surprises it may carry. Every string and list in the grammar is
 * bounded, so a reply always closes before the token budget runs out.
 */
export interface DistillBounds {
  readonly episode: number;
  readonly corrections: number;
  readonly belief: number;
  readonly about: number;
  readonly surprises: number;
  readonly surpriseText: number;
}

/** The bounds distillation asks with: an episode of up to 1,200 characters, five corrections, three surprises. */
export const defaultDistillBounds: DistillBounds = {
  episode: 1_200,
  corrections: 5,
  belief: 200,
  about: 80,
  surprises: 3,
  surpriseText: 200,
};

const field = (name: string) => `"\\"${name}\\"" ws ":" ws`;

function list(item: string, most: number): string {
  if (most <= 0) return '"[" ws "]"';
  const more = most > 1 ? ` ( ws "," ws ${item} ){0,${most - 1}}` : '';
  return `"[" ws ( ${item}${more} )? ws "]"`;
}

/**
 * The GBNF grammar a distiller reply is decoded under: `{"skip": true}` or
 * `{"skip": false, "episode": "…"}`, either optionally followed by `"corrections": [...]`
 * and then `"surprises": [...]`. Whitespace between tokens is at most one space.
 */
export function distillGrammar(bounds: DistillBounds = defaultDistillBounds): string {
  return [
    `root ::= "{" ws ${field('skip')} ( "true" | "false" ws "," ws ${field('episode')} episode ) corrections? surprises? ws "}"`,
    `corrections ::= ws "," ws ${field('corrections')} ${list('correction', bounds.corrections)}`,
    `surprises ::= ws "," ws ${field('surprises')} ${list('surprise', bounds.surprises)}`,
    `correction ::= "{" ws ${field('wrong')} belief ( ws "," ws ${field('right')} belief )? ( ws "," ws ${field('about')} about )? ( ws "," ws ${field('quote')} belief )? ws "}"`,
    `surprise ::= "{" ws ${field('about')} about ws "," ws ${field('graph_said')} finding ws "," ws ${field('found')} finding ws "}"`,
    `episode ::= "\\"" char{1,${bounds.episode}} "\\""`,
    `belief ::= "\\"" char{1,${bounds.belief}} "\\""`,
    `about ::= "\\"" char{1,${bounds.about}} "\\""`,
    `finding ::= "\\"" char{1,${bounds.surpriseText}} "\\""`,
    `char ::= [^"\\\\\\x00-\\x1F\\x7F] | "\\\\" ( ["\\\\/bfnrt] | "u" [0-9a-fA-F]{4} )`,
    'ws ::= " "?',
    '',
  ].join('\n');
}
