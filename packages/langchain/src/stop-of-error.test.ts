import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stopOfError } from './record-langchain.js';

describe('stopOfError', () => {
  it('takes only an abort for the owner stopping the run', () => {
    const abort = new Error('Aborted');
    abort.name = 'AbortError';
    expect(stopOfError(abort)).toEqual({ cause: 'stopped', ownerStop: true });
    const timeout = new Error('slow');
    timeout.name = 'TimeoutError';
    expect(stopOfError(timeout)).toEqual({ cause: 'interrupted', ownerStop: false });
    fc.assert(
      fc.property(fc.string(), fc.string(), (name, message) => {
        fc.pre(!['AbortError', 'TimeoutError'].includes(name));
        fc.pre(!['Aborted', 'AbortError'].includes(message));
        const error = new Error(message);
        error.name = name;
        expect(stopOfError(error)).toEqual({ cause: 'error', ownerStop: false });
      }),
    );
  });
});
