import type { Llama, LlamaGrammar } from 'node-llama-cpp';
import type { CompletionGrammar } from './completion-model.js';
import { GrammarError } from './grammar-error.js';

const grammarCacheSize = 32;

function grammarKey(grammar: CompletionGrammar): string {
  return 'gbnf' in grammar
    ? `gbnf\0${grammar.gbnf}`
    : `json\0${JSON.stringify(grammar.jsonSchema)}`;
}

/**
 * The grammars a model has parsed, by their text: the last 32, so a caller that asks for the
 * same schema again and again parses it once. A grammar that fails to parse is a
 * {@link GrammarError} and is not kept.
 */
export class GrammarCache {
  private readonly grammars = new Map<string, Promise<LlamaGrammar>>();

  /** The parsed `grammar` for `llama`, parsed now or earlier. */
  get(llama: Llama, grammar: CompletionGrammar): Promise<LlamaGrammar> {
    const grammars = this.grammars;
    const key = grammarKey(grammar);
    let cached = grammars.get(key);
    if (!cached) {
      const kind = 'gbnf' in grammar ? 'gbnf' : 'jsonSchema';
      cached = (async () => {
        try {
          // Both parse the grammar now (a JSON schema becomes GBNF first) and throw on a bad one.
          return 'gbnf' in grammar
            ? await llama.createGrammar({ grammar: grammar.gbnf })
            : await llama.createGrammarForJsonSchema(
                grammar.jsonSchema as Parameters<Llama['createGrammarForJsonSchema']>[0],
              );
        } catch (cause) {
          throw new GrammarError(kind, { cause });
        }
      })();
      cached.catch(() => grammars.delete(key));
      grammars.set(key, cached);
      if (grammars.size > grammarCacheSize) {
        const oldest = grammars.keys().next().value;
        if (oldest !== undefined) grammars.delete(oldest);
      }
    }
    return cached;
  }
}
