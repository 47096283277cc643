import { isAbsolute, join, resolve } from 'node:path';

/** Where the mecha home is and why: the `MECHA_HOME` variable, or the default under the user's home. */
export interface HomeLocation {
  readonly path: string;
  readonly source: 'MECHA_HOME' | 'default';
}

/**
 * Resolves the mecha home: `MECHA_HOME` when set (relative paths against `cwd`), else
 * `~/.mecha`. Takes the environment as arguments so a caller can never read the wrong one.
 */
export function resolveHome(options: {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDirectory: string;
  readonly cwd: string;
}): HomeLocation {
  const configured = options.env.MECHA_HOME?.trim();
  if (configured) {
    return {
      path: isAbsolute(configured) ? configured : resolve(options.cwd, configured),
      source: 'MECHA_HOME',
    };
  }
  return { path: join(options.homeDirectory, '.mecha'), source: 'default' };
}
