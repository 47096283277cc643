import { errorBrand, errorGuard, MechaError } from '@mecha/errors';

const brand = errorBrand('GraphInputError');

/**
 * A request the graph refuses as asked (bad input, an unknown id, a redacted key). The message
 * says what to do instead; the MCP server returns it as a tool error and nothing was written.
 */
export class GraphInputError extends MechaError {
  readonly [brand] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GraphInputError';
  }

  static override isInstance = errorGuard<GraphInputError>('GraphInputError');
}
