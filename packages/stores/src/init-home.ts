import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { createExclusive } from './advisory-lock.js';
import { homeLayout } from './home-layout.js';
import { describeFileError } from './read-jsonl-file.js';
import type { WriteFailure } from './write-failure.js';

/** What `initHome` did to each file: wrote it, or found it there and left it alone. */
export interface InitHomeResult {
  readonly path: string;
  readonly created: readonly string[];
  readonly kept: readonly string[];
}

const configTemplate = `# mecha configuration. Every key is optional; the values shown are the defaults.
# See docs/store-format.md and docs/integrating.md in the mecha repository.

[agent]
# Your time zone (an IANA name), for days and quiet hours in readouts.
timezone = "UTC"
# Send the situation brief to the model at the start of a run (it is always recorded).
situation_brief = false

# The knowledge graph distillation writes to: the embedded server from @mecha/graph.
[[mcp]]
name = "graph"
command = "mecha-graph-mcp"
prefix_tools = false

# The local model (a GGUF file) for text appraisals; a relative path is taken from this home.
# [model]
# path = "models/appraiser.gguf"
`;

const charterTemplate = `# mecha charter: your standing priorities, highest first. Rank is position; there are no weights.
# Each [[line]] has an id and text, and may carry a sensor (outbox_age, question_latency or
# request_closure) and a setpoint, a duration such as "48h", "90m" or "2d".
# Only a person edits this charter: edit this file, or use \`mecha charter add|move|rm|set\`.
#
# [[line]]
# id = "replies"
# text = "Don't let a colleague down: answer what people send me."
# sensor = "outbox_age"
# setpoint = "2d"
`;

// A home with no stores yet: the manifest lists nothing, so every store reads as never written.
const manifestText = `${JSON.stringify({ v: 1, created: [] })}\n`;

/**
 * Creates a mecha home at `path`: the folder, an empty manifest, a `config.toml` that names the
 * embedded graph server as `[[mcp]] graph`, and a commented charter template. Idempotent: a file
 * already there is kept as it is, never overwritten. A path that is a file is refused.
 */
export function initHome(path: string): E.Either<WriteFailure, InitHomeResult> {
  const home = resolve(path);
  try {
    if (existsSync(home) && !statSync(home).isDirectory()) {
      return E.left({ kind: 'refused', message: `${home} is a file, not a folder` });
    }
    mkdirSync(home, { recursive: true });
    const created: string[] = [];
    const kept: string[] = [];
    for (const [file, text] of [
      [homeLayout.manifest, manifestText],
      [homeLayout.config, configTemplate],
      [homeLayout.charter, charterTemplate],
    ] as const) {
      (createExclusive(join(home, file), text) ? created : kept).push(file);
    }
    return E.right({ path: home, created, kept });
  } catch (error) {
    return E.left({ kind: 'io', path: home, message: `${home} ${describeFileError(error)}` });
  }
}
