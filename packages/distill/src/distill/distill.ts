import { defaultClassifyOptions } from '../classify-session.js';
import { defaultDistillBounds, distillGrammar } from '../distill-grammar.js';
import { defaultFactBounds, factsGrammarSchema } from '../extract-facts.js';
import { defaultGraphServerName, effectiveCapabilities } from '../graph-server.js';
import { appraisalGrammarSchema, defaultAppraisalBounds } from '../text-appraisal.js';
import { addCounterfactuals } from './add-counterfactuals.js';
import type { DistillOptions } from './distill-options.js';
import type { DistillResult } from './distill-report.js';
import type { DistillRun } from './distill-run.js';
import { StopState } from './distill-run.js';
import { distillSession } from './distill-session.js';
import { GraphAccess } from './graph-access.js';
import { LedgerSteps } from './ledger-steps.js';
import { ModelAccess } from './model-access.js';
import { planRun } from './plan-run.js';
import { type ScoringReport, scorePredictions } from './score-predictions.js';
import type { SessionResult } from './session-outcome.js';
import { Tally } from './tally.js';

/**
 * Distills every closed session not yet in the ledger into one episode each, pushed to the
 * knowledge graph through the configured `[[mcp]]` server's `kg_upsert`. One model call per
 * session, no tools, no history, decoded under a grammar. Pushed, skipped and too-short
 * sessions are marked in the ledger under the learning store's lock; every failure is left
 * unmarked for a later run. A run over an unchanged home reads the ledger once and does
 * nothing else.
 */
export async function distill(options: DistillOptions): Promise<DistillResult> {
  const { home } = options;
  const serverName = options.server ?? defaultGraphServerName;
  // A dry run goes on without the default server; a server named on purpose must exist.
  const plan = await planRun(
    home,
    serverName,
    options.limit,
    options.dryRun === true && options.server === undefined,
    options.sessions,
  );
  if ('state' in plan) return plan;
  const { considered } = plan;
  const bounds = options.bounds ?? defaultDistillBounds;
  const run: DistillRun = {
    options,
    home,
    clock: options.clock ?? (() => new Date()),
    dryRun: options.dryRun === true,
    bounds,
    grammar: { gbnf: distillGrammar(bounds) },
    appraisalGrammar: {
      jsonSchema: appraisalGrammarSchema(options.appraisalBounds ?? defaultAppraisalBounds),
    },
    factsGrammar: { jsonSchema: factsGrammarSchema(options.factBounds ?? defaultFactBounds) },
    classify: { ...defaultClassifyOptions, ...options.classify },
    tally: new Tally(),
    model: new ModelAccess(options.model, options),
    graph: new GraphAccess(
      plan.server === undefined ? undefined : (options.resolveServer?.(plan.server) ?? plan.server),
      serverName,
      options.graphTimeoutMs,
      options.env,
    ),
    ledger: new LedgerSteps(home),
    stop: new StopState(),
    progress: (index, sessionId, step, outcome) =>
      options.onProgress?.({
        done: step === 'finished' ? index + 1 : index,
        total: considered.length,
        sessionId,
        step,
        ...(outcome === undefined ? {} : { outcome }),
      }),
    questions: undefined,
    context: undefined,
    situations: new Map(),
    appraisedNow: [],
  };

  const results: SessionResult[] = [];
  try {
    for (const [index, entry] of considered.entries()) {
      if (options.signal?.aborted === true) {
        run.stop.note({ reason: 'aborted', message: 'stopped on request' });
      }
      if (run.stop.stopped !== undefined) break;
      const result = await distillSession(run, entry, index);
      results.push(result);
      run.tally.counts[result.outcome] += 1;
      run.progress(index, entry.sessionId, 'finished', result.outcome);
    }
  } finally {
    await run.graph.close();
    await run.model.dispose();
  }
  // After the sessions, so a comparison whose session was appraised in this pass is added now.
  const counterfactuals =
    run.stop.stopped === undefined
      ? await addCounterfactuals(home, run.clock(), run.dryRun)
      : undefined;

  // Then the predictions: each text appraisal's expected act against what the owner did.
  let scoring: ScoringReport | undefined;
  // A run that stopped early (Ctrl-C, no model, no graph) does nothing more.
  if (!run.dryRun && run.stop.stopped === undefined && options.score !== false) {
    scoring = await scorePredictions(home, run.clock());
  }
  const { tally, stop } = run;
  return {
    state: 'done',
    report: {
      server: serverName,
      readBackUntrusted:
        plan.server === undefined ? true : effectiveCapabilities(plan.server).untrusted_input,
      dryRun: run.dryRun,
      listed: plan.listing.records.length,
      alreadyDistilled: plan.alreadyDistilled,
      excluded: plan.excluded,
      considered: considered.length,
      partialStores: plan.ledger.state === 'partial' || plan.listing.state === 'partial',
      counts: tally.counts,
      graph: tally.graph,
      corrections: tally.corrections,
      surprises: tally.surprises,
      appraisals: tally.appraisals,
      facts: tally.facts,
      ...(counterfactuals === undefined ? {} : { counterfactuals }),
      modelCalls: run.model.calls,
      graphCalls: run.graph.calls,
      ledgerReads: run.ledger.reads,
      sessions: results,
      ...(scoring === undefined ? {} : { scoring }),
      ...(stop.stopped === undefined ? {} : { stopped: stop.stopped }),
    },
  };
}
