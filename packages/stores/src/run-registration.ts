import { existsSync } from 'node:fs';
import type { Refusal } from '@mecha/errors';
import * as E from 'fp-ts/lib/Either.js';
import type { ClosureActor } from './close-task.js';
import { contextOf, type MechaHome } from './home-context.js';
import { type ProcessIdentity, processAncestry, processStart } from './process-ancestry.js';
import type { Recorded } from './session-recorder.js';

/** The variables a harness sets in a run's shell, naming the run it registered. */
export const registrationVariables = { session: 'MECHA_SESSION_ID', run: 'MECHA_RUN_ID' } as const;

/**
 * Who is behind this command, as the harness registered it. `terminal`: no run's shell started
 * it, so a person typed it. `run`: a run's shell started it, and the run's registration says
 * whether a person is in that run. `unverifiable`: it claims a run whose registration cannot be
 * read, which is treated as nobody present.
 */
export type RunPresence =
  | { readonly kind: 'terminal' }
  | {
      readonly kind: 'run';
      readonly sessionId: string;
      readonly runId: string;
      readonly personPresent: boolean;
      readonly surface: string;
    }
  | { readonly kind: 'unverifiable'; readonly reason: string };

/**
 * Registers a shell a run started — its process id and the run — so that every command started
 * under it, at any depth, is judged by that run's `person_present`, whatever the command does
 * to its environment. Call it right after spawning the shell and before it runs anything. The
 * process's start time is kept with the pid, so a pid the kernel reuses later is not the run's.
 */
export async function registerShell(
  home: MechaHome,
  shell: { readonly pid: number; readonly sessionId: string; readonly runId: string },
): Recorded<void> {
  const start = processStart(shell.pid);
  if (start === undefined && existsSync('/proc/self/stat')) {
    // On Linux a pid that cannot be read is not running: registering it would leave a pid the
    // kernel may give to anyone later.
    return E.left({ kind: 'refused', message: `process ${shell.pid} is not running` });
  }
  return home.shells.append([
    {
      v: 1,
      at: contextOf(home).clock().toISOString(),
      pid: shell.pid,
      ...(start === undefined ? {} : { process_start: start }),
      session_id: shell.sessionId,
      run_id: shell.runId,
    },
  ]);
}

/** How to find the caller's ancestors: its own pid by default; tests and surfaces may name one. */
export interface PresenceOptions {
  /** The process whose ancestry decides; this process by default. */
  readonly pid?: number;
  /** The ancestry itself, nearest first (for a platform without `/proc`, or a test). */
  readonly ancestry?: readonly ProcessIdentity[];
}

async function registrationOf(
  home: MechaHome,
  sessionId: string,
  runId: string,
): Promise<RunPresence> {
  const transcript = await home.sessions.transcript(sessionId);
  if (transcript.state === 'unreadable') {
    return {
      kind: 'unverifiable',
      reason: `the registration of run ${runId} could not be read (${transcript.reason})`,
    };
  }
  const start = transcript.records.find(
    (event) => event.type === 'run_start' && event.run_id === runId,
  );
  if (start === undefined || start.type !== 'run_start') {
    return {
      kind: 'unverifiable',
      reason: `session ${sessionId} has no registration of run ${runId}`,
    };
  }
  return {
    kind: 'run',
    sessionId,
    runId,
    personPresent: start.person_present === true,
    surface: start.surface,
  };
}

/**
 * Who is behind this command. First the shells runs registered (`registerShell`): when one is
 * this process or one of its ancestors (read from `/proc`, matched on pid and start time, so a
 * dead shell's reused pid does not count), that run's `run_start.person_present` decides —
 * unsetting or forging `MECHA_SESSION_ID`/`MECHA_RUN_ID` changes nothing. Then the variables,
 * for a harness that sets them and for platforms without `/proc`. Neither: a person's own
 * terminal. A registry that cannot be read counts as nobody present.
 */
export async function runPresence(
  home: MechaHome,
  env: Readonly<Record<string, string | undefined>>,
  options: PresenceOptions = {},
): Promise<RunPresence> {
  const ancestry = options.ancestry ?? processAncestry(options.pid ?? process.pid) ?? [];
  const shells = await home.shells.read();
  if (shells.state === 'unreadable') {
    return {
      kind: 'unverifiable',
      reason: `the registry of run shells could not be read (${shells.reason})`,
    };
  }
  for (const process of ancestry) {
    // The newest registration of this live process wins.
    const registration = shells.records.findLast(
      (row) =>
        row.pid === process.pid &&
        (row.process_start === undefined || row.process_start === process.start),
    );
    if (registration !== undefined) {
      return registrationOf(home, registration.session_id, registration.run_id);
    }
  }
  const sessionId = env[registrationVariables.session];
  const runId = env[registrationVariables.run];
  const given = (value: string | undefined): value is string => value !== undefined && value !== '';
  if (!given(sessionId) && !given(runId)) return { kind: 'terminal' };
  if (!given(sessionId) || !given(runId)) {
    return {
      kind: 'unverifiable',
      reason: `${registrationVariables.session} and ${registrationVariables.run} must both name the run`,
    };
  }
  return registrationOf(home, sessionId, runId);
}

/** Who is moving a task, as the registration says: the owner, or a run a person is in. */
export interface Mover {
  readonly who: ClosureActor;
  readonly surface: string;
}

/**
 * The mover for a presence, or why the move is refused. No registration means a person acted
 * directly on `surface` (a terminal, a board click); a run counts only with a person present.
 */
export function moverFor(
  presence: RunPresence,
  surface: string,
): E.Either<Refusal<'nobody_present'>, Mover> {
  switch (presence.kind) {
    case 'terminal':
      return E.right({ who: 'owner', surface });
    case 'run':
      return presence.personPresent
        ? E.right({ who: 'agent_with_approval', surface: presence.surface })
        : E.left({
            kind: 'nobody_present',
            message: `refused: run ${presence.runId} is registered with nobody present, and closing or reopening a task is a person's act`,
          });
    case 'unverifiable':
      return E.left({
        kind: 'nobody_present',
        message: `refused: this command was started by a run whose registration cannot be checked (${presence.reason}), so it counts as nobody present`,
      });
  }
}
