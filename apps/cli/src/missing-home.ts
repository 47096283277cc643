/**
 * Thrown when a command first reaches for a home that does not exist. The command's own
 * argument checks ran before it, so a usage error is reported as one (exit 2) even on a home
 * that is missing; `runCommand` turns this into the one-line failure (exit 1).
 */
export class MissingHomeError extends Error {
  constructor(readonly path: string) {
    super(
      `there is no mecha home at ${path}: create one with 'mecha init --home ${path}', or point --home (or MECHA_HOME) at yours`,
    );
    this.name = 'MissingHomeError';
  }
}
