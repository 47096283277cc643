import { resolve } from 'node:path';
import { stripControl } from '@mecha/appraisal-core';
import { isLeft } from '@mecha/errors';
import type {
  GraphAccess,
  GraphPrunePlanReport,
  PrunePlan,
  SignedPrunePlan,
} from '@mecha/grader-verdicts';
import type { CommandContext } from '../../cli-io.js';
import { type Command, exitCodes, failure, usageError } from '../../command.js';
import { flag, stringOption } from '../../parse-command.js';
import { guarded, json, readJson, readKey, verdictsModule, writeNewJson } from './shared.js';

/**
 * The knowledge graph as pruning reaches it: @mecha/graph's store and its file snapshot, passed
 * into the grader-verdicts use-case (which stands alone). Loaded only when a graph is measured:
 * it brings the SQLite binding. The planted poison's facts come from its metadata alone.
 */
async function graphAccess(): Promise<GraphAccess> {
  const { metadataExtractor, openGraphStore, snapshotGraphFile } = await import('@mecha/graph');
  return {
    openGraph: (path) => openGraphStore({ path, extractor: metadataExtractor }),
    snapshotGraphFile,
  };
}

function renderGraphPlan(report: GraphPrunePlanReport): string[] {
  const name = (memory: string) => {
    const found = report.ablation.find((result) => result.memory === memory);
    return found === undefined ? memory : `${memory} (${found.source} ${found.sourceId})`;
  };
  return [
    `prune --graph: ${report.queries} held-out queries on ${report.ablation.length} memories (dry run: nothing was changed)`,
    ...report.refusedQueries.map((refused) => `  query ${refused.id}: ${refused.reason}`),
    `  self-test: ${report.selfTest.reason}`,
    ...report.ablation.map(
      (result) =>
        `  ${result.worth.padEnd(10)} ${name(result.memory)}: used by ${result.usedBy}, without it ${result.lost} lost, ${result.gained} gained`,
    ),
    ...(report.proof === null
      ? ['  nothing proposed: the oracle could not show it sees harm']
      : [
          `  proposed ${report.proposals.length}, proved ${report.proof.accepted.length}: ${report.proof.accepted.map(name).join(', ') || '(none)'}`,
          ...report.proof.heldBack.map(
            (held) => `  held back ${name(held.memory)}: ${held.reason}`,
          ),
          `  held-out queries right: ${report.proof.correctBefore} → ${report.proof.correctAfter} of ${report.proof.queries}`,
        ]),
  ];
}

/** `--sign`: signs a plan with the owner's private key into a new file. */
async function signPlan(
  context: CommandContext,
  commandPath: string,
  { sign, privateKey, out }: { sign: string; privateKey: string; out: string },
): Promise<number> {
  return guarded(context, commandPath, async () => {
    const { prunePlanSchema, signPrunePlan, GraderInputError } = await verdictsModule();
    const parsed = prunePlanSchema.safeParse(await readJson(context, sign));
    if (!parsed.success) return failure(context, commandPath, `${sign} is not a prune plan`);
    const key = await readKey(context, privateKey);
    let signed: SignedPrunePlan;
    try {
      signed = signPrunePlan(parsed.data as PrunePlan, key);
    } catch (error) {
      throw new GraderInputError(privateKey, `${privateKey} is not an Ed25519 private key`, {
        cause: error,
      });
    }
    const path = await writeNewJson(context, out, signed);
    context.stdout(`signed the plan (${parsed.data.memories.length} memories) into ${path}\n`);
    return exitCodes.ok;
  });
}

/** `--graph --bank --apply`: checks the signed plan, measures again and redacts. */
async function applyPlan(
  context: CommandContext,
  commandPath: string,
  {
    graphPath,
    bank,
    apply,
    publicKey,
    asJson,
  }: { graphPath: string; bank: string; apply: string; publicKey: string; asJson: boolean },
): Promise<number> {
  return guarded(context, commandPath, async () => {
    const { readQueryBank, signedPrunePlanSchema, applyGraphPrune } = await verdictsModule();
    const queries = readQueryBank(resolve(context.cwd, bank));
    const parsed = signedPrunePlanSchema.safeParse(await readJson(context, apply));
    if (!parsed.success)
      return failure(context, commandPath, `${apply} is not a signed prune plan`);
    const key = await readKey(context, publicKey);
    const result = await applyGraphPrune(
      graphPath,
      parsed.data as SignedPrunePlan,
      key,
      queries,
      await graphAccess(),
    );
    if (asJson) {
      // The JSON answer keeps its wire shape: `{ ok: true, removed }` or `{ ok: false, reason }`.
      json(
        context,
        isLeft(result)
          ? { ok: false, reason: result.left.message }
          : { ok: true, removed: result.right.removed },
      );
    } else if (!isLeft(result)) {
      const { removed } = result.right;
      context.stdout(
        [
          `prune applied: ${removed.length} memories redacted from ${graphPath}`,
          ...removed.map(
            (removal) =>
              `  ${removal.memory} (${stripControl(removal.source)} ${stripControl(removal.sourceId)}): ${removal.report.facts_closed} facts closed`,
          ),
          '',
        ].join('\n'),
      );
    }
    if (isLeft(result)) {
      if (!asJson) context.stderr(`prune refused, nothing changed: ${result.left.message}\n`);
      return exitCodes.failure;
    }
    return exitCodes.ok;
  });
}

/** `--graph --bank`: the dry run, measuring every memory; with `--out`, writes the plan. */
async function planDryRun(
  context: CommandContext,
  commandPath: string,
  {
    graphPath,
    bank,
    out,
    asJson,
  }: { graphPath: string; bank: string; out: string | undefined; asJson: boolean },
): Promise<number> {
  return guarded(context, commandPath, async () => {
    const { readQueryBank, planGraphPrune } = await verdictsModule();
    const queries = readQueryBank(resolve(context.cwd, bank));
    const report = await planGraphPrune(graphPath, queries, await graphAccess());
    const written =
      out !== undefined && report.plan !== null
        ? await writeNewJson(context, out, report.plan)
        : undefined;
    if (asJson) json(context, report);
    else {
      context.stdout(
        `${[
          ...renderGraphPlan(report).map(stripControl),
          ...(written === undefined
            ? []
            : [`  plan written to ${written}: sign it with --sign to make it applicable`]),
        ].join('\n')}\n`,
      );
    }
    return report.plan === null ? exitCodes.failure : exitCodes.ok;
  });
}

/** A signed plan and `--public-key`: whether the owner signed it. */
async function verifyPlan(
  context: CommandContext,
  commandPath: string,
  { file, publicKey, asJson }: { file: string; publicKey: string; asJson: boolean },
): Promise<number> {
  return guarded(context, commandPath, async () => {
    const { signedPrunePlanSchema, verifyPrunePlan } = await verdictsModule();
    const parsed = signedPrunePlanSchema.safeParse(await readJson(context, file));
    if (!parsed.success) return failure(context, commandPath, `${file} is not a signed prune plan`);
    const key = await readKey(context, publicKey);
    const signed = verifyPrunePlan(parsed.data as SignedPrunePlan, key);
    const plan = parsed.data.plan;
    if (asJson) json(context, { signed, plan });
    else {
      (signed ? context.stdout : context.stderr)(
        [
          signed
            ? "prune plan: signed by the owner's key"
            : "prune plan: NOT signed by the owner's key — it cannot be applied",
          `  remove ${plan.memories.length}: ${plan.memories.map(stripControl).join(', ') || '(none)'}`,
          ...plan.proof.heldBack.map(
            (held) => `  held back ${stripControl(held.memory)}: ${stripControl(held.reason)}`,
          ),
          `  held-out queries right: ${plan.proof.correctBefore} → ${plan.proof.correctAfter} of ${plan.proof.queries}`,
          '',
        ].join('\n'),
      );
    }
    return signed ? exitCodes.ok : exitCodes.failure;
  });
}

export const prune: Command = {
  path: 'verdicts prune',
  summary: 'memory that must earn its keep: measure, plan, sign and apply graph pruning',
  help: [
    'Usage: mecha verdicts prune --graph FILE --bank QUERIES.json [--out PLAN.json] [--json]',
    '       mecha verdicts prune --sign PLAN.json --private-key FILE --out SIGNED.json',
    '       mecha verdicts prune --graph FILE --bank QUERIES.json --apply SIGNED.json',
    '                            --public-key FILE [--json]',
    '       mecha verdicts prune SIGNED.json --public-key FILE [--json]',
    '',
    'Each episode of the knowledge graph (one distilled session, one note) is a memory. It earns',
    'its keep only if taking it out makes held-out queries worse. With --graph and --bank (a dry',
    'run), every memory is measured on a private snapshot of the graph file: taken out with the',
    "graph's own redaction, then every query answered from the current beliefs. Each memory is",
    'keep, weak, redundant, harmful or unmeasured (no query reached it). A planted poison must',
    'be found harmful first, or nothing is proposed. Only redundant and harmful memories are',
    'proposed, and only those whose removal, alone and together, turns no query from right to',
    'wrong go into the plan. The graph file is only read.',
    '',
    "The plan takes effect only under the owner's Ed25519 signature (--sign). --apply checks the",
    "signature, the bank's seal and that the graph has not changed since the plan, measures",
    'again, and only then redacts the planned episodes. Anything else is refused and the graph',
    'is left as it was. With only a signed plan and --public-key, the signature is checked.',
    '',
    'QUERIES.json: {"v": 1, "queries": [{"id": "q1", "subject": "Priya Nair", "predicate":',
    '  "is at", "expected": "Yale", "basis": "her staff page"}]}. A query is right when the',
    '  current facts about the subject with that predicate say exactly the expected object. A',
    '  query without a basis (independent ground truth) is refused as unfalsifiable.',
    '',
    'Options:',
    "  --graph FILE        the graph's SQLite file (as mecha-graph-mcp --db names it)",
    '  --bank FILE         the held-out queries',
    '  --out FILE          write the plan (or the signed plan) here; an existing file is refused',
    '  --sign FILE         sign this plan with --private-key',
    "  --private-key FILE  the owner's Ed25519 private key (PEM)",
    '  --apply FILE        apply this signed plan to --graph',
    "  --public-key FILE   the owner's Ed25519 public key (PEM)",
    '  --json              the report as JSON',
    '',
    'Exit codes: 0 planned / signed / applied / signature verified; 1 refused, not signed, the',
    'oracle abstained (nothing proposed), or an input that cannot be read; 2 usage.',
    '',
  ].join('\n'),
  options: {
    graph: { type: 'string' },
    bank: { type: 'string' },
    out: { type: 'string' },
    sign: { type: 'string' },
    'private-key': { type: 'string' },
    apply: { type: 'string' },
    'public-key': { type: 'string' },
    json: { type: 'boolean' },
  },
  // Pruning reads a graph file and key files, never a mecha home.
  homeMayBeMissing: true,
  async run({ values, positionals, context }) {
    const [file, extra] = positionals;
    if (extra !== undefined)
      return usageError(context, this.path, `unexpected argument '${extra}'`);
    const given = (name: string) => {
      const value = stringOption(values, name);
      return value === undefined || value === '' ? undefined : value;
    };
    for (const name of ['graph', 'bank', 'out', 'sign', 'private-key', 'apply', 'public-key']) {
      if (values[name] === '') return usageError(context, this.path, `--${name} needs a file`);
    }
    const graph = given('graph');
    const bank = given('bank');
    const out = given('out');
    const sign = given('sign');
    const privateKey = given('private-key');
    const apply = given('apply');
    const publicKey = given('public-key');
    const asJson = flag(values, 'json');

    if (sign !== undefined) {
      if (file !== undefined || graph !== undefined || apply !== undefined || bank !== undefined)
        return usageError(context, this.path, '--sign takes only --private-key and --out');
      if (privateKey === undefined || out === undefined)
        return usageError(context, this.path, '--sign needs --private-key and --out');
      return signPlan(context, this.path, { sign, privateKey, out });
    }

    if (graph !== undefined) {
      if (file !== undefined)
        return usageError(context, this.path, 'with --graph, name the signed plan with --apply');
      if (bank === undefined) return usageError(context, this.path, '--graph needs --bank');
      // A postgres:// URL is passed as given, for the graph to refuse by name (prune measures
      // SQLite graph files); anything else is a file path.
      const graphPath = /^postgres(?:ql)?:\/\//i.test(graph) ? graph : resolve(context.cwd, graph);
      if (apply !== undefined) {
        if (publicKey === undefined)
          return usageError(context, this.path, "--apply needs the owner's --public-key");
        if (out !== undefined) return usageError(context, this.path, '--apply writes no --out');
        return applyPlan(context, this.path, { graphPath, bank, apply, publicKey, asJson });
      }
      if (publicKey !== undefined || privateKey !== undefined)
        return usageError(context, this.path, 'a dry run takes no key');
      return planDryRun(context, this.path, { graphPath, bank, out, asJson });
    }

    if (file === undefined)
      return usageError(context, this.path, 'name --graph and --bank, --sign, or a signed plan');
    if (publicKey === undefined)
      return usageError(context, this.path, "--public-key names the owner's public key file");
    return verifyPlan(context, this.path, { file, publicKey, asJson });
  },
};

/** `mecha verdicts`: @mecha/grader-verdicts' graders and guards, loaded only when named. */
