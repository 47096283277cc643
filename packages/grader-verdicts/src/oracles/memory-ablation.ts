/** One held-out query's outcome under a set of available memories. */
export interface QueryOutcome {
  readonly correct: boolean;
  /** The memories the answer drew on. */
  readonly used: readonly string[];
}

/**
 * Answers every held-out query with some memories withheld; the harness supplies it (over the
 * knowledge graph, a vector index, a prompt). No model judges anything: `correct` is checked
 * against the held-out answer.
 */
export type AblationEvaluator = (withheld: ReadonlySet<string>) => Promise<readonly QueryOutcome[]>;

/** What removing a memory does to the held-out queries. */
export type MemoryWorth = 'keep' | 'redundant' | 'weak' | 'harmful' | 'unmeasured';

/** One memory's ablation result. */
export interface MemoryAblation {
  readonly memory: string;
  readonly worth: MemoryWorth;
  /** Queries right with it and wrong without it. */
  readonly lost: number;
  /** Queries wrong with it and right without it. */
  readonly gained: number;
  /** Held-out queries whose answer used it. */
  readonly usedBy: number;
}

/** Queries that must be lost before a memory is `keep` rather than `weak`. */
export const keepThreshold = 2;

/**
 * Grades each memory by ablation: withhold it, re-answer the held-out queries, and compare.
 * A memory no query used is unmeasured; one whose removal helps is harmful; one whose removal
 * loses at least `keepThreshold` queries earns its keep; one lost query is weak; none is
 * redundant. The outcomes must come in the same query order every call.
 */
export async function ablateMemories(
  memories: readonly string[],
  evaluate: AblationEvaluator,
): Promise<MemoryAblation[]> {
  const baseline = await evaluate(new Set());
  const results: MemoryAblation[] = [];
  for (const memory of memories) {
    const usedBy = baseline.filter((outcome) => outcome.used.includes(memory)).length;
    if (usedBy === 0) {
      results.push({ memory, worth: 'unmeasured', lost: 0, gained: 0, usedBy });
      continue;
    }
    const ablated = await evaluate(new Set([memory]));
    let lost = 0;
    let gained = 0;
    baseline.forEach((outcome, index) => {
      const now = ablated[index]?.correct ?? false;
      if (outcome.correct && !now) lost += 1;
      if (!outcome.correct && now) gained += 1;
    });
    const worth: MemoryWorth =
      gained > lost
        ? 'harmful'
        : lost >= keepThreshold
          ? 'keep'
          : lost === 1
            ? 'weak'
            : 'redundant';
    results.push({ memory, worth, lost, gained, usedBy });
  }
  return results;
}

/** The id the planted poison carries; a real memory must not use it. */
export const plantedPoison = '__planted_poison__';

/**
 * Proves the ablation can see harm: plants a poisonous memory that, when present, turns the
 * first correctly answered held-out query wrong, and checks the oracle calls it harmful. An
 * oracle that cannot see a planted harm cannot be trusted to call a real memory harmless.
 */
export async function poisonSelfTest(
  evaluate: AblationEvaluator,
): Promise<{ readonly seesHarm: boolean; readonly reason: string }> {
  const baseline = await evaluate(new Set());
  const target = baseline.findIndex((outcome) => outcome.correct);
  if (target === -1) {
    return {
      seesHarm: false,
      reason: 'no held-out query is answered correctly: harm cannot be shown',
    };
  }
  const poisoned: AblationEvaluator = async (withheld) => {
    const outcomes = await evaluate(withheld);
    if (withheld.has(plantedPoison)) return outcomes;
    return outcomes.map((outcome, index) =>
      index === target ? { correct: false, used: [...outcome.used, plantedPoison] } : outcome,
    );
  };
  const [result] = await ablateMemories([plantedPoison], poisoned);
  return result?.worth === 'harmful'
    ? { seesHarm: true, reason: 'the planted poison was found harmful' }
    : { seesHarm: false, reason: `the planted poison was graded ${result?.worth ?? 'nothing'}` };
}
