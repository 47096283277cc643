import type { JsonValue } from './content-hash.js';
import { type CandidateFact, type Extractor, metadataExtractor } from './metadata-extractor.js';
import { nameKey } from './normalize-text.js';

// Words that open a sentence in capitals without being a name: determiners, pronouns,
// conjunctions, common adverbs and the verbs an episode's past-tense prose starts with.
const openers = new Set(
  `a an the this that these those some every each all both no one two there here
  i we you he she it they my our your his her its their me us them
  and but or so if as also then next later finally today yesterday tomorrow after before when while
  in on at for with from to by of about over under into during since until
  met sent wrote made took got gave found built set ran told said spent left held put read saw kept
  began brought bought drew chose came went did had was were is are asked agreed decided discussed
  session run`
    .split(/\s+/)
    .filter((word) => word !== ''),
);

// What a sentence may state between two names, and the present-tense predicate it is kept as,
// so "Priya Nair was at Brown" is the belief a later "Priya Nair is at Brown" correction names.
const verbs: readonly (readonly [string, string])[] = [
  ['is part of', 'is part of'],
  ['was part of', 'is part of'],
  ['reports to', 'reports to'],
  ['reported to', 'reports to'],
  ['works at', 'works at'],
  ['worked at', 'works at'],
  ['works for', 'works for'],
  ['worked for', 'works for'],
  ['works on', 'works on'],
  ['worked on', 'works on'],
  ['lives in', 'lives in'],
  ['lived in', 'lives in'],
  ['moved to', 'moved to'],
  ['is at', 'is at'],
  ['was at', 'is at'],
  ['is in', 'is in'],
  ['was in', 'is in'],
  ['joined', 'joined'],
  ['leads', 'leads'],
  ['led', 'leads'],
  ['manages', 'manages'],
  ['managed', 'manages'],
  ['owns', 'owns'],
  ['owned', 'owns'],
];
const verbPattern = new RegExp(
  `^[ \\t]+(${verbs.map(([said]) => said.replace(/ /g, '[ \\t]+')).join('|')})[ \\t]+(?:the[ \\t]+)?`,
);
const verbByText = new Map(verbs);

interface Span {
  readonly start: number;
  readonly end: number;
  readonly words: number;
}

/** Runs of capitalised words, separated by spaces only, in one sentence (offsets in the body). */
function nameSpans(body: string, from: number, sentence: string): Span[] {
  const spans: Span[] = [];
  let current: { start: number; end: number; words: number } | undefined;
  let first = true;
  for (const match of sentence.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’&-]*/gu)) {
    const word = match[0];
    const start = from + (match.index ?? 0);
    const end = start + word.length;
    const opener = first && (openers.has(word.toLowerCase()) || /^\p{Lu}\p{Ll}{3,}ed$/u.test(word));
    const capital = /^\p{Lu}/u.test(word) && !opener;
    first = false;
    if (capital && current !== undefined && /^[ \t]+$/.test(body.slice(current.end, start))) {
      current.end = end;
      current.words += 1;
      continue;
    }
    if (current !== undefined) spans.push(current);
    current = capital ? { start, end, words: 1 } : undefined;
  }
  if (current !== undefined) spans.push(current);
  return spans;
}

/**
 * The deterministic extractor: reads the prose for what it states plainly. A run of two or more
 * capitalised words is a name (`(name, "is a", "entity")`); a name followed by one of a fixed set
 * of verbs ("is at", "works for", "joined", "leads", …; past tense kept in the present form) and
 * then another name is a relation. No pronoun is resolved and nothing is inferred: what it cannot
 * read plainly it leaves out. Every part it proposes is a piece of the text as written.
 */
export const plainTextExtractor: Extractor = {
  name: 'plain-text',
  extract(episode) {
    const { body } = episode;
    const entities = new Map<string, CandidateFact>();
    const relations = new Map<string, CandidateFact>();
    for (const sentence of body.matchAll(/[^.!?;\n]+/g)) {
      const from = sentence.index ?? 0;
      const spans = nameSpans(body, from, sentence[0]);
      for (const [index, span] of spans.entries()) {
        const name = body.slice(span.start, span.end);
        if (span.words >= 2) {
          const key = nameKey(name);
          if (!entities.has(key)) {
            entities.set(key, {
              kind: 'entity',
              subject: name,
              predicate: 'is a',
              object: 'entity',
            });
          }
        }
        const limit = from + sentence[0].length;
        const verb = verbPattern.exec(body.slice(span.end, limit));
        const next = spans[index + 1];
        if (verb?.[1] === undefined || next === undefined) continue;
        if (next.start !== span.end + verb[0].length) continue;
        const predicate = verbByText.get(verb[1].replace(/[ \t]+/g, ' '));
        if (predicate === undefined) continue;
        const object = body.slice(next.start, next.end);
        const key = JSON.stringify([nameKey(name), predicate, nameKey(object)]);
        if (!relations.has(key)) {
          relations.set(key, { kind: 'relation', subject: name, predicate, object });
        }
      }
    }
    return [...entities.values(), ...relations.values()];
  },
};

function typedNames(meta: { readonly [key: string]: JsonValue }): Set<string> {
  const named = new Set<string>();
  const entities = meta.entities;
  if (!Array.isArray(entities)) return named;
  for (const entity of entities) {
    if (entity === null || typeof entity !== 'object' || Array.isArray(entity)) continue;
    const name = (entity as { readonly [key: string]: JsonValue }).name;
    if (typeof name === 'string') named.add(nameKey(name));
  }
  return named;
}

/**
 * Whether a model already extracted the episode's facts: `meta.facts_by` names who did (distill
 * sets it to the model when its extraction under a grammar succeeded, even with nothing found).
 */
function extractedByModel(meta: { readonly [key: string]: JsonValue }): boolean {
  return typeof meta.facts_by === 'string' && meta.facts_by.trim() !== '';
}

/**
 * The graph's default extractor: what the metadata names (`metadataExtractor`), then what the
 * prose states plainly (`plainTextExtractor`), leaving a name the metadata already types to it.
 * When `meta.facts_by` says a model extracted the facts, the metadata is the whole extraction
 * and the prose is not read: the model's grounded facts, or the deterministic reading when there
 * is no model, never both. Like every extractor it only proposes: each candidate waits in the
 * review queue.
 */
export const episodeExtractor: Extractor = {
  name: 'metadata+plain-text',
  extract(episode) {
    const fromMeta = metadataExtractor.extract(episode);
    if (extractedByModel(episode.meta)) return fromMeta;
    const typed = typedNames(episode.meta);
    const fromText = plainTextExtractor
      .extract(episode)
      .filter((fact) => fact.kind !== 'entity' || !typed.has(nameKey(fact.subject)));
    return [...fromMeta, ...fromText];
  },
};
