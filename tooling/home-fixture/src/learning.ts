import type { Draw } from './draw.js';
import { day, iso } from './draw.js';
import type { HomeWriter } from './home-writer.js';

/**
 * The learning stores (`learning/`): reflections on sessions, rules drawn from the latest
 * reflections, the owner's curation verdicts on rules, reflections and candidates, and the
 * distill ledger.
 */
export class Learning {
  private readonly reflections: string[] = [];
  private readonly rules: string[] = [];

  constructor(
    private readonly draw: Draw,
    private readonly writer: HomeWriter,
  ) {}

  /** One session in ten is reflected on; `turns` is how many turns it had. */
  reflect(nightly: number, sessionId: string, thirdParty: boolean, turns: number): void {
    const { random, id } = this.draw;
    if (!random.chance(0.1)) return;
    const reflectionId = id('refl');
    this.reflections.push(reflectionId);
    this.writer.add(nightly, 'reflections', {
      v: 1,
      reflection_id: reflectionId,
      session_id: sessionId,
      at: iso(nightly),
      clean: !thirdParty && random.chance(0.9),
      ...(random.chance(0.4) ? { correction_turn: random.int(0, Math.max(0, turns - 1)) } : {}),
    });
  }

  /**
   * The distill ledger's line for session number `index`, and, every few hundred sessions, a
   * rule and the curation verdicts.
   */
  distilAndCurate(nightly: number, sessionId: string, index: number): void {
    const { random, id, text } = this.draw;
    const { reflections, rules, writer } = this;
    if (random.chance(0.6)) {
      writer.add(nightly, 'distilled', {
        v: 1,
        at: iso(nightly),
        session_id: sessionId,
        outcome: random.weighted([
          ['pushed', 70],
          ['skipped', 20],
          ['too_short', 10],
        ] as const),
      });
    }
    if (index % 200 === 199 && reflections.length > 0) {
      const ruleId = id('rule');
      rules.push(ruleId);
      writer.add(nightly, 'rules', {
        v: 1,
        rule_id: ruleId,
        at: iso(nightly),
        text: text(6, 20),
        reflection_ids: reflections.slice(-3),
      });
    }
    if (index % 300 === 299 && rules.length > 0) {
      writer.add(nightly + day, 'ruleVerdicts', {
        v: 1,
        at: iso(nightly + day),
        target: 'rule',
        target_id: random.pick(rules),
        verdict: random.pick(['retired', 'restored'] as const),
      });
    }
    if (reflections.length > 0 && random.chance(0.005)) {
      writer.add(nightly + day, 'reflectionVerdicts', {
        v: 1,
        at: iso(nightly + day),
        target: 'reflection',
        target_id: random.pick(reflections),
        verdict: random.pick(['dropped', 'edited'] as const),
      });
    }
    if (index % 500 === 499) {
      writer.add(nightly + day, 'candidateVerdicts', {
        v: 1,
        at: iso(nightly + day),
        target: 'candidate',
        target_id: id('cand'),
        verdict: random.pick(['accepted', 'rejected', 'reverted'] as const),
      });
    }
  }
}
