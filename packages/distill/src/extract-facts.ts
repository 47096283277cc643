import type { ChatPrompt, JsonSchema } from '@mecha/local-model';
import { z } from 'zod';
import { type ParsedModelJson, parseModelJson } from './parse-model-json.js';

/** How many facts the extractor may propose per episode, and how long each part may be. */
export interface FactBounds {
  readonly entities: number;
  readonly relations: number;
  readonly name: number;
  readonly predicate: number;
  readonly quote: number;
}

/** The bounds extraction asks with: twelve entities and twelve relations at most. */
export const defaultFactBounds: FactBounds = {
  entities: 12,
  relations: 12,
  name: 80,
  predicate: 40,
  quote: 240,
};

/** The kinds of thing an entity may be; `other` is sent to the graph as no type at all. */
export const entityTypes = [
  'person',
  'organization',
  'project',
  'place',
  'product',
  'event',
  'document',
  'other',
] as const;

/** A kind of entity the extractor may name. */
export type EntityType = (typeof entityTypes)[number];

/**
 * The JSON schema the extractor's answer is decoded under: named entities with a type, and
 * relations (subject, predicate, object) each with the words of the episode that state it.
 * Every string and list is bounded.
 */
export function factsGrammarSchema(bounds: FactBounds = defaultFactBounds): JsonSchema {
  const name = { type: 'string', minLength: 1, maxLength: bounds.name };
  return {
    type: 'object',
    properties: {
      entities: {
        type: 'array',
        maxItems: bounds.entities,
        items: {
          type: 'object',
          properties: { name, type: { enum: entityTypes } },
        },
      },
      relations: {
        type: 'array',
        maxItems: bounds.relations,
        items: {
          type: 'object',
          properties: {
            subject: name,
            predicate: { type: 'string', minLength: 1, maxLength: bounds.predicate },
            object: name,
            quote: { type: 'string', minLength: 1, maxLength: bounds.quote },
          },
        },
      },
    },
  };
}

const answerSchema = z.object({
  entities: z.array(z.object({ name: z.string(), type: z.enum(entityTypes) })),
  relations: z.array(
    z.object({ subject: z.string(), predicate: z.string(), object: z.string(), quote: z.string() }),
  ),
});

/** The extractor's answer as parsed, before it is grounded in the episode. */
export type FactsAnswer = z.infer<typeof answerSchema>;

const instructions = `You extract facts for a knowledge graph from one episode of a personal agent's memory. The episode is prose; you list only what it states plainly.

Entities: the people, organizations, projects, places, products, events and documents the episode names, each with its name exactly as written in the episode and its type.

Relations: a subject, a short predicate in the present tense ("works at", "leads", "is part of", "is due on"), and an object, each the way the episode writes it, with the sentence or phrase of the episode that states the relation, quoted word for word. Guess nothing and resolve no pronoun: what the episode does not state plainly is left out. An empty list is a fine answer.

Answer with one JSON object and nothing else: {"entities": [{"name": "...", "type": "person"}], "relations": [{"subject": "...", "predicate": "...", "object": "...", "quote": "..."}]}.`;

/** The extractor's fixed instructions, sent as the system message. */
export const factsInstructions = instructions;

/** The words a facts prompt opens its user message with (a scripted model tells prompts apart by them). */
export const factsPromptOpening = 'Episode to extract facts from:';

/** The prompt an episode's facts are asked for with: the instructions, then the episode alone. */
export function factsPrompt(episode: string): ChatPrompt {
  return {
    system: instructions,
    user: `${factsPromptOpening}\n\n${episode}\n\nAnswer with the JSON object.`,
  };
}

/** An extractor answer parsed, or why it could not be. */
export type ParsedFacts = ParsedModelJson<FactsAnswer>;

/** Parses the extractor's answer. */
export function parseFactsAnswer(text: string): ParsedFacts {
  return parseModelJson(text, answerSchema);
}

/** An entity as it rides on `meta.entities`: the graph proposes `(name, "is a", type)`. */
export interface EpisodeEntity {
  readonly name: string;
  /** Absent for `other`: the graph then calls it an entity. */
  readonly type?: Exclude<EntityType, 'other'>;
}

/** A relation as it rides on `meta.relations`, with the episode's words that state it. */
export interface EpisodeRelation {
  readonly subject: string;
  readonly predicate: string;
  readonly object: string;
  readonly quote: string;
}

/**
 * Why a proposed fact was left out:
 * - `not_in_episode`: an entity's name is not written in the episode;
 * - `quote_not_in_episode`: a relation's quote is not in the episode;
 * - `names_not_in_quote`: the quote does not name both the subject and the object;
 * - `empty`: a part is blank, or subject and object are the same name;
 * - `duplicate`: the same fact was proposed twice.
 */
export type FactDropReason =
  | 'not_in_episode'
  | 'quote_not_in_episode'
  | 'names_not_in_quote'
  | 'empty'
  | 'duplicate';

/** What an answer came to once grounded in its episode. */
export interface GroundedFacts {
  readonly entities: readonly EpisodeEntity[];
  readonly relations: readonly EpisodeRelation[];
  readonly dropped: Readonly<Partial<Record<FactDropReason, number>>>;
}

/** Text as compared for grounding: NFKC, case folded, runs of whitespace as one space, trimmed. */
export function foldText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** Text as kept: NFC, runs of whitespace as one space, trimmed (case as written). */
function tidy(text: string): string {
  return text.normalize('NFC').replace(/\s+/gu, ' ').trim();
}

/**
 * Keeps only what the episode itself carries: an entity whose name is written in it, and a
 * relation whose quote is in it and names both its subject and its object (case and the layout
 * of whitespace aside). Predicates are kept in lower case. Everything else is counted by reason.
 * Nothing here is a belief: the graph turns what is kept into candidates for review.
 */
export function groundFacts(answer: FactsAnswer, episode: string): GroundedFacts {
  const body = foldText(episode);
  const dropped: Partial<Record<FactDropReason, number>> = {};
  const drop = (reason: FactDropReason) => {
    dropped[reason] = (dropped[reason] ?? 0) + 1;
  };
  const entities: EpisodeEntity[] = [];
  const seenEntities = new Set<string>();
  for (const proposed of answer.entities) {
    const name = tidy(proposed.name);
    const key = foldText(name);
    if (key === '') drop('empty');
    else if (!body.includes(key)) drop('not_in_episode');
    else if (seenEntities.has(key)) drop('duplicate');
    else {
      seenEntities.add(key);
      entities.push(proposed.type === 'other' ? { name } : { name, type: proposed.type });
    }
  }
  const relations: EpisodeRelation[] = [];
  const seenRelations = new Set<string>();
  for (const proposed of answer.relations) {
    const subject = tidy(proposed.subject);
    const object = tidy(proposed.object);
    const predicate = tidy(proposed.predicate).toLowerCase();
    const quote = tidy(proposed.quote);
    const [s, o, q] = [foldText(subject), foldText(object), foldText(quote)];
    const key = JSON.stringify([s, foldText(predicate), o]);
    if (s === '' || o === '' || predicate === '' || q === '' || s === o) drop('empty');
    else if (!body.includes(q)) drop('quote_not_in_episode');
    else if (!q.includes(s) || !q.includes(o)) drop('names_not_in_quote');
    else if (seenRelations.has(key)) drop('duplicate');
    else {
      seenRelations.add(key);
      relations.push({ subject, predicate, object, quote });
    }
  }
  return { entities, relations, dropped };
}
