import packageJson from '../package.json' with { type: 'json' };

/** The version of the installed `mecha` command. */
export const cliVersion: string = packageJson.version;
