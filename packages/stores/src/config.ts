import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { parse, TomlError } from 'smol-toml';
import { z } from 'zod';
import { homeLayout } from './home-layout.js';
import { describeFileError } from './read-jsonl-file.js';

function received(input: unknown): string {
  if (input === undefined) return 'nothing';
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'a list';
  if (input instanceof Date) return 'a date';
  if (typeof input === 'object') return 'a table';
  if (typeof input === 'string') return 'a string';
  if (typeof input === 'bigint' || typeof input === 'number') return 'a number';
  if (typeof input === 'boolean') return 'a boolean';
  return `a ${typeof input}`;
}

const flag = (fallback: boolean) =>
  z
    .boolean({ error: (issue) => `must be true or false, not ${received(issue.input)}` })
    .default(fallback);

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const text = (what: string) =>
  z.string({ error: (issue) => `must be ${what}, not ${received(issue.input)}` });

/**
 * The `[agent]` table: the switches the appraisal reference names, each with its shipped
 * default, and the owner's time zone (an IANA name; `UTC` when unset).
 */
export const agentConfigSchema = z.strictObject({
  /** Send the situation brief to the model (it is always recorded). Off by default. */
  situation_brief: flag(false),
  /** `goal_context` also returns earlier appraisals of runs in the same situation. Off. */
  past_appraisals: flag(false),
  /** `goal_context` also returns planning examples from verified successes. Off. */
  success_examples: flag(false),
  /** The reflector sees a verified success beside each correction. Off. */
  contrast_evidence: flag(false),
  /** Homeostat and anticipated-guilt readings enter the diagnostic brief. On. */
  sensors_in_brief: flag(true),
  /** Clean text appraisals of candidate sessions enter the diagnostic brief. On. */
  appraisals_in_brief: flag(true),
  /** A quarantined model escalation when a plan step is ticked off. Off. */
  step_escalation: flag(false),
  /**
   * Planning guidance after the brief: asks the model to review its plan when a commitment a
   * charter line weighs is past its patience, or after recorded goal drift. Off.
   */
  planning_guidance: flag(false),
  timezone: text('an IANA time zone name such as "Europe/Berlin"')
    .refine(isTimeZone, {
      error: (issue) => `${JSON.stringify(issue.input)} is not a time zone this machine knows`,
    })
    .default('UTC'),
});

const secretWords = 'config.toml must hold no secret (it is copied, shared and backed up)';

function urlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // Not echoed: a value that is not a URL may be a token pasted into the wrong key.
    return `is not a URL: write the graph server's whole address, such as "http://127.0.0.1:7411/mcp"`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `must be an http:// or https:// address, not ${url.protocol}: to start a server here, use command instead`;
  }
  if (url.username !== '' || url.password !== '') {
    return `holds a user name or password: ${secretWords}; put the token in an environment variable and name it with token_env = "MECHA_GRAPH_TOKEN"`;
  }
  for (const key of url.searchParams.keys()) {
    if (/token|key|secret|password|auth/i.test(key)) {
      return `carries ${JSON.stringify(key)} in its query: ${secretWords}; put the token in an environment variable and name it with token_env = "MECHA_GRAPH_TOKEN"`;
    }
  }
  return undefined;
}

/**
 * One `[[mcp]]` server, reached one of two ways: `command` (with `args` and `env`) starts it here
 * over stdio, or `url` reaches a running one over Streamable HTTP, with a bearer token read from
 * the environment variable `token_env` names (never from this file). `[mcp.capabilities]`
 * overrides can only distrust a server further.
 */
export const mcpServerConfigSchema = z
  .strictObject({
    name: text('a server name').regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, {
      error: 'must be 1–64 letters, digits, "_" or "-", starting with a letter or digit',
    }),
    command: text('the command that starts the server')
      .min(1, { error: 'must not be empty' })
      .optional(),
    args: z
      .array(text('a string'), {
        error: (issue) => `must be a list of strings, not ${received(issue.input)}`,
      })
      .default([]),
    env: z
      .record(z.string(), text('a string'), {
        error: (issue) => `must be a table of strings, not ${received(issue.input)}`,
      })
      .default({}),
    /** A running server's Streamable HTTP endpoint, such as `http://127.0.0.1:7411/mcp`. */
    url: text('an http:// or https:// address')
      .superRefine((value, context) => {
        const problem = urlProblem(value);
        if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
    /** The environment variable holding the bearer token sent to `url`. */
    token_env: text('the name of an environment variable')
      // Capitals only: a name, not a token (`openssl rand -hex` output is lower case, and a
      // refused value is never echoed).
      .regex(/^[A-Z_][A-Z0-9_]{0,127}$/, {
        error:
          'must be the name of an environment variable in capitals (A–Z, digits and "_"), such as "MECHA_GRAPH_TOKEN", not the token itself',
      })
      .optional(),
    prefix_tools: flag(true),
    capabilities: z
      .strictObject(
        {
          untrusted_input: z
            .literal(true, {
              error: 'can only be true: an override may distrust a server further, never less',
            })
            .optional(),
        },
        { error: (issue) => `must be a table, not ${received(issue.input)}` },
      )
      .default({}),
  })
  .superRefine((server, context) => {
    const add = (message: string, key?: string) =>
      context.addIssue({ code: 'custom', path: key === undefined ? [] : [key], message });
    if (server.command === undefined && server.url === undefined) {
      add(
        'needs command (a server mecha starts, such as "mecha-graph-mcp") or url (a running server\'s address, such as "http://127.0.0.1:7411/mcp")',
      );
    }
    if (server.command !== undefined && server.url !== undefined) {
      add(
        'has both command and url: keep command to start the server here, or url to reach a running one',
      );
    }
    if (server.url !== undefined) {
      if (server.args.length > 0) add('is for a command; a url server takes no arguments', 'args');
      if (Object.keys(server.env).length > 0) {
        add(
          'is for a command; a url server reads its token from the variable token_env names',
          'env',
        );
      }
    }
    if (server.token_env !== undefined && server.url === undefined) {
      add('is for a url server; a command gets its environment from env', 'token_env');
    }
  });

/**
 * The `[model]` table: where the local model's GGUF file is (relative paths: to the home), or a
 * model URI (`hf:…`, `https://…`) fetched once into the home's `models/` folder.
 */
export const modelConfigSchema = z.strictObject({
  path: text('a file path or a model URI').min(1, { error: 'must not be empty' }).optional(),
  /** CPU threads for decoding; node-llama-cpp's choice when absent. */
  threads: z
    .int({ error: 'must be a whole number from 1 to 1024' })
    .min(1, { error: 'must be a whole number from 1 to 1024' })
    .max(1024, { error: 'must be a whole number from 1 to 1024' })
    .optional(),
  /** Layers offloaded to the GPU: a count, `"auto"` or `"max"`. */
  gpu_layers: z
    .union([z.int().min(0), z.literal('auto'), z.literal('max')], {
      error: 'must be a whole number, "auto" or "max"',
    })
    .optional(),
  /** The context window in tokens; taken from the model when absent. */
  context_size: z
    .int({ error: 'must be a whole number of tokens from 256 to 1048576' })
    .min(256, { error: 'must be a whole number of tokens from 256 to 1048576' })
    .max(1_048_576, { error: 'must be a whole number of tokens from 256 to 1048576' })
    .optional(),
});

/**
 * The `[probe]` table: which replayer the paid counterfactual pass (`sessions appraise --probe`)
 * and `sessions compare` drive. `local-model` re-drives the recorded conversation through the
 * `[model]` GGUF; `scripted:PATH` answers from a JSON-lines script (relative paths: to the
 * home). Absent: no replayer, and neither command spends anything.
 */
export const probeConfigSchema = z.strictObject({
  replayer: text('"local-model" or "scripted:PATH"')
    .regex(/^(local-model|scripted:.+)$/, {
      error: 'must be "local-model" or "scripted:PATH" (a JSON-lines script of arms)',
    })
    .optional(),
});

/** `config.toml` as a whole. Unknown keys are refused, so a typo cannot pass silently. */
export const configSchema = z
  .strictObject({
    agent: agentConfigSchema.default(agentConfigSchema.parse({})),
    mcp: z
      .array(mcpServerConfigSchema, {
        error: (issue) => `must be a list of [[mcp]] tables, not ${received(issue.input)}`,
      })
      .default([]),
    model: modelConfigSchema.default({}),
    probe: probeConfigSchema.default({}),
  })
  .superRefine((config, context) => {
    const seen = new Set<string>();
    config.mcp.forEach((server, index) => {
      if (seen.has(server.name)) {
        context.addIssue({
          code: 'custom',
          path: ['mcp', index, 'name'],
          message: `${JSON.stringify(server.name)} names another [[mcp]] server too`,
        });
      }
      seen.add(server.name);
    });
  });

/** The typed, validated `config.toml`, defaults filled in. */
export type MechaConfig = z.output<typeof configSchema>;
/** See {@link agentConfigSchema}. */
export type AgentConfig = MechaConfig['agent'];
/** See {@link mcpServerConfigSchema}. */
export type McpServerConfig = MechaConfig['mcp'][number];

/** One problem with `config.toml`: the key it is about (`agent.timezone`, `mcp[1].name`) and why. */
export interface ConfigIssue {
  /** Dotted path of the key; empty for the file as a whole. */
  readonly key: string;
  readonly message: string;
  /** The 1-based line of `config.toml` the key is written on, when it could be found. */
  readonly line?: number;
}

/** One issue as a person reads it: `agent.timezone (line 3) must be …`, or the message alone. */
export function configIssueText(issue: ConfigIssue): string {
  if (issue.key === '') return issue.message;
  return `${issue.key}${issue.line === undefined ? '' : ` (line ${issue.line})`} ${issue.message}`;
}

/**
 * The line a key is written on, for tables written the usual way (`[agent]`, `[[mcp]]`,
 * `[mcp.capabilities]`, one `key = value` a line); undefined when it cannot be told.
 */
function lineOf(source: string, key: string): number | undefined {
  const parts = /^([A-Za-z_]+)(?:\[(\d+)\])?((?:\.[A-Za-z_]+)*)$/.exec(key);
  if (parts === null) return undefined;
  const [, table = '', index, rest = ''] = parts;
  const names = rest.split('.').filter((name) => name !== '');
  const lines = source.split(/\r?\n/);
  const header = (line: string) => /^\s*\[\[?\s*([A-Za-z_.]+)\s*\]\]?/.exec(line)?.[1];
  let seen = -1;
  let start: number | undefined;
  for (let at = 0; at < lines.length && start === undefined; at += 1) {
    const name = header(lines[at] ?? '');
    if (name !== table) continue;
    seen += 1;
    if (index === undefined || seen === Number(index)) start = at;
  }
  if (start === undefined) return undefined;
  let found = start;
  let section = table;
  for (let at = start + 1; at < lines.length; at += 1) {
    const line = lines[at] ?? '';
    const name = header(line);
    if (name !== undefined) {
      if (name === table || !name.startsWith(`${table}.`)) break;
      section = name;
      continue;
    }
    const keyName = /^\s*([A-Za-z0-9_-]+)\s*=/.exec(line)?.[1];
    const wanted = [table, ...names.slice(0, -1)].join('.');
    if (keyName !== undefined && keyName === names.at(-1) && section === wanted) {
      found = at;
      break;
    }
    if (names.length > 1 && section === table && keyName === names[0]) {
      found = at;
    }
  }
  return found + 1;
}

/** The configuration a home without `config.toml` runs with. */
export const defaultConfig: MechaConfig = configSchema.parse({});

function keyOf(path: readonly PropertyKey[]): string {
  let key = '';
  for (const part of path) {
    key += typeof part === 'number' ? `[${part}]` : `${key === '' ? '' : '.'}${String(part)}`;
  }
  return key;
}

const secretKey =
  /^(token|bearer|bearer_token|access_token|api_key|apikey|password|secret|authorization|headers)$/i;

function unknownKeyMessage(path: readonly PropertyKey[], name: string): string {
  if (path[0] === 'mcp' && secretKey.test(name)) {
    return `is refused: ${secretWords}. Put the token in an environment variable and name that variable instead: token_env = "MECHA_GRAPH_TOKEN"`;
  }
  return 'is not a key mecha knows';
}

function issuesOf(error: z.ZodError): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const name of issue.keys) {
        issues.push({
          key: keyOf([...issue.path, name]),
          message: unknownKeyMessage(issue.path, name),
        });
      }
    } else {
      issues.push({ key: keyOf(issue.path), message: issue.message });
    }
  }
  return issues;
}

/**
 * Parses the text of `config.toml`. Returns the typed configuration with defaults filled in,
 * or every issue found, each naming its key. Never throws.
 */
export function parseConfig(source: string): E.Either<readonly ConfigIssue[], MechaConfig> {
  let document: unknown;
  try {
    document = parse(source.startsWith('\uFEFF') ? source.slice(1) : source);
  } catch (error) {
    const where = error instanceof TomlError ? ` (line ${error.line}, column ${error.column})` : '';
    const reason = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    return E.left([
      { key: '', message: `${homeLayout.config} is not valid TOML${where}: ${reason}` },
    ]);
  }
  const parsed = configSchema.safeParse(document);
  if (parsed.success) return E.right(parsed.data);
  return E.left(
    issuesOf(parsed.error).map((issue) => {
      const line = issue.key === '' ? undefined : lineOf(source, issue.key);
      return line === undefined ? issue : { ...issue, line };
    }),
  );
}

/**
 * Reads `config.toml` from a home. A home without one runs on the defaults; a file that cannot
 * be read or parsed is every issue as a value, never a silent default.
 */
export function readConfig(home: string): E.Either<readonly ConfigIssue[], MechaConfig> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(home, homeLayout.config));
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return E.right(defaultConfig);
    return E.left([{ key: '', message: `${homeLayout.config} ${describeFileError(error)}` }]);
  }
  if (!isUtf8(bytes)) {
    return E.left([{ key: '', message: `${homeLayout.config} is not valid UTF-8` }]);
  }
  return parseConfig(bytes.toString('utf8'));
}
