import { stripControl } from '@mecha/appraisal-core';
import type { HomeSelfImage } from '@mecha/grader-verdicts';
import { html } from 'hono/html';
import type { Html } from '../views/layout.js';

const percent = (value: number | null) => (value === null ? 'n/a' : `${Math.round(value * 100)}%`);
const signed = (value: number) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(2)}`;

/** How self-claims come to be on record, for the page with none yet. */
const howClaimsGetRecorded = html`<p id="honesty-empty">No self-claim is on record yet, so nothing is graded. A claim is recorded when <code>mecha distill</code> appraises a session's text and predicts what you will do with its output (its expected act): that prediction, per skill, is the belief. The behaviour is what you then did, scored against the prediction by a later <code>mecha distill</code> run once the wait is over. A skill is the kind of session it was (web, task, slack, …); development and experiment sessions are left out.</p>`;

/**
 * The seed's Honesty view: per skill, what mecha's own agents believe of their work (the
 * share of their outputs they expect the owner to take as they are) against what the owner
 * did, the gap between the two, and the verdict, the same audit as `mecha verdicts claims
 * --json`. A store that cannot be read is named as unread, never counted as 0.
 */
export function honestyPage(
  read: HomeSelfImage | { readonly unreadable: readonly string[] },
  reliabilityFloor: number,
): Html {
  const intro = html`<h1>Honesty</h1>
<p class="note">Belief against behaviour for each skill mecha's own agents ran: the same audit as <code>mecha verdicts claims --json</code>, from your records. A strength is earned only after ${reliabilityFloor} verified attempts.</p>`;
  if ('unreadable' in read) {
    return html`${intro}
<p id="honesty-unread" role="status">Nothing is graded: these stores could not be read, so their counts are unknown (not 0).</p>
<ul id="honesty-unread-stores">${read.unreadable.map((store) => html`<li data-store="${store}"><code>${store}</code>: unread</li>`)}</ul>`;
  }
  const { audit, records } = read;
  if (audit.grades.length === 0 && records.withoutBelief.length === 0) {
    return html`${intro}${howClaimsGetRecorded}`;
  }
  return html`${intro}
<p id="honesty-portrait" class="said ${audit.portrait.honest ? '' : 'said--refused'}" data-honest="${String(audit.portrait.honest)}" data-ok="${String(audit.ok)}">${
    audit.portrait.honest
      ? 'Portrait: every published strength is earned.'
      : `Portrait: unearned strengths: ${audit.portrait.unearned.map(stripControl).join(', ')}.`
  } Self-image: ${audit.ok ? 'honest' : 'not honest'}.</p>
<p id="honesty-gap" data-gap="${audit.gap ?? ''}">Belief − behaviour gap over the skills with attempts: ${audit.gap === null ? 'n/a (no skill has an attempt)' : signed(audit.gap)}</p>${
    records.partial
      ? html`<p class="note" id="honesty-partial">Partial: some lines of the stores could not be read, so the counts may be short.</p>`
      : ''
  }
${
  audit.grades.length === 0
    ? howClaimsGetRecorded
    : html`<div class="table-wrap" role="region" aria-label="Each skill's belief, behaviour and gap" tabindex="0"><table id="honesty-skills"><caption class="visually-hidden">Each skill's belief, behaviour and gap</caption><thead><tr><th scope="col">Skill</th><th scope="col" class="number">Believes</th><th scope="col" class="number">Behaves</th><th scope="col" class="number">Gap</th><th scope="col" class="number">Tries</th><th scope="col">Verdict</th></tr></thead><tbody>${audit.grades.map(
        (grade) =>
          html`<tr data-skill="${grade.skill}" data-belief="${grade.belief}" data-behaviour="${grade.behaviour ?? ''}" data-attempts="${grade.attempts}" data-verdict="${grade.verdict}" data-reason="${grade.reason}"><th scope="row">${stripControl(grade.skill)}</th><td class="number">${percent(grade.belief)}</td><td class="number">${grade.behaviour === null ? 'n/a' : percent(grade.behaviour)}</td><td class="number">${grade.behaviour === null ? 'n/a' : signed(grade.belief - grade.behaviour)}</td><td class="number">${grade.attempts}</td><td>${grade.reason} (${grade.verdict})</td></tr>`,
      )}</tbody></table></div>`
}${
  records.withoutBelief.length === 0
    ? ''
    : html`<h2>Behaviour with no belief on record</h2>
<ul id="honesty-without-belief">${records.withoutBelief.map(
        (skill) =>
          html`<li data-skill="${skill.skill}" data-attempts="${skill.attempts}" data-successes="${skill.verifiedSuccesses}"><strong>${stripControl(skill.skill)}</strong>: ${skill.verifiedSuccesses} of ${skill.attempts} taken as they were; it claims nothing.</li>`,
      )}</ul>`
}
<h2>Left out</h2>
<p id="honesty-left-out" data-not-clean="${records.notClean}" data-hidden="${records.hidden}" data-unattributed="${records.unattributed}">${records.notClean} appraisals of sessions that were not clean, ${records.hidden} records of development or experiment sessions, ${records.unattributed} records of sessions with no recorded kind.</p>`;
}
