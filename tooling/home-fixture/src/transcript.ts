import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StopCause } from '@mecha/appraisal-core';
import { MechaError } from '@mecha/errors';
import { homeLayout } from '@mecha/stores';
import { recordChecks } from '@mecha/stores/testing';
import { stageDraft } from './drafts.js';
import { type Draw, iso, minute } from './draw.js';
import type { HomeWriter } from './home-writer.js';
import { parkQuestion } from './questions.js';
import type { SessionFates, SessionPlan } from './session-plan.js';

const stopCauses: readonly (readonly [StopCause, number])[] = [
  ['completed', 82],
  ['stopped', 3],
  ['turn_ceiling', 2],
  ['token_ceiling', 1],
  ['cost_ceiling', 0.5],
  ['loop', 1],
  ['empty_output', 1],
  ['failed_call', 1],
  ['shutdown', 1],
  ['interrupted', 0.5],
  ['error', 0.5],
];

const ceilingCounter: Partial<Record<StopCause, string>> = {
  turn_ceiling: 'turn_ceiling',
  token_ceiling: 'token_ceiling',
  cost_ceiling: 'cost_ceiling',
  loop: 'loop_stop',
};

/** The turns of one run on which the owner steers, denies, stops or the context is compacted. */
interface RunMarks {
  readonly runId: string;
  readonly resumed: boolean;
  /** The run's first turn, counted over the session. */
  readonly firstTurn: number;
  readonly steerAt: number;
  readonly denyAt: number;
  readonly stopAt: number;
  readonly compactAt: number;
}

/**
 * One session's transcript (`sessions/<id>.jsonl`), run by run, each event checked as the
 * stores read it; the drafts its runs stage and the question a run parks on go to their stores
 * at the moment they happen.
 */
export class Transcript {
  readonly lines: string[] = [];
  readonly draftIds: string[] = [];
  /** The time of the latest event. */
  clock: number;
  /** The next turn's number, counted over the session's runs. */
  turnIndex = 0;
  /** Whether third-party content has reached the session yet. */
  sawThirdParty = false;
  private draftsLeft: number;
  private promptTokens = 0;

  constructor(
    private readonly draw: Draw,
    private readonly writer: HomeWriter,
    private readonly plan: SessionPlan,
    private readonly fates: SessionFates,
  ) {
    this.clock = plan.startedAt;
    this.draftsLeft = fates.drafts;
  }

  /** Runs every run of the session; returns when the last ended. */
  runAll(): number {
    for (let runNumber = 0; runNumber < this.fates.runs; runNumber += 1) this.run(runNumber);
    return this.clock;
  }

  /**
   * Writes the transcript; with probability `tornRate` its last line is left torn, as a crash
   * leaves it. Returns the bytes written and whether it was torn.
   */
  write(home: string, tornRate: number): { readonly bytes: number; readonly torn: boolean } {
    const lines = this.lines;
    let body = `${lines.join('\n')}\n`;
    const torn = this.draw.random.chance(tornRate);
    if (torn) {
      const last = lines[lines.length - 1] as string;
      body = `${lines.slice(0, -1).join('\n')}\n${last.slice(0, Math.max(1, Math.floor(last.length / 2)))}`;
    }
    writeFileSync(join(home, homeLayout.sessions, `${this.plan.sessionId}.jsonl`), body);
    return { bytes: Buffer.byteLength(body), torn };
  }

  private tick(low: number, high: number): string {
    this.clock += this.draw.random.int(low, high) * 1000;
    return iso(this.clock);
  }

  private event(record: Record<string, unknown>): void {
    const check = recordChecks.sessions;
    if (check.validate(record) === undefined) {
      throw new MechaError(`generateHome made an invalid event: ${check.explain(record)}`);
    }
    this.lines.push(JSON.stringify(record));
  }

  private run(runNumber: number): void {
    const { random, id } = this.draw;
    const { plan } = this;
    const runId = id('run');
    const resumed = runNumber > 0;
    if (resumed) this.clock += random.int(30, 20 * 60) * minute;
    this.event({
      v: 1,
      at: iso(this.clock),
      run_id: runId,
      type: 'run_start',
      session_id: plan.sessionId,
      surface: plan.surface,
      session_kind: plan.kind,
      workspace: `/home/owner/work/${random.pick(['ledger', 'mail', 'site', 'notes'])}`,
      ...(plan.goal === undefined ? {} : { goal: plan.goal }),
      config_id: `cfg-${random.hex(6)}`,
      person_present: plan.surface !== 'task' && plan.surface !== 'trigger',
      tools: plan.tools,
      ...(resumed ? { resumed: true } : {}),
    });
    const turns = random.int(2, 12);
    this.promptTokens = random.int(800, 3000);
    const marks: RunMarks = {
      runId,
      resumed,
      firstTurn: this.turnIndex,
      steerAt: random.chance(0.12) ? random.int(1, turns) : -1,
      denyAt: random.chance(0.05) ? random.int(1, turns) : -1,
      stopAt: random.chance(0.03) ? random.int(1, turns) : -1,
      compactAt: random.chance(0.05) ? random.int(1, turns) : -1,
    };
    const endIndex = this.turnIndex + turns;
    for (; this.turnIndex < endIndex; this.turnIndex += 1) {
      // A stop ends the run on its turn (the turn is not counted as done).
      if (this.turn(this.turnIndex, marks)) break;
    }
    this.endRun(runNumber, marks, turns);
  }

  /** One turn's events; true when the owner stops the run on it. */
  private turn(turn: number, marks: RunMarks): boolean {
    const { random, id, text } = this.draw;
    const { runId } = marks;
    this.promptTokens += random.int(200, 1800);
    if (turn === 0 || (marks.resumed && turn === marks.firstTurn)) {
      this.event({
        v: 1,
        at: this.tick(1, 5),
        run_id: runId,
        type: 'message',
        turn,
        message_id: id('msg'),
        role: 'owner',
        taint: 'clean',
        text: text(6, 30),
      });
    }
    this.toolCalls(turn, runId);
    if (this.plan.tainted && turn === 1) {
      this.sawThirdParty = true;
      this.event({
        v: 1,
        at: this.tick(1, 5),
        run_id: runId,
        type: 'message',
        turn,
        message_id: id('msg'),
        role: 'third_party',
        taint: 'third_party',
        text: text(10, 40),
      });
    }
    this.event({
      v: 1,
      at: this.tick(2, 40),
      run_id: runId,
      type: 'message',
      turn,
      message_id: id('msg'),
      role: 'assistant',
      taint: this.sawThirdParty ? 'third_party' : 'clean',
      text: text(8, 45),
      prompt_tokens: this.promptTokens,
    });
    const ofRun = turn - marks.firstTurn + 1;
    this.interventions(turn, ofRun, marks);
    if (this.draftsLeft > 0 && random.chance(0.35)) {
      this.draftsLeft -= 1;
      this.draftIds.push(
        stageDraft(this.draw, this.writer, {
          at: this.clock,
          sessionId: this.plan.sessionId,
          runId,
          thirdParty: this.sawThirdParty,
          goal: this.plan.goal,
        }),
      );
    }
    return ofRun === marks.stopAt;
  }

  private toolCalls(turn: number, runId: string): void {
    const { random, id } = this.draw;
    const { tools, tainted } = this.plan;
    const calls = random.int(0, 2);
    for (let call = 0; call < calls && tools.length > 0; call += 1) {
      const callId = id('call');
      const tool = random.pick(tools);
      this.event({
        v: 1,
        at: this.tick(1, 20),
        run_id: runId,
        type: 'tool_call',
        turn,
        call_id: callId,
        tool,
        target:
          tool === 'web_fetch'
            ? `https://example.org/${random.hex(6)}`
            : `/home/owner/work/${random.hex(4)}.txt`,
        args_digest: `sha256:${random.hex(16)}`,
      });
      const thirdParty =
        tainted && (tool === 'web_fetch' || tool === 'mail_read' || random.chance(0.3));
      if (thirdParty) this.sawThirdParty = true;
      this.event({
        v: 1,
        at: this.tick(1, 30),
        run_id: runId,
        type: 'tool_result',
        turn,
        call_id: callId,
        status: random.weighted([
          ['ok', 90],
          ['error', 8],
          ['denied', 2],
        ] as const),
        result_digest: `sha256:${random.hex(16)}`,
        taint: thirdParty ? 'third_party' : 'clean',
      });
    }
  }

  /** The steer, denial and compaction on turn `ofRun` of the run, and a step check now and then. */
  private interventions(turn: number, ofRun: number, marks: RunMarks): void {
    const { random } = this.draw;
    const { runId } = marks;
    if (ofRun === marks.steerAt) {
      this.event({
        v: 1,
        at: this.tick(1, 10),
        run_id: runId,
        type: 'intervention',
        turn,
        kind: 'steer',
      });
    }
    if (ofRun === marks.denyAt) {
      this.event({
        v: 1,
        at: this.tick(1, 10),
        run_id: runId,
        type: 'intervention',
        turn,
        kind: 'deny',
      });
    }
    if (ofRun === marks.compactAt) {
      this.event({ v: 1, at: this.tick(1, 10), run_id: runId, type: 'compaction', turn });
    }
    if (this.fates.stepChecks && random.chance(0.3)) {
      this.event({
        v: 1,
        at: this.tick(1, 10),
        run_id: runId,
        type: 'step_check',
        turn,
        step_id: `step-${turn}`,
        passed: random.chance(0.85),
      });
    }
  }

  /** The run's stop, counters and end; the first run of a parking session parks its question. */
  private endRun(runNumber: number, marks: RunMarks, turns: number): void {
    const { random } = this.draw;
    const { runId, stopAt } = marks;
    const { plan, fates } = this;
    if (stopAt !== -1) {
      this.event({
        v: 1,
        at: this.tick(1, 5),
        run_id: runId,
        type: 'intervention',
        turn: this.turnIndex,
        kind: 'stop',
      });
    }
    if (random.chance(0.1)) {
      this.event({
        v: 1,
        at: this.tick(1, 2),
        run_id: runId,
        type: 'counter',
        name: 'tool_errors',
        value: random.int(1, 3),
      });
    }
    const parks = fates.parks && runNumber === 0;
    // A `stopped` end without a stop intervention is how older transcripts recorded one.
    const stopCause: StopCause =
      stopAt !== -1 ? 'stopped' : parks ? 'parked' : random.weighted(stopCauses);
    const counter = ceilingCounter[stopCause];
    if (counter !== undefined) {
      this.event({
        v: 1,
        at: this.tick(1, 2),
        run_id: runId,
        type: 'counter',
        name: counter,
        value: 1,
      });
    }
    if (parks) {
      parkQuestion(this.draw, this.writer, {
        at: this.clock,
        sessionId: plan.sessionId,
        goal: plan.goal,
        outcome: fates.questionOutcome,
      });
    }
    this.event({
      v: 1,
      at: this.tick(1, 5),
      run_id: runId,
      type: 'run_end',
      stop_cause: stopCause,
      turns,
    });
  }
}
