import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import type { GoalRef, SessionKind, StopCause } from '@mecha/appraisal-core';
import * as E from 'fp-ts/lib/Either.js';
import { openHome } from '../open-home.js';
import { resolveHome } from '../resolve-home.js';
import type { RunRecorder } from '../run-recorder.js';
import { createSessionRecorder, type Recorded, type SessionRecorder } from '../session-recorder.js';

/** Where and how an adapter records: everything optional, so one line sets it up. */
export interface AdapterSessionOptions {
  /** The mecha home; `$MECHA_HOME`, else `~/.mecha`. */
  readonly home?: string;
  /** The surface runs start from (`cli`, `web`, `slack`, …); `sdk` unless said. */
  readonly surface?: string;
  /** `test` for development sessions. */
  readonly sessionKind?: SessionKind;
  readonly goal?: GoalRef;
  /** Whether a person is in the run, watching and approving (recorded on each run's start). */
  readonly personPresent?: boolean;
  /** Go on with an existing session (a resumed conversation); a new one otherwise. */
  readonly sessionId?: string;
  /** How long a write waits for a store's lock before giving up (2 s unless said). */
  readonly lockTimeoutMs?: number;
  /** Where the one warning goes when recording fails; `console.warn` unless said. */
  readonly warn?: (message: string) => void;
  /** The environment `home` is resolved from; `process.env` unless said. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** One run's writer that never throws and never stops the agent: a failure is warned once. */
export interface AdapterRun {
  readonly sessionId: string;
  /** The run id once the run's start is recorded; undefined before, or when not recording. */
  readonly runId: () => string | undefined;
  /** Runs a recorder call in order after the ones before it; a failure turns recording off. */
  readonly record: (write: (run: RunRecorder) => Recorded<unknown>) => Promise<void>;
  /** Ends the run once (later ends do nothing). */
  readonly end: (stopCause: StopCause, turns?: number) => Promise<void>;
  /** Whether the run has ended. */
  readonly ended: () => boolean;
  /** Resolves when every write asked for so far is done. */
  readonly flushed: () => Promise<void>;
}

/** A session an adapter records into: one per conversation, one `run` per agent call. */
export interface AdapterSession {
  readonly sessionId: string;
  /** Whether anything is being recorded (the home exists and no write has failed). */
  readonly recording: () => boolean;
  readonly startRun: (options?: {
    readonly tools?: readonly string[];
    readonly resumed?: boolean;
  }) => AdapterRun;
}

/**
 * Opens the session an SDK adapter (`@mecha/ai-sdk`, …) records into: the recorder calls of
 * `createSessionRecorder`, made safe for an agent's loop. A home that does not exist is not created (that is
 * `mecha init`'s): the agent runs unrecorded and one warning says so. A write that fails (a
 * locked store, a full disk) warns once and turns recording off; nothing is thrown into the
 * agent's loop, ever.
 */
export function adapterSession(options: AdapterSessionOptions = {}): AdapterSession {
  const warnOnce = (() => {
    let warned = false;
    const warn = options.warn ?? ((message: string) => console.warn(message));
    return (message: string) => {
      if (warned) return;
      warned = true;
      warn(`mecha: ${message}; the agent keeps running`);
    };
  })();
  const env = options.env ?? process.env;
  const path =
    options.home ?? resolveHome({ env, homeDirectory: homedir(), cwd: process.cwd() }).path;
  let on = existsSync(path);
  if (!on)
    warnOnce(`no mecha home at ${path} (run \`mecha init\`), so this session is not recorded`);
  const home = openHome(path, { lockTimeoutMs: options.lockTimeoutMs ?? 2000 });
  const session: SessionRecorder = createSessionRecorder(
    home,
    options.sessionId === undefined ? {} : { sessionId: options.sessionId },
  );
  const fail = (what: string, message: string) => {
    on = false;
    warnOnce(`could not record ${what} in ${path} (${message}), so recording stopped`);
  };
  return {
    sessionId: session.sessionId,
    recording: () => on,
    startRun: (start = {}) => {
      let chain: Promise<unknown> = Promise.resolve();
      let runId: string | undefined;
      let ended = false;
      const started: Promise<RunRecorder | undefined> = (async () => {
        if (!on) return undefined;
        try {
          const written = await session.startRun({
            surface: options.surface ?? 'sdk',
            ...(options.sessionKind === undefined ? {} : { sessionKind: options.sessionKind }),
            ...(options.goal === undefined ? {} : { goal: options.goal }),
            ...(options.personPresent === undefined
              ? {}
              : { personPresent: options.personPresent }),
            ...(start.tools === undefined ? {} : { tools: start.tools }),
            ...(start.resumed === true ? { resumed: true } : {}),
          });
          if (E.isLeft(written)) {
            fail('the run start', written.left.message);
            return undefined;
          }
          runId = written.right.runId;
          return written.right;
        } catch (error) {
          fail('the run start', String(error));
          return undefined;
        }
      })();
      const record: AdapterRun['record'] = (write) => {
        const next = chain.then(async () => {
          const run = await started;
          if (run === undefined || !on) return;
          try {
            const written = await write(run);
            if (E.isLeft(written)) fail('an event', written.left.message);
          } catch (error) {
            fail('an event', String(error));
          }
        });
        chain = next;
        return next;
      };
      return {
        sessionId: session.sessionId,
        runId: () => runId,
        record,
        end: async (stopCause, turns) => {
          if (ended) return chain.then(() => undefined);
          ended = true;
          return record((run) => run.end({ stopCause, ...(turns === undefined ? {} : { turns }) }));
        },
        ended: () => ended,
        flushed: () => chain.then(() => undefined),
      };
    },
  };
}

/**
 * A `sha256:` digest of a tool call's input or result (as JSON unless it is text), for
 * `argsDigest` and `resultDigest`: the record keeps the digest, never the content.
 */
export function contentDigest(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? null);
  return `sha256:${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
}
