import type { AppraisalChip } from '@mecha/appraisal-core';
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

/** Half the bar's width in SVG units; a side fills it at {@link fullScale}. */
const half = 56;
/** The magnitude at which a side of the bar is full; larger ones are clamped (the text says it). */
const fullScale = 3;

/** The width of one side of the bar for a magnitude, in SVG units (0 for nothing signed). */
export function barWidth(magnitude: number): number {
  if (!(magnitude > 0)) return 0;
  return Math.round(Math.max(2, Math.min(1, magnitude / fullScale) * half) * 10) / 10;
}

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/**
 * The two-sided bar: negative to the left of a centre tick, positive to the right, never
 * netted. It is an SVG (no inline style, so the CSP needs none) and carries its numbers as text.
 */
export function valenceBar(chip: AppraisalChip): Html {
  const negative = barWidth(chip.negative);
  const positive = barWidth(chip.positive);
  const label = `negative ${chip.negative.toFixed(1)}, positive ${chip.positive.toFixed(1)}${chip.partial ? ', partial' : ''}`;
  return html`<svg class="bar" viewBox="0 0 120 12" width="120" height="12" role="img" aria-label="${label}"
><rect class="bar__track" x="2" y="4" width="116" height="4" rx="2"></rect
><rect class="bar__negative" x="${60 - negative}" y="2" width="${negative}" height="8" rx="1"></rect
><rect class="bar__positive" x="60" y="2" width="${positive}" height="8" rx="1"></rect
><line class="bar__tick" x1="60" y1="0" x2="60" y2="12"></line></svg>`;
}

/**
 * The muted appraisal chip: the label word when the derivation earns one, the two-sided bar,
 * the valence as numbers (`+1.0 −0.5`) and a mark when partial. A silent run shows nothing.
 */
export function appraisalChipHtml(chip: AppraisalChip | undefined): Html {
  if (chip === undefined) return html``;
  return html`<span class="chip chip--${chip.tone}" data-chip="" data-word="${chip.word ?? ''}" data-positive="${chip.positive}" data-negative="${chip.negative}" data-partial="${String(chip.partial)}" data-valence="${chip.valence}"
><span class="chip__word">${chip.word ?? ''}</span>${valenceBar(chip)}<span class="chip__valence">${chip.valence}</span>${chip.partial ? html`<span class="chip__partial" title="partial: some evidence could not be read">partial</span>` : ''}</span>`;
}

/** The taint chip (amber, which the appraisal chip never uses): this session read third-party content. */
export function taintChipHtml(thirdParty: boolean): Html {
  return thirdParty
    ? html`<span class="taint" title="This session read content from someone else (mail, the web, a stranger's message)">third-party content</span>`
    : html``;
}
