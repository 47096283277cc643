import type { EventSource, StopCause, Taint } from '@mecha/appraisal-core';
import { type ClaudeToolOutcome, claudeOutcomeRecord } from '@mecha/appraisal-core';
import type { TranscriptEventInput } from '@mecha/stores';
import { callIdOf, cut, digestOf } from './event-fields.js';
import type { SessionState, SignalCounts } from './session-state.js';

/**
 * Turns the moves a source log records (a prompt, an assistant step, a call, a result, an
 * interrupt, a compaction, an end) into mecha transcript events, in order. One builder per
 * session per pass; its state is what the next pass starts from.
 */
export class SessionBuilder {
  readonly events: TranscriptEventInput[] = [];
  readonly signals: SignalCounts = {
    steers: 0,
    denials: 0,
    compactions: 0,
    ceilings: 0,
    errors: 0,
  };

  /** The source line being mapped, so each event keeps where it came from. */
  private where: EventSource | undefined;

  constructor(readonly state: SessionState) {}

  /** The line the next events come from: the log file and its 1-based line number. */
  locate(file: string, line: number): void {
    this.where = { file: file.slice(0, 4096), line };
  }

  /** The source's own id of the line being mapped (Claude Code's `uuid`). */
  identify(id: string): void {
    if (this.where !== undefined && id !== '')
      this.where = { ...this.where, id: id.slice(0, 1024) };
  }

  /** Where an event comes from; `id` is the source's id of what it records (a call id), if any. */
  private sourceOf(id?: string): { source?: EventSource } {
    if (this.where === undefined) return {};
    return id === undefined || id === ''
      ? { source: this.where }
      : { source: { ...this.where, id: id.slice(0, 1024) } };
  }

  private mint(prefix: string): string {
    this.state.seq += 1;
    return `${this.state.sessionId}.${prefix}${this.state.seq}`;
  }

  private taint(): Taint {
    return this.state.sawToolResult ? 'unknown' : 'clean';
  }

  private base(at: string, runId: string, id?: string) {
    return { v: 1 as const, at, run_id: runId, ...this.sourceOf(id) };
  }

  private startRun(at: string): string {
    const state = this.state;
    state.runs += 1;
    const id = `${state.sessionId}.r${state.runs}`;
    this.events.push({
      ...this.base(at, id),
      type: 'run_start',
      session_id: state.sessionId,
      surface: state.tool,
      session_kind: 'ordinary',
      ...(state.workspace === null ? {} : { workspace: state.workspace.slice(0, 4096) }),
      ...(state.personPresent === null ? {} : { person_present: state.personPresent }),
      ...(state.runs > 1 ? { resumed: true } : {}),
    });
    state.run = { id, last: 'start' };
    state.lastRunId = id;
    return id;
  }

  /** The open run, started if there is none. */
  private openRun(at: string): NonNullable<SessionState['run']> {
    this.flushEnd();
    if (this.state.run === null) this.startRun(at);
    return this.state.run as NonNullable<SessionState['run']>;
  }

  /**
   * Writes a run end seen earlier, now that its step has no more parts. At the end of a pass a
   * tentative end stays pending (`includeTentative: false`): the step may go on in lines not
   * written yet, and the next pass, or the tool's word that the turn ended, settles it.
   */
  flushEnd(includeTentative = true): void {
    const pending = this.state.pendingEnd;
    if (pending === null) return;
    if (pending.tentative === true && !includeTentative) return;
    this.state.pendingEnd = null;
    this.end(pending.at, pending.cause, pending.source);
  }

  /**
   * The agent's loop went on after an answer with no tool call (a benchmark agent told of a
   * format error, say): that answer did not end the turn, so its tentative end is dropped.
   */
  continueTurn(): void {
    if (this.state.pendingEnd?.tentative === true) this.state.pendingEnd = null;
  }

  /** Records where the session ran and whether a person was in it, for the runs to come. */
  context(options: {
    readonly workspace?: string;
    readonly personPresent?: boolean;
    readonly permissionMode?: string;
  }): void {
    if (options.workspace !== undefined) this.state.workspace = options.workspace;
    if (options.personPresent !== undefined) this.state.personPresent = options.personPresent;
    if (options.permissionMode !== undefined) this.state.permissionMode = options.permissionMode;
  }

  /** Whether no permission prompt can appear (Claude Code's `bypassPermissions`). */
  get promptsBypassed(): boolean {
    return this.state.permissionMode === 'bypassPermissions';
  }

  /**
   * The owner typed a prompt: a run still open is closed first — completed when its last event
   * was the assistant's answer, and left without an end (not known) when it stopped mid-step.
   */
  prompt(at: string, text: string): void {
    this.flushEnd();
    const state = this.state;
    if (state.run !== null) {
      if (state.run.last === 'assistant') this.end(at, 'completed');
      else state.run = null;
    }
    const run = this.openRun(at);
    state.turn += 1;
    state.stepKey = null;
    state.compactedSinceMessage = false;
    this.events.push({
      ...this.base(at, run.id),
      type: 'message',
      turn: state.turn,
      message_id: this.mint('m'),
      role: 'owner',
      taint: this.taint(),
      text: cut(text),
    });
    run.last = 'owner';
  }

  /** Moves to the assistant step `key` (a new turn when it is not the step in progress). */
  private step(at: string, key: string): NonNullable<SessionState['run']> {
    const state = this.state;
    if (state.stepKey === key && state.run !== null) return state.run;
    const run = this.openRun(at);
    state.turn += 1;
    state.stepKey = key;
    state.stepHasCall = false;
    return run;
  }

  /**
   * The key of the assistant step a source with no response ids is in: the current one while
   * the assistant is still writing (text or calls), a new one after a prompt or a result.
   */
  responseKey(): string {
    const last = this.state.run?.last;
    if ((last === 'assistant' || last === 'call') && this.state.stepKey !== null) {
      return this.state.stepKey;
    }
    this.state.seq += 1;
    return `step-${this.state.seq}`;
  }

  /** Text the assistant wrote in step `key`. */
  assistantText(at: string, key: string, text: string): void {
    const run = this.step(at, key);
    this.state.compactedSinceMessage = false;
    this.events.push({
      ...this.base(at, run.id),
      type: 'message',
      turn: this.state.turn,
      message_id: this.mint('m'),
      role: 'assistant',
      taint: this.taint(),
      text: cut(text),
    });
    run.last = 'assistant';
    // An answer with no tool call ends the turn in the agent's loop, unless a call follows in
    // the same step (Claude Code writes each block of a response on a line of its own).
    if (this.state.stepHasCall !== true && this.state.pendingEnd === null) {
      this.state.pendingEnd = { at, cause: 'completed', tentative: true, ...this.sourceOf() };
    }
  }

  /** A tool call the assistant made in step `key`. */
  toolCall(
    at: string,
    key: string,
    call: {
      readonly id: string;
      readonly tool: string;
      readonly target?: string;
      readonly args: string;
    },
  ): void {
    const run = this.step(at, key);
    this.state.stepHasCall = true;
    if (this.state.pendingEnd?.tentative === true) this.state.pendingEnd = null;
    this.events.push({
      ...this.base(at, run.id, call.id),
      type: 'tool_call',
      turn: this.state.turn,
      call_id: callIdOf(call.id),
      tool: call.tool.slice(0, 128) || 'unknown',
      ...(call.target === undefined ? {} : { target: call.target.slice(0, 4096) }),
      args_digest: digestOf(call.args),
    });
    run.last = 'call';
  }

  /**
   * A call's result. `rejected` is the person saying no to the call: a `denied` result and a
   * deny intervention. `cancelled` is the person stopping the run while the call waited (an Esc
   * where no permission prompt could appear): a `denied` result and a steer. Several calls
   * refused or cancelled by one act (parallel calls, one Esc) are one intervention. `denied`
   * alone is the tool's own refusal (a setting, a sandbox).
   */
  toolResult(
    at: string,
    result: {
      readonly callId: string;
      readonly status: ClaudeToolOutcome;
      readonly content: string;
    },
  ): void {
    const run = this.openRun(at);
    const turn = Math.max(this.state.turn, 0);
    const callId = callIdOf(result.callId);
    const failed = this.state.failedCalls ?? [];
    const exitedNonZero = failed.includes(callId);
    if (exitedNonZero) this.state.failedCalls = failed.filter((id) => id !== callId);
    const recorded = claudeOutcomeRecord(result.status);
    const status = exitedNonZero && recorded.status === 'ok' ? 'error' : recorded.status;
    this.events.push({
      ...this.base(at, run.id, result.callId),
      type: 'tool_result',
      turn,
      call_id: callId,
      status,
      result_digest: digestOf(result.content),
      taint: 'unknown',
    });
    this.state.sawToolResult = true;
    const sameAct = run.denialTurn === turn && run.last === 'result';
    run.last = 'result';
    if (recorded.act === undefined) return;
    run.denialTurn = turn;
    if (sameAct) return;
    if (recorded.act === 'deny') {
      this.events.push({
        ...this.base(at, run.id, result.callId),
        type: 'intervention',
        turn,
        kind: 'deny',
      });
      this.signals.denials += 1;
    } else {
      this.events.push({
        ...this.base(at, run.id, result.callId),
        type: 'intervention',
        turn,
        kind: 'steer',
      });
      this.signals.steers += 1;
    }
  }

  /**
   * A command's exit code, recorded before its output comes back (Codex's `exec_command_end`):
   * a non-zero one makes that result an error.
   */
  callExit(sourceCallId: string, exitCode: number): void {
    if (exitCode === 0) return;
    const failed = this.state.failedCalls ?? [];
    // Bounded: an exit whose output never came is not held forever.
    this.state.failedCalls = [...failed, callIdOf(sourceCallId)].slice(-64);
  }

  /**
   * The person interrupted the run: a steer, and the run ends `interrupted`. An interrupt that
   * comes right after the person rejected a call (nothing in between) is that same act, already
   * a denial, and is not counted twice.
   */
  interrupt(at: string): void {
    const state = this.state;
    // An answer cut by the Esc did not end the turn: the interrupt did.
    if (state.pendingEnd?.tentative === true) state.pendingEnd = null;
    this.flushEnd();
    const turn = Math.max(state.turn, 0);
    const runId = state.run?.id ?? state.lastRunId ?? this.openRun(at).id;
    // Nothing happened since the rejection: the interrupt is how the tool stops after it.
    const sameAct = state.run?.denialTurn === turn && state.run.last === 'result';
    if (!sameAct) {
      this.events.push({ ...this.base(at, runId), type: 'intervention', turn, kind: 'steer' });
      this.signals.steers += 1;
    }
    if (state.run !== null) this.end(at, 'interrupted');
  }

  /**
   * A count the source recorded on the open run (a format error, a command timeout): written as
   * a `counter` event. Only the counter names the contribution table lists sign anything.
   */
  counter(at: string, name: string, value: number): void {
    const run = this.openRun(at);
    this.events.push({ ...this.base(at, run.id), type: 'counter', name, value });
  }

  /** The conversation was compacted in place (a second record of the same compaction is ignored). */
  compaction(at: string): void {
    const state = this.state;
    if (state.compactedSinceMessage) return;
    this.flushEnd();
    const runId = state.run?.id ?? state.lastRunId ?? this.openRun(at).id;
    this.events.push({
      ...this.base(at, runId),
      type: 'compaction',
      turn: Math.max(state.turn, 0),
    });
    state.compactedSinceMessage = true;
    this.signals.compactions += 1;
  }

  /** The open run ended; nothing happens when none is open. */
  end(at: string, cause: StopCause, source?: EventSource): void {
    const run = this.state.run;
    if (run === null) return;
    this.state.pendingEnd = null;
    this.events.push({
      ...this.base(at, run.id),
      ...(source === undefined ? {} : { source }),
      type: 'run_end',
      stop_cause: cause,
    });
    if (cause === 'error') this.signals.errors += 1;
    if (cause.endsWith('_ceiling')) this.signals.ceilings += 1;
    this.state.run = null;
    this.state.stepKey = null;
  }

  /** A run end whose step may still have parts on the next lines: written once it has none. */
  endAfterStep(at: string, cause: StopCause): void {
    if (this.state.run !== null) this.state.pendingEnd = { at, cause, ...this.sourceOf() };
  }

  /**
   * The tool says the turn is over (Claude Code's `turn_duration` and `stop_hook_summary` lines,
   * a headless run's `result`, the Stop hook): an open run whose last event is the agent's answer
   * ended `completed` (or `cause`); one that stopped mid-step is closed without an end (not known).
   */
  turnEnded(at: string, cause: StopCause = 'completed'): void {
    this.flushEnd();
    const run = this.state.run;
    if (run === null) return;
    if (run.last === 'assistant' || cause !== 'completed') this.end(at, cause);
    else {
      this.state.run = null;
      this.state.stepKey = null;
    }
  }

  /**
   * A local command's output came back (`<local-command-stdout>`): a run opened by the command
   * alone, with nothing from the agent, ended with it.
   */
  localCommandDone(at: string): void {
    if (this.state.run?.last === 'owner') this.end(at, 'completed');
  }

  /** Hands over the events built so far (the state keeps going). */
  drain(): TranscriptEventInput[] {
    return this.events.splice(0, this.events.length);
  }
}
