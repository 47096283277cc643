import { mkdir, rmdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import type { ValueRead } from '@mecha/errors';
import { ModelConfigError } from './model-config-error.js';

/**
 * The resolved model path (`value`), or why there is none: a `ValueRead` whose `unreadable`
 * side also carries the `ModelConfigError` (its `message` is the `reason`).
 */
export type ModelPathResult =
  | Extract<ValueRead<string>, { readonly state: 'read' }>
  | (Extract<ValueRead<string>, { readonly state: 'unreadable' }> & {
      readonly error: ModelConfigError;
    });

/** An unreadable model path: the error, and its message as the reason. */
const unreadablePath = (error: ModelConfigError): ModelPathResult => ({
  state: 'unreadable',
  reason: error.message,
  error,
});

/** Where the config file is and whose home `~` means; both default to the current user's. */
export interface ModelPathOptions {
  /** The config file the table came from; relative model paths resolve against its folder. Defaults to `~/.mecha/config.toml`. */
  readonly configFile?: string;
  /** The folder `~` stands for. Defaults to `os.homedir()`. */
  readonly homeDir?: string;
  /**
   * Where a model URI is fetched to and looked for first. Defaults to `models/` beside the
   * config file (`~/.mecha/models`).
   */
  readonly cacheDir?: string;
  /** `false` never fetches: a model URI must already be in the cache folder. Defaults to `'auto'`. */
  readonly download?: 'auto' | false;
  /**
   * The Hugging Face endpoint `hf:` URIs resolve against (a mirror); node-llama-cpp's default,
   * `https://huggingface.co/`, or the `HF_ENDPOINT` environment variable otherwise.
   */
  readonly huggingFaceEndpoint?: string;
  /**
   * Told when a model URI is actually fetched (never for a file already in the cache or on
   * disk): once at the start, then as bytes arrive (`downloadedSize` only ever grows, and the
   * last one is the file's size), then once at the end or on failure.
   */
  readonly onFetch?: (event: ModelFetchEvent) => void;
  /** Stops a fetch. */
  readonly signal?: AbortSignal;
}

/**
 * How a model fetch goes. `totalSize` is absent when the host does not say how big the file is
 * (absent, not zero).
 */
export type ModelFetchEvent =
  | {
      readonly kind: 'start';
      readonly uri: string;
      readonly directory: string;
      readonly totalSize?: number;
    }
  | {
      readonly kind: 'progress';
      readonly uri: string;
      readonly downloadedSize: number;
      readonly totalSize?: number;
    }
  | { readonly kind: 'end'; readonly uri: string; readonly path: string; readonly size: number }
  | { readonly kind: 'failed'; readonly uri: string };

/** What `[model] path` names: a file on this machine, or a model URI node-llama-cpp resolves. */
export type ModelLocation =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'uri'; readonly uri: string; readonly scheme: 'hf' | 'https' | 'http' }
  | { readonly kind: 'invalid_uri'; readonly uri: string }
  /** A URL with a user name or password in it: refused, and never echoed (it is a secret). */
  | { readonly kind: 'secret_in_uri' };

const hfShape =
  /^(?:hf|huggingface):(?:\/\/)?[A-Za-z0-9][\w.-]*\/[\w.-]+(?::[\w.-]+|(?:\/[^\s/]+)*\/[^\s/]+\.gguf)?$/;

/**
 * Tells a model URI from a file path. `hf:`/`huggingface:` (with or without `//`) and
 * `http(s)://` are URIs; anything else is a path. A URI of the wrong shape is named as such,
 * never read as a relative path.
 */
export function modelLocation(value: string): ModelLocation {
  const raw = value.trim();
  if (/^(?:hf|huggingface):/i.test(raw)) {
    return hfShape.test(raw)
      ? { kind: 'uri', uri: raw, scheme: 'hf' }
      : { kind: 'invalid_uri', uri: raw };
  }
  if (/^https?:\/\//i.test(raw)) {
    // A user name or password (anything before an "@" in the address) is a secret: refused
    // before anything else is said about the value, so no message repeats it.
    if (/^https?:\/\/[^/?#]*@/i.test(raw)) return { kind: 'secret_in_uri' };
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return { kind: 'invalid_uri', uri: raw };
    }
    if (url.hostname === '' || /\s/.test(raw)) return { kind: 'invalid_uri', uri: raw };
    if (url.username !== '' || url.password !== '') return { kind: 'secret_in_uri' };
    for (const key of url.searchParams.keys()) {
      if (/token|key|secret|password|auth|signature|credential/i.test(key)) {
        return { kind: 'secret_in_uri' };
      }
    }
    return { kind: 'uri', uri: raw, scheme: url.protocol === 'https:' ? 'https' : 'http' };
  }
  return { kind: 'file', path: raw };
}

/** The path as the user would write it: the home folder shown as `~`. */
function shown(path: string, home: string): string {
  if (path === home) return '~';
  return path.startsWith(home + sep) ? `~${path.slice(home.length)}` : path;
}

/** How long the one look before a fetch may take. */
const reachTimeoutMs = 30_000;

/**
 * Asks the host once, with a timeout, before a fetch: an http(s) URL itself (a missing file is
 * an error now, not after retries), or for `hf:` the Hugging Face endpoint (any answer will do).
 * Throws what went wrong.
 */
async function reachable(
  uri: string,
  endpoint: string | undefined,
  signal: AbortSignal | undefined,
): Promise<number | undefined> {
  const isUrl = /^https?:\/\//i.test(uri);
  const target = isUrl
    ? uri
    : (endpoint ??
      process.env.HF_ENDPOINT ??
      process.env.MODEL_ENDPOINT ??
      'https://huggingface.co/');
  const timeout = AbortSignal.timeout(reachTimeoutMs);
  let response: Response;
  try {
    response = await fetch(target, {
      method: 'HEAD',
      redirect: 'follow',
      signal: signal === undefined ? timeout : AbortSignal.any([timeout, signal]),
    });
  } catch (cause) {
    throw new Error(`${target} cannot be reached`, { cause });
  }
  if (isUrl && [401, 403, 404, 410].includes(response.status)) {
    throw new Error(`${target} answered ${response.status} ${response.statusText}`.trim());
  }
  return isUrl && response.ok ? knownSize(response.headers.get('content-length')) : undefined;
}

/** A byte count a host gave, or undefined when it gave none (or nonsense, or zero). */
function knownSize(value: string | number | null | undefined): number | undefined {
  const size = typeof value === 'string' ? Number(value.trim()) : value;
  return typeof size === 'number' && Number.isSafeInteger(size) && size > 0 ? size : undefined;
}

/** The file an http(s) URL's path ends in, when it names a `.gguf` file; else undefined. */
function urlFileName(uri: string): string | undefined {
  if (!/^https?:\/\//i.test(uri)) return undefined;
  const last = new URL(uri).pathname.split('/').at(-1) ?? '';
  let name: string;
  try {
    name = decodeURIComponent(last);
  } catch {
    return undefined;
  }
  return /^[\w.+-]+\.gguf$/i.test(name) ? name : undefined;
}

/**
 * Resolves a model URI through node-llama-cpp's `resolveModelFile`: a file already in the cache
 * folder is used as is; otherwise it is fetched there, told to `options.onFetch` as it goes.
 * Any failure, the network's included, comes back as the value `failed` makes of it.
 */
async function fetchModel(
  uri: string,
  cacheDir: string,
  options: ModelPathOptions,
  failed: (cause: unknown) => ModelPathResult,
): Promise<ModelPathResult> {
  // The cache folder is made only for a fetch, and taken away again (when empty) if it fails.
  let made: string | undefined;
  let fetching = false;
  let downloaded = 0;
  const tell = options.onFetch ?? (() => {});
  const progress = (status: { readonly totalSize: number; readonly downloadedSize: number }) => {
    // The downloader may repeat a figure (or restart a dropped part): only growth is told.
    if (!(status.downloadedSize > downloaded)) return;
    downloaded = status.downloadedSize;
    const totalSize = knownSize(status.totalSize);
    tell({
      kind: 'progress',
      uri,
      downloadedSize: downloaded,
      ...(totalSize === undefined ? {} : { totalSize }),
    });
  };
  try {
    const { resolveModelFile } = await import('node-llama-cpp');
    // A URL's file keeps the name its path ends in, so a later run finds it without the network
    // (node-llama-cpp names `hf:` files itself, and finds them again the same way).
    const fileName = urlFileName(uri);
    const endpoint = options.huggingFaceEndpoint;
    const resolve = (download: 'auto' | false) =>
      resolveModelFile(uri, {
        directory: cacheDir,
        ...(fileName === undefined ? {} : { fileName }),
        download,
        cli: false,
        ...(endpoint === undefined ? {} : { endpoints: { huggingFace: endpoint } }),
        ...(download === false ? {} : { onProgress: progress }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
    let path: string;
    try {
      // Already in the cache: no network at all.
      path = await resolve(false);
    } catch (notCached) {
      if (options.download === false) throw notCached;
      // node-llama-cpp's downloader retries an unreachable host for many minutes: ask once first.
      const totalSize = await reachable(uri, endpoint, options.signal);
      made = await mkdir(cacheDir, { recursive: true });
      fetching = true;
      tell({
        kind: 'start',
        uri,
        directory: cacheDir,
        ...(totalSize === undefined ? {} : { totalSize }),
      });
      path = await resolve('auto');
    }
    const info = await stat(path);
    if (!info.isFile()) throw new Error(`${path} is not a file`);
    if (fetching) {
      // The last figure told is the file's size, whatever the downloader last reported.
      progress({ totalSize: info.size, downloadedSize: info.size });
      tell({ kind: 'end', uri, path, size: info.size });
    }
    return { state: 'read', value: path };
  } catch (cause) {
    if (fetching) tell({ kind: 'failed', uri });
    if (made !== undefined) await rmdir(cacheDir).catch(() => {});
    return failed(cause);
  }
}

/**
 * Resolves `[model] path` from the parsed `[model]` table of `config.toml` (pass the table,
 * or `undefined` when the file has none) to an absolute path of an existing file.
 *
 * `~` and `~/…` expand to the home folder; a relative path resolves against the config file's
 * folder (`~/.mecha`). A model URI that node-llama-cpp resolves (`hf:user/repo:quant`,
 * `hf:user/repo/file.gguf`, an `https://` URL of a GGUF) is looked for in the cache folder
 * (`models/` beside the config file) and fetched there when missing. A missing table or key, a
 * value that is not a non-empty string, a path that does not exist, one that is a folder, a URI
 * of the wrong shape and a fetch that fails come back as a `ModelConfigError` value that names
 * the key and the config file; nothing throws.
 */
export async function resolveModelPath(
  model: unknown,
  options: ModelPathOptions = {},
): Promise<ModelPathResult> {
  const home = options.homeDir ?? homedir();
  const configFile = options.configFile ?? join(home, '.mecha', 'config.toml');
  const display = shown(configFile, home);
  const fail = (problem: ModelConfigError['problem'], path?: string, cause?: unknown) =>
    unreadablePath(
      new ModelConfigError(problem, display, path, cause === undefined ? undefined : { cause }),
    );

  if (model === undefined || model === null) return fail('missing');
  if (typeof model !== 'object' || Array.isArray(model)) return fail('invalid');
  const value = (model as Record<string, unknown>).path;
  if (value === undefined) return fail('missing');
  if (typeof value !== 'string' || value.trim() === '') return fail('invalid');

  const location = modelLocation(value);
  if (location.kind === 'invalid_uri') return fail('invalid_uri', location.uri);
  if (location.kind === 'secret_in_uri') return fail('secret_in_uri');
  if (location.kind === 'uri') {
    const cacheDir = options.cacheDir ?? join(dirname(configFile), 'models');
    return fetchModel(location.uri, cacheDir, options, (cause) =>
      unreadablePath(
        new ModelConfigError('fetch_failed', display, location.uri, { cause, cacheDir }),
      ),
    );
  }
  const raw = location.path;
  const expanded =
    raw === '~'
      ? home
      : raw.startsWith('~/') || raw.startsWith(`~${sep}`)
        ? join(home, raw.slice(2))
        : raw;
  const path = isAbsolute(expanded) ? resolve(expanded) : resolve(dirname(configFile), expanded);

  try {
    const info = await stat(path);
    if (!info.isFile()) return fail('not_a_file', path);
  } catch (cause) {
    return fail('not_found', path, cause);
  }
  return { state: 'read', value: path };
}
