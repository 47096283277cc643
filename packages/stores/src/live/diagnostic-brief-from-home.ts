import { type DiagnosticBrief, diagnosticBrief } from '@mecha/appraisal-core';
import * as E from 'fp-ts/lib/Either.js';
import { configIssueText } from '../config.js';
import type { MechaHome } from '../home-context.js';
import { homePorts } from '../home-ports.js';

/** A nightly diagnostician's question: one candidate and the two session sets. */
export interface DiagnosticBriefQuestion {
  readonly candidate: string;
  readonly heldIn: readonly string[];
  readonly heldOut: readonly string[];
}

/**
 * The diagnostic brief from a home, with the owner's switches read from `config.toml`:
 * `[agent] sensors_in_brief` and `appraisals_in_brief` (both on by default). A config that
 * cannot be used makes both parts unreadable with the reason, never the defaults.
 */
export async function diagnosticBriefFromHome(
  home: MechaHome,
  question: DiagnosticBriefQuestion,
): Promise<DiagnosticBrief> {
  const config = home.readConfig();
  if (E.isLeft(config)) {
    const reason = `config.toml could not be used (${config.left.map(configIssueText).join('; ')})`;
    return {
      candidate: question.candidate,
      sensors: { state: 'unreadable', reason },
      appraisals: { state: 'unreadable', reason },
    };
  }
  const agent = config.right.agent;
  return diagnosticBrief(homePorts(home), {
    ...question,
    sensorsInBrief: agent.sensors_in_brief,
    appraisalsInBrief: agent.appraisals_in_brief,
  });
}
