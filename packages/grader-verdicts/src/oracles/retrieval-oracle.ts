import type { Verdict } from '../verdict.js';

/**
 * One labelled retrieval question of a held-out bank: the query, the answers that count, the
 * independent ground truth the label rests on (a document, a spec, a commit — never a model's
 * say-so), and each answer's aliases as the index knows them.
 */
export interface RetrievalLabel {
  readonly id: string;
  readonly query: string;
  readonly expected: readonly string[];
  readonly basis?: string;
  readonly aliases?: Readonly<Record<string, readonly string[]>>;
}

/** One label graded. */
export interface RetrievalGrade {
  readonly id: string;
  readonly verdict: Verdict;
  readonly reason: string;
}

const stopWords = new Set([
  'the',
  'and',
  'for',
  'with',
  'how',
  'what',
  'does',
  'from',
  'into',
  'that',
  'this',
]);

function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter(
    (word) => word.length >= 3 && !stopWords.has(word),
  );
}

/**
 * Whether a query's words leaked into its answer's aliases: when at least half of the query's
 * content words sit in the aliases, a hit is recall bought by the label, not earned.
 */
export function queryLeaked(label: RetrievalLabel): boolean {
  const query = [...new Set(words(label.query))];
  if (query.length === 0) return false;
  const aliasWords = new Set(
    label.expected.flatMap((answer) => (label.aliases?.[answer] ?? []).flatMap(words)),
  );
  const leaked = query.filter((word) => aliasWords.has(word)).length;
  return leaked * 2 >= query.length;
}

/**
 * Grades retrieval over a held-out bank. A label without a ground-truth basis is refused as
 * unfalsifiable (ABSTAIN); a leaked query is UNSOUND whatever was retrieved; otherwise the top
 * `k` results must hold an expected answer: CORRECT, else WRONG.
 */
export async function gradeRetrieval(
  labels: readonly RetrievalLabel[],
  retrieve: (query: string) => Promise<readonly string[]>,
  k = 5,
): Promise<RetrievalGrade[]> {
  const grades: RetrievalGrade[] = [];
  for (const label of labels) {
    if (label.basis === undefined || label.basis.trim() === '') {
      grades.push({
        id: label.id,
        verdict: 'ABSTAIN',
        reason: 'refused: the label has no independent basis (unfalsifiable)',
      });
      continue;
    }
    if (queryLeaked(label)) {
      grades.push({
        id: label.id,
        verdict: 'UNSOUND',
        reason: "the query's words leaked into the answer's aliases",
      });
      continue;
    }
    const top = (await retrieve(label.query)).slice(0, k);
    const hit = label.expected.find((answer) => top.includes(answer));
    grades.push(
      hit === undefined
        ? { id: label.id, verdict: 'WRONG', reason: `no expected answer in the top ${k}` }
        : {
            id: label.id,
            verdict: 'CORRECT',
            reason: `found ${hit} at rank ${top.indexOf(hit) + 1}`,
          },
    );
  }
  return grades;
}
