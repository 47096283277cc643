/** Runs work one call at a time, in call order; a waiter whose signal aborts leaves the line. */
export class Turns {
  private tail: Promise<void> = Promise.resolve();

  /**
   * Resolves with a release function once every earlier turn has been released, or with
   * `undefined` as soon as `signal` aborts (the turn is then passed on unused).
   */
  async take(signal?: AbortSignal): Promise<(() => void) | undefined> {
    let release: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.tail;
    this.tail = previous.then(() => done);
    const turn = previous.then(() => release);
    if (!signal) return turn;
    if (signal.aborted) {
      release();
      return undefined;
    }
    let onAbort: () => void = () => {};
    const aborted = new Promise<undefined>((resolve) => {
      onAbort = () => resolve(undefined);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    const winner = await Promise.race([turn, aborted]);
    signal.removeEventListener('abort', onAbort);
    if (winner === undefined) {
      release();
      return undefined;
    }
    return winner;
  }
}
