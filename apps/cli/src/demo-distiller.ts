import { createScriptedModel, type ScriptedModel } from '@mecha/local-model';

/** What the demo's distiller is called in `meta.distilled_by` and in what the demo prints. */
export const demoDistillerName = 'scripted demo distiller (no language model)';

/** The owner lines a distiller prompt shows, in order: `owner [id]: text`. */
/** Capitalised words that are not names in the sample's prose. */
const notNames = new Set(
  'Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July August September October November December'.split(
    ' ',
  ),
);

/** The episode a facts prompt shows, or null when the prompt is not the facts prompt. */
function factsEpisode(prompt: string): string | null {
  return (
    /\nEpisode to extract facts from:\n\n([\s\S]*)\n\nAnswer with the JSON object\./.exec(
      prompt,
    )?.[1] ?? null
  );
}

/** Capitalised words inside sentences (not the first word of one), in order, once each. */
export function demoNames(text: string): string[] {
  const names = new Set<string>();
  for (const sentence of text.matchAll(/[^.!?:"]+/g)) {
    const words = sentence[0].trim().split(/\s+/).slice(1);
    for (const word of words) {
      const bare = word.replace(/[^\p{L}\p{N}]+$/u, '');
      if (/^\p{Lu}\p{Ll}+$/u.test(bare) && !notNames.has(bare)) names.add(bare);
    }
  }
  return [...names];
}

function ownerLines(prompt: string): string[] {
  return [...prompt.matchAll(/\nowner \[[^\]]+\]: ([^\n]+)/g)].map((match) => match[1] ?? '');
}

/**
 * The demo's stand-in for a local model: it answers the distiller's prompts by rule, not by
 * reading, so that `mecha demo` can show the whole review flow on a machine with no GGUF model.
 * For a session, the episode is the owner's own first request, quoted, and says that a script
 * wrote it; for an episode's facts, every capitalised word that does not open a sentence (and is
 * not a day or a month) is named as an organization. Those candidates are grounded in the
 * episode's words by distill and wait in the graph's review queue, exactly as a real model's
 * would. The follow-up appraisal is not scripted: the demo turns it off.
 */
export function demoDistiller(): ScriptedModel {
  return createScriptedModel(
    (prompt) => {
      const episode = factsEpisode(prompt);
      if (episode !== null) {
        return JSON.stringify({
          entities: demoNames(episode)
            .slice(0, 12)
            .map((name) => ({ name, type: 'organization' })),
          relations: [],
        });
      }
      const first = ownerLines(prompt)[0]?.trim();
      if (first === undefined || first === '') return JSON.stringify({ skip: true });
      const request = first.length > 300 ? `${first.slice(0, 297)}...` : first;
      return JSON.stringify({
        skip: false,
        episode: `The owner asked: "${request}" (written by the demo's scripted distiller from the transcript's first request).`,
      });
    },
    { name: 'mecha-demo' },
  );
}
