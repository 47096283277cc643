import type { ClosureActor } from './close-task.js';
import type { MechaHome } from './home-context.js';

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
 * Reads the registration of the run whose shell started this command: the `run_start` the
 * harness recorded for `MECHA_RUN_ID` in `sessions/<MECHA_SESSION_ID>.jsonl` of the home, with
 * its `person_present`. Nothing the command says about itself (no flag, no other variable)
 * changes the answer; a registration that is missing or silent counts as nobody present.
 */
export async function runPresence(
  home: MechaHome,
  env: Readonly<Record<string, string | undefined>>,
): Promise<RunPresence> {
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
): { readonly ok: true; readonly mover: Mover } | { readonly ok: false; readonly message: string } {
  switch (presence.kind) {
    case 'terminal':
      return { ok: true, mover: { who: 'owner', surface } };
    case 'run':
      return presence.personPresent
        ? { ok: true, mover: { who: 'agent_with_approval', surface: presence.surface } }
        : {
            ok: false,
            message: `refused: run ${presence.runId} is registered with nobody present, and closing or reopening a task is a person's act`,
          };
    case 'unverifiable':
      return {
        ok: false,
        message: `refused: this command was started by a run whose registration cannot be checked (${presence.reason}), so it counts as nobody present`,
      };
  }
}
