import { errorBrand, errorGuard, MechaError } from '@mecha/errors';

const grammarBrand = errorBrand('GrammarError');

/** A GBNF grammar or JSON schema that node-llama-cpp/llama.cpp refused. */
export class GrammarError extends MechaError {
  readonly [grammarBrand] = true;

  constructor(
    readonly kind: 'gbnf' | 'jsonSchema',
    options?: { cause?: unknown },
  ) {
    const reason = options?.cause instanceof Error ? `: ${options.cause.message}` : '';
    super(`The ${kind === 'gbnf' ? 'GBNF grammar' : 'JSON schema'} was refused${reason}`, options);
    this.name = 'GrammarError';
  }

  static override isInstance = errorGuard<GrammarError>('GrammarError');
}
