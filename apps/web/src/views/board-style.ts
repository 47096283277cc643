import { createHash } from 'node:crypto';

/**
 * The board's stylesheet, inlined in every page's head (no request stands between the HTML and
 * its first paint; the Content-Security-Policy allows this one style by its hash) and served
 * as `/assets/board.css` too. Colour never carries meaning alone:
 * the bar has its numbers beside it, statuses are words. The appraisal chip is muted slate with
 * a plum/teal bar; amber belongs to the taint chip only. Layout reflows to one column, so the
 * board reads at 400% zoom.
 */
const source = `
:root { --ink: #1f2933; --muted: #4a5563; --line: #c9d1d9; --paper: #ffffff; --wash: #f3f5f7;
  --negative: #8a3b5c; --positive: #2f6f62; --link: #1d4f91; --amber-ink: #5c3a00; --amber: #fde7b0;
  --focus: #1d4f91; --chip-ink: #33414f; --chip: #eef1f4; --track: #d5dbe1; --control: #7b8794;
  --hover: #e4e7eb; --new: #eef6f3; --target: #fff6d6; color-scheme: light dark;
  --label-0: #1d4f91; --label-1: #8a3b5c; --label-2: #2f6f62; --label-3: #8a6100; --label-4: #5b4b8a; --label-5: #4a5563; }
/* Dark mode follows the system's setting (prefers-color-scheme); the same meanings, lighter inks. */
@media (prefers-color-scheme: dark) {
  :root { --ink: #e4e7eb; --muted: #b3bcc6; --line: #3e4c59; --paper: #12161b; --wash: #1d242c;
    --negative: #e59abb; --positive: #74c7b3; --link: #9cc2ff; --focus: #9cc2ff; --chip-ink: #dde3e9;
    --chip: #27313b; --track: #4a5866; --control: #8d99a6; --hover: #2b3540; --new: #183029; --target: #3b3318;
    --label-0: #9cc2ff; --label-1: #e59abb; --label-2: #74c7b3; --label-3: #e0c170; --label-4: #b9a6f0; --label-5: #b3bcc6; }
}
* { box-sizing: border-box; }
html { font: 16px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: var(--paper); }
body { margin: 0; }
a { color: var(--link); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, summary:focus-visible {
  outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--paper); padding: .5rem; }
.skip:focus { left: .5rem; }
header.top { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1.25rem; padding: .6rem 1rem;
  border-bottom: 1px solid var(--line); background: var(--wash); }
.logo { display: inline-flex; align-items: center; gap: .4rem; font-weight: 700; color: var(--ink); text-decoration: none;
  border-radius: 8px; padding: .1rem .35rem; }
.logo svg { width: 1.5rem; height: 1.5rem; }
.logo svg circle { fill: none; stroke: var(--ink); stroke-width: 2; }
/* A negative latest reading tints the logo as an outline, never a fill. */
.logo--negative { outline: 2px solid var(--negative); outline-offset: 1px; }
nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
nav a[aria-current="page"] { font-weight: 700; text-decoration-thickness: 2px; }
main { padding: 1rem; max-width: 72rem; }
h1 { font-size: 1.4rem; margin: .2rem 0 .8rem; }
h2 { font-size: 1.1rem; margin: 1.4rem 0 .5rem; }
.note { color: var(--muted); }
.said { border: 1px solid var(--line); border-left: 4px solid var(--positive); padding: .5rem .75rem; background: var(--wash); }
.said--refused { border-left-color: var(--negative); }
form.filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; margin-bottom: 1rem; }
label { display: inline-flex; flex-direction: column; gap: .15rem; font-size: .9rem; color: var(--muted); }
input, select, textarea, button { font: inherit; color: var(--ink); }
input, select, textarea { max-width: 100%; border: 1px solid var(--control); border-radius: 4px; padding: .25rem .4rem; background: var(--paper); }
button { border: 1px solid var(--control); border-radius: 4px; background: var(--wash); padding: .25rem .7rem; cursor: pointer; }
button:hover { background: var(--hover); }
ol.runs, ul.items { list-style: none; margin: 0; padding: 0; }
ol.runs > li, ul.items > li { border-bottom: 1px solid var(--line); padding: .6rem 0; display: flex; flex-wrap: wrap; gap: .3rem 1rem; align-items: baseline; }
.run__meta { color: var(--muted); font-size: .9rem; min-width: 14rem; }
.run__answer { flex: 1 1 24rem; overflow-wrap: anywhere; }
.chip { display: inline-flex; align-items: center; gap: .35rem; font-size: .85rem; color: var(--chip-ink); background: var(--chip);
  border: 1px solid var(--line); border-radius: 999px; padding: .05rem .55rem; white-space: nowrap; }
.chip__word { font-weight: 600; }
.chip__partial { font-style: italic; }
.bar { width: 7.5em; height: .75em; }
.bar__track { fill: var(--track); }
.bar__negative { fill: var(--negative); }
.bar__positive { fill: var(--positive); }
.bar__tick { stroke: var(--chip-ink); stroke-width: 1.5; }
.taint { font-size: .85rem; color: var(--amber-ink); background: var(--amber); border: 1px solid #d9a520; border-radius: 4px; padding: .05rem .45rem; }
.status { font-size: .85rem; border: 1px solid var(--line); border-radius: 4px; padding: 0 .35rem; }
.closure { flex-basis: 100%; color: var(--muted); font-size: .9rem; overflow-wrap: anywhere; }
.acts { display: flex; flex-wrap: wrap; gap: .4rem; align-items: end; max-width: 100%; }
.acts form { display: inline-flex; flex-wrap: wrap; gap: .3rem; align-items: end; max-width: 100%; }
.acts label, .acts textarea { max-width: 100%; }
textarea { width: 40ch; }
table { border-collapse: collapse; margin: .5rem 0; }
th, td { border-bottom: 1px solid var(--line); padding: .25rem .6rem; text-align: left; vertical-align: top; }
/* A wide data table scrolls inside its own box on a narrow screen; the page never does. */
.table-wrap { max-width: 100%; overflow-x: auto; }
td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
.pager { display: flex; flex-wrap: wrap; gap: .5rem 1rem; margin-top: 1rem; }
.pager [aria-current="page"] { font-weight: 700; }
.pager__current { padding: 0 .3rem; border-bottom: 2px solid var(--ink); }
[data-selected] { outline: 2px solid var(--focus); outline-offset: 2px; }
footer.foot { padding: 0 1rem 1rem; max-width: 72rem; }
.keys dl { display: grid; grid-template-columns: max-content 1fr; gap: .15rem 1rem; }
.keys dd { margin: 0; overflow-wrap: anywhere; }
kbd { font: .9em ui-monospace, monospace; border: 1px solid var(--line); border-radius: 3px; padding: 0 .3rem; }
.flag { font-size: .85rem; font-weight: 600; color: var(--negative); border: 1px solid var(--negative); border-radius: 4px; padding: 0 .35rem; white-space: nowrap; }
nav.tabs ul { gap: .25rem 1rem; }
details.closed > summary h2 { display: inline; }
.live { display: inline-flex; align-items: center; gap: .4rem; font-size: .9rem; color: var(--muted); margin: 0 0 .5rem; }
.live__dot { width: .7rem; height: .7rem; border-radius: 50%; border: 2px solid var(--muted); }
.live[data-state="on"] .live__dot { background: var(--positive); border-color: var(--positive); }
.run--new { background: var(--new); }
.flag--new { color: var(--positive); border-color: var(--positive); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.chart { max-width: 100%; height: auto; }
.chart .axis { stroke: var(--control); stroke-width: 1; }
.chart .bar-negative { fill: var(--negative); }
.chart .bar-positive { fill: var(--paper); stroke: var(--positive); stroke-width: 1.5; }
.chart .unread { fill: none; stroke: var(--control); stroke-dasharray: 3 3; }
.chart .today-band { fill: var(--wash); }
.chart .bucket--today { opacity: .6; }
.chart .bucket:hover { opacity: .8; }
.chart text { font-size: 12px; fill: var(--muted); }
.chart .hatch { stroke: var(--paper); stroke-width: 1.2; }
.chart .dot, .legend .dot { fill: var(--paper); }
.label-0 { fill: var(--label-0); } .label-1 { fill: var(--label-1); } .label-2 { fill: var(--label-2); }
.label-3 { fill: var(--label-3); } .label-4 { fill: var(--label-4); } .label-5 { fill: var(--label-5); }
.legend .swatch { stroke: var(--ink); stroke-width: 1; }
.legend svg { vertical-align: middle; margin-right: .3em; }
.chart .acts-bar { fill: var(--muted); }
.legend { display: flex; gap: .25rem 1rem; flex-wrap: wrap; font-size: .9rem; list-style: none; padding: 0; margin: .3rem 0; }
.key::before { content: ""; display: inline-block; width: .9em; height: .9em; margin-right: .3em; vertical-align: middle; }
.key-negative::before { background: var(--negative); }
.key-positive::before { border: 2px solid var(--positive); }
.key-unread::before { border: 1px dashed var(--control); }
.key-today::before { background: var(--wash); border: 1px solid var(--line); }
nav.window ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0 0 .5rem; padding: 0; }
nav.window [aria-current="page"] { font-weight: 700; }
.stack { display: flex; height: .9rem; border: 1px solid var(--line); }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--wash); padding: .5rem; border-radius: 4px; }
.appraisal-parts li { overflow-wrap: anywhere; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
p.why { font-size: 1.05rem; border-left: 4px solid var(--line); padding: .2rem .75rem; overflow-wrap: anywhere; }
ul.errors, ol.turns, ul.events { list-style: none; margin: 0; padding: 0; }
ul.errors > li { padding: .35rem 0; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
.error__sign { display: inline-block; min-width: 3.2em; font-variant-numeric: tabular-nums; font-weight: 600; }
.error__detail { display: block; font-size: .9rem; }
.trace-run { border: 1px solid var(--line); border-radius: 4px; padding: .25rem .75rem; margin: .5rem 0; min-width: 0; }
ol.turns > li { border-top: 1px solid var(--line); padding: .3rem .25rem; scroll-margin-top: 1rem; }
ol.turns h4 { font-size: .95rem; margin: .2rem 0; }
.turn--cited { border-left: 4px solid var(--negative); }
.turn:target { background: var(--target); outline: 3px solid var(--focus); }
.event { margin: .2rem 0; overflow-wrap: anywhere; }
.event__kind { font-size: .85rem; font-weight: 600; color: var(--muted); }
.event pre, .event details { margin: .2rem 0; }
summary { cursor: pointer; overflow-wrap: anywhere; }
/* The runs list is a table in all but name: chips in one fixed column, their bars at one x. */
#runs > li { display: grid; grid-template-columns: minmax(0, 14rem) minmax(0, 1fr) 17rem; }
#runs > li > .chip, #runs > li > .taint { grid-column: 3; justify-self: start; }
#runs .chip__word { display: inline-block; min-width: 8em; }
@media (max-width: 40rem) { .run__meta { min-width: 0; } dl.facts { grid-template-columns: 1fr; }
  #runs > li { grid-template-columns: minmax(0, 1fr); } #runs > li > .chip, #runs > li > .taint { grid-column: 1; }
  #runs .chip__word { min-width: 0; } #runs .chip { flex-wrap: wrap; white-space: normal; max-width: 100%; } }
`;

/**
 * The stylesheet as sent: comments dropped and whitespace collapsed, since every page carries
 * it inline.
 */
export const boardStyle = source
  .replace(/\/\*[\s\S]*?\*\//g, '')
  .replace(/\s+/g, ' ')
  .replace(/\s*([{};])\s*/g, '$1')
  .trim();

/** The stylesheet's hash as the Content-Security-Policy names it (`'sha256-…'`). */
export const boardStyleSource = `'sha256-${createHash('sha256').update(boardStyle).digest('base64')}'`;
