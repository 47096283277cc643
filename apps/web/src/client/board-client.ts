// The board's script is these parts, each served from its own source (so it is type-checked
// like the rest, and no build step is needed) and run in turn. Each must stay self-contained:
// it runs in the browser, alone, naming nothing outside itself.

/** A confirmation on acts that cannot be undone (`form[data-confirm]`). */
function confirmActs(): void {
  for (const form of Array.from(document.querySelectorAll<HTMLFormElement>('form[data-confirm]'))) {
    form.addEventListener('submit', (event) => {
      const question = form.dataset.confirm;
      if (question !== undefined && !window.confirm(question)) event.preventDefault();
    });
  }
}

/**
 * Keyboard shortcuts (listed under "Keyboard shortcuts" on every page). Never while typing in
 * a field, never with Ctrl, Alt or Meta held: the browser's and the field's keys stay theirs.
 */
function keyboardShortcuts(): void {
  const items = () =>
    Array.from(
      document.querySelectorAll<HTMLElement>(
        '#runs > li, li[data-task], li[data-draft], li[data-question]',
      ),
    );
  let selected: HTMLElement | undefined;
  const select = (item: HTMLElement) => {
    if (selected !== undefined) delete selected.dataset.selected;
    selected = item;
    item.dataset.selected = '';
    const target = item.querySelector<HTMLElement>('a[href], button, textarea, input, select');
    if (target !== null) target.focus();
    else {
      item.tabIndex = -1;
      item.focus();
    }
    item.scrollIntoView({ block: 'nearest' });
  };
  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    const target = event.target as HTMLElement | null;
    if (
      target !== null &&
      (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
    ) {
      return;
    }
    const key = event.key;
    if (key === 'j' || key === 'k') {
      const list = items();
      if (list.length === 0) return;
      const at = selected === undefined ? -1 : list.indexOf(selected);
      const next = at === -1 ? (key === 'j' ? 0 : list.length - 1) : at + (key === 'j' ? 1 : -1);
      const item = list[Math.max(0, Math.min(list.length - 1, next))];
      if (item !== undefined) select(item);
      event.preventDefault();
      return;
    }
    if (key === 'n' || key === 'p') {
      const link = document.querySelector<HTMLAnchorElement>(
        `a[rel="${key === 'n' ? 'next' : 'prev'}"]`,
      );
      if (link !== null) {
        event.preventDefault();
        link.click();
      }
      return;
    }
    if (key === '/') {
      const search = document.querySelector<HTMLInputElement>('input[type="search"]');
      if (search !== null) {
        event.preventDefault();
        search.focus();
      }
      return;
    }
    if (key === '?') {
      const help = document.getElementById('keys') as HTMLDetailsElement | null;
      if (help !== null) {
        event.preventDefault();
        help.open = true;
        help.querySelector('summary')?.focus();
        help.scrollIntoView({ block: 'nearest' });
      }
      return;
    }
    // An act of the selected item: its button is pressed, or its box is focused for typing.
    if (selected === undefined || !document.contains(selected)) return;
    const act = selected.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`);
    if (act === null) return;
    event.preventDefault();
    if (act instanceof HTMLButtonElement) act.click();
    else act.focus();
  });
}

/** Live runs on the runs page (server-sent events): a run that finishes appears without a reload. */
function liveRuns(): void {
  const body = document.body;
  if (body.dataset.live !== 'runs' || typeof EventSource === 'undefined') return;
  const logo = document.querySelector('.logo');
  const status = document.getElementById('live-status');
  const list = document.getElementById('runs');
  const indicator = document.getElementById('live-indicator');
  const count = document.getElementById('runs-count');
  // The indicator is for everyone to see: live, or why not.
  const indicate = (state: 'on' | 'off', text: string) => {
    if (indicator === null) return;
    indicator.dataset.state = state;
    const words = indicator.querySelector('.live__text');
    if (words !== null) words.textContent = text;
  };
  indicate('off', 'Connecting for live updates…');
  const source = new EventSource('/events');
  source.addEventListener('open', () => {
    body.dataset.liveConnected = 'true';
    indicate('on', 'Live: a run that finishes appears here without a reload.');
  });
  source.addEventListener('error', () => {
    delete body.dataset.liveConnected;
    indicate('off', 'Live updates lost; trying again (reload to be sure the list is current).');
  });
  source.addEventListener('run', (event) => {
    const data = JSON.parse((event as MessageEvent<string>).data) as {
      readonly session: string;
      readonly html: string;
      readonly tone: 'negative' | 'positive';
      readonly version: number;
    };
    const template = document.createElement('template');
    template.innerHTML = data.html;
    const row = template.content.firstElementChild;
    if (row === null) return;
    // A row that arrived live is marked as new until the next load.
    row.classList.add('run--new');
    const mark = document.createElement('span');
    mark.className = 'flag flag--new';
    mark.textContent = 'new';
    row.querySelector('.run__meta')?.prepend(mark, ' ');
    const existing = document.getElementById(`run-${data.session}`);
    if (existing !== null) existing.replaceWith(row);
    else if (list !== null && body.dataset.liveInsert === 'true') {
      list.prepend(row);
      if (count !== null) {
        const total = Number(count.dataset.count ?? 'NaN') + 1;
        if (Number.isFinite(total)) {
          count.dataset.count = String(total);
          count.textContent = String(total);
        }
      }
    }
    const empty = document.getElementById('runs-empty');
    if (empty !== null && list !== null && list.children.length > 0) empty.remove();
    logo?.classList.toggle('logo--negative', data.tone === 'negative');
    body.dataset.version = String(data.version);
    if (status !== null) status.textContent = `A run finished in session ${data.session}.`;
  });
}

/**
 * The board's one script, served as `/assets/board.js`: its parts, each run in turn.
 * Everything works without it; it adds a confirmation on acts that cannot be undone, keyboard
 * shortcuts and live runs.
 */
export const boardClient: readonly (() => void)[] = [confirmActs, keyboardShortcuts, liveRuns];

/**
 * The `<mecha-appraisal>` custom element, served as `/assets/mecha-appraisal.js`: the same chip
 * the board shows, for a harness's own chat page. Its attributes are the fields of
 * `appraisalChip(reading)` from `@mecha/appraisal-core`: `word`, `valence`, `positive`,
 * `negative`, `tone`, and `partial` (present when partial). No attributes (a silent run): nothing.
 */
export function appraisalElement(): void {
  const name = 'mecha-appraisal';
  if (customElements.get(name) !== undefined) return;
  const css = `
:host { display: inline-flex; align-items: center; gap: .35em; font: 500 .8rem/1.2 system-ui, sans-serif;
  color: #33414f; background: #eef1f4; border: 1px solid #c9d1d9; border-radius: 999px; padding: .1em .55em; }
:host([hidden]), :host(:not([valence])) { display: none; }
.word { font-weight: 600; }
svg { width: 5.5em; height: .8em; }
.track { fill: #d5dbe1; } .negative { fill: #8a3b5c; } .positive { fill: #2f6f62; }
.tick { stroke: #33414f; stroke-width: 1.5; }
.partial { font-style: italic; }`;
  class MechaAppraisal extends HTMLElement {
    static get observedAttributes(): string[] {
      return ['word', 'valence', 'positive', 'negative', 'partial', 'tone'];
    }
    private readonly root: ShadowRoot;
    constructor() {
      super();
      this.root = this.attachShadow({ mode: 'open' });
      if ('adoptedStyleSheets' in this.root && typeof CSSStyleSheet === 'function') {
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(css);
        this.root.adoptedStyleSheets = [sheet];
      } else {
        const style = document.createElement('style');
        style.textContent = css;
        this.root.append(style);
      }
    }
    connectedCallback(): void {
      this.render();
    }
    attributeChangedCallback(): void {
      this.render();
    }
    private render(): void {
      for (const node of Array.from(this.root.childNodes)) {
        if (!(node instanceof HTMLStyleElement)) node.remove();
      }
      const valence = this.getAttribute('valence') ?? '';
      if (valence === '') return;
      const number = (attribute: string) => {
        const value = Number(this.getAttribute(attribute) ?? '0');
        return Number.isFinite(value) && value > 0 ? value : 0;
      };
      const width = (value: number) =>
        value > 0 ? Math.round(Math.max(2, Math.min(1, value / 3) * 56) * 10) / 10 : 0;
      const negative = number('negative');
      const positive = number('positive');
      const partial = this.hasAttribute('partial');
      const word = this.getAttribute('word') ?? '';
      const svgNs = 'http://www.w3.org/2000/svg';
      const svg = document.createElementNS(svgNs, 'svg');
      svg.setAttribute('viewBox', '0 0 120 12');
      svg.setAttribute('role', 'img');
      svg.setAttribute(
        'aria-label',
        `negative ${negative.toFixed(1)}, positive ${positive.toFixed(1)}${partial ? ', partial' : ''}`,
      );
      const rect = (cls: string, x: number, y: number, w: number, h: number) => {
        const element = document.createElementNS(svgNs, 'rect');
        element.setAttribute('class', cls);
        for (const [key, value] of [
          ['x', x],
          ['y', y],
          ['width', w],
          ['height', h],
        ] as const) {
          element.setAttribute(key, String(value));
        }
        svg.append(element);
      };
      rect('track', 2, 4, 116, 4);
      rect('negative', 60 - width(negative), 2, width(negative), 8);
      rect('positive', 60, 2, width(positive), 8);
      const tick = document.createElementNS(svgNs, 'line');
      tick.setAttribute('class', 'tick');
      for (const [key, value] of [
        ['x1', '60'],
        ['y1', '0'],
        ['x2', '60'],
        ['y2', '12'],
      ] as const) {
        tick.setAttribute(key, value);
      }
      svg.append(tick);
      if (word !== '' && word !== 'neutral') {
        const span = document.createElement('span');
        span.className = 'word';
        span.textContent = word;
        this.root.append(span);
      }
      this.root.append(svg);
      const text = document.createElement('span');
      text.textContent = valence;
      this.root.append(text);
      if (partial) {
        const mark = document.createElement('span');
        mark.className = 'partial';
        mark.textContent = 'partial';
        this.root.append(mark);
      }
    }
  }
  customElements.define(name, MechaAppraisal);
}
