/** The signals a long command stops on: Ctrl-C alone, or Ctrl-C and SIGTERM. */
export type StopSignals = readonly ('SIGINT' | 'SIGTERM')[];

/**
 * Runs `work` with an `AbortSignal` that the first of `signals` (Ctrl-C by default) aborts, so
 * a long command stops at its next step and reports what it did; the listeners are removed when
 * `work` ends, however it ends. A later signal is Node's own again (the process ends).
 */
export async function interruptible<T>(
  work: (signal: AbortSignal) => Promise<T>,
  signals: StopSignals = ['SIGINT'],
): Promise<T> {
  const controller = new AbortController();
  const interrupt = () => controller.abort();
  for (const name of signals) process.once(name, interrupt);
  try {
    return await work(controller.signal);
  } finally {
    for (const name of signals) process.removeListener(name, interrupt);
  }
}
