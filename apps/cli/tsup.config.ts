import { libraryConfig } from '@mecha/tsup-config';
import { defineConfig } from 'tsup';

// The command is one bundle: the workspace packages and their small dependencies are inlined
// and minified, so it starts by compiling a few local files instead of resolving a tree of
// packages. Each command group is its own chunk, loaded when named: `mecha --version` loads
// almost nothing, and nothing heavy is on a readout's path.
export default defineConfig(
  libraryConfig({
    entry: ['src/index.ts', 'src/bin.ts'],
    // Every @mecha package is inlined, distill included (as a chunk only `mecha distill`
    // loads), so the bundle holds one copy of stores. The MCP SDK and node-llama-cpp are
    // dependencies of this package and stay real imports, loaded lazily.
    // @mecha/grader-verdicts stays a real import: it reads its shipped bank and hashes its own
    // grader sources, and brings the TypeScript compiler as its dependency. @mecha/graph stays
    // a real import too (loaded only by `mecha verdicts prune --graph`, which passes it into
    // grader-verdicts): it brings the SQLite and PostgreSQL drivers. @slack/bolt (for
    // `mecha slack`, inlined from @mecha/slack) is a dependency here and stays a real import.
    // The web board's Hono server is small and inlined with @mecha/web, as a chunk only
    // `mecha web` loads.
    noExternal: [
      /^@mecha\/(?!(?:grader-verdicts|graph)$)/,
      'zod',
      /^fp-ts/,
      'smol-toml',
      /^hono(\/|$)/,
      '@hono/node-server',
    ],
    splitting: true,
    platform: 'node',
    target: 'node20',
    minify: true,
    esbuildPlugins: [
      {
        // zod's namespace export pulls in every locale (about 40% of zod); the packages only
        // ever use its default English messages, so the bundle keeps English alone. Should zod
        // move the file, the filter stops matching and the bundle is merely larger.
        name: 'zod-english-only',
        setup(build) {
          build.onLoad({ filter: /zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
            contents: "export { default as en } from './en.js';",
          }));
        },
      },
    ],
  }),
);
