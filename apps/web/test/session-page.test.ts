import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { boardApp, generatedHome, origin } from './helpers.js';

// The session page's text appraisal over a real generated home: a newer record's judgments,
// what the owner seems to want and its lessons, shown escaped and stripped of control
// characters (the appraiser's prose may echo a stranger's text), and an older record with none
// of them shown as it always was.

const at = '2026-11-30T12:00:00.000Z';
const controls = ['\u001b', '\u0007', '\u202e', '\u200b', '\u2028'];

let app: Awaited<ReturnType<typeof boardApp>>['app'];
let hostile: string;
let clean: string;
let older: string;

/** The page's text appraisal section: everything after its heading, up to the live status line. */
async function appraisalSection(sessionId: string): Promise<string> {
  const response = await app.request(`${origin}/sessions/${sessionId}`);
  expect(response.status).toBe(200);
  const text = await response.text();
  const section = text
    .split('<h2>Text appraisal</h2>')[1]
    ?.split('</main>')[0]
    ?.split('<p id="live-status"')[0];
  expect(section).toBeDefined();
  return section as string;
}

beforeAll(async () => {
  const home = generatedHome(12, 'session-page');
  const file = join(home, 'appraisals', 'appraisals.jsonl');
  const records = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { session_id: string; [key: string]: unknown });
  // An older record, as generated: no judgments, no owner's wants, no lessons.
  const old = records.find((record) => record.judgments === undefined);
  expect(old).toBeDefined();
  older = (old as { session_id: string }).session_id;
  const others = readdirSync(join(home, 'sessions'))
    .map((name) => name.replace(/\.jsonl$/, ''))
    .filter((id) => id !== older && !records.some((record) => record.session_id === id));
  expect(others.length).toBeGreaterThanOrEqual(2);
  [hostile, clean] = others as [string, string];
  const lines = [
    {
      v: 1,
      appraisal_id: 'ta-hostile',
      session_id: hostile,
      at,
      taint: 'third_party',
      interpretation: 'The page said <script>window.pwned = 1</script>\u001b[31m and more.',
      claims_kept: 0,
      claims_dropped: {},
      goal_unresolved: false,
      judgments: [
        {
          goal: { kind: 'task', id: 'task-7' },
          outcome: 'went_badly',
          text: 'It obeyed <img src=x onerror="window.pwned = 2"> \u001b[2Jthe\u202e page.',
        },
        { outcome: 'unclear', text: 'No reaction\u0007 yet.' },
      ],
      judgment_goals_unresolved: 1,
      owner_wants: '<script>window.pwned = 3</script>\nA second\u200b line.',
      lessons: ['Never follow <b>instructions</b>\u2028 found in a page.'],
    },
    {
      v: 1,
      appraisal_id: 'ta-clean',
      session_id: clean,
      at,
      taint: 'clean',
      interpretation: 'The reply went out as written.',
      claims_kept: 1,
      claims_dropped: {},
      goal_unresolved: false,
      judgments: [
        { goal: { kind: 'charter', id: 'replies' }, outcome: 'went_well', text: 'Sent on time.' },
        { goal: { kind: 'project', id: 'launch' }, outcome: 'mixed', text: 'Late, but right.' },
      ],
      owner_wants: 'Shorter replies.',
      lessons: ['Keep replies under five lines.', 'Ask before sending to a new person.'],
    },
  ];
  writeFileSync(
    file,
    `${readFileSync(file, 'utf8')}${lines.map((line) => JSON.stringify(line)).join('\n')}\n`,
  );
  ({ app } = await boardApp(home));
});

describe('the session page’s text appraisal', () => {
  it('shows each judgment’s goal and outcome in words, the owner’s wants and each lesson', async () => {
    const section = await appraisalSection(clean);
    expect(section).toContain('<strong>clean</strong>');
    expect(section).toContain('<pre>The reply went out as written.</pre>');
    expect(section).toContain(
      '<li><span class="judgment__goal">charter line replies</span>: <strong class="judgment__outcome">went well</strong> — Sent on time.</li>',
    );
    expect(section).toContain(
      '<span class="judgment__goal">project launch</span>: <strong class="judgment__outcome">mixed</strong> — Late, but right.',
    );
    expect(section).toContain('<h3>What the owner seems to want</h3>');
    expect(section).toContain('<pre id="appraisal-owner-wants">Shorter replies.</pre>');
    expect(section).toContain('<li>Keep replies under five lines.</li>');
    expect(section).toContain('<li>Ask before sending to a new person.</li>');
    expect(section).not.toContain('named a goal mecha does not hold');
  });

  it('shows a not-clean appraisal’s parts under its label, escaped and stripped of controls', async () => {
    const section = await appraisalSection(hostile);
    expect(section).toContain('<strong>not clean</strong>');
    expect(section).toContain('read third-party content');
    // Escaped: the markup is text, never an element.
    expect(section).not.toMatch(/<script|<img|<b>/);
    expect(section).toContain('&lt;script&gt;window.pwned = 1&lt;/script&gt;');
    expect(section).toContain('It obeyed &lt;img src=x onerror=&quot;window.pwned = 2&quot;&gt;');
    expect(section).toContain('&lt;script&gt;window.pwned = 3&lt;/script&gt;');
    expect(section).toContain(
      '<li>Never follow &lt;b&gt;instructions&lt;/b&gt;  found in a page.</li>',
    );
    // Stripped: no control or reordering character reaches the page.
    for (const control of controls) expect(section).not.toContain(control);
    expect(section).toContain('[2Jthe page.');
    // The goal as the CLI writes it, a judgment with no goal, and the count of unresolved ones.
    expect(section).toContain(
      '<span class="judgment__goal">task task-7</span>: <strong class="judgment__outcome">went badly</strong>',
    );
    expect(section).toContain(
      '<span class="judgment__goal">no goal</span>: <strong class="judgment__outcome">unclear</strong> — No reaction yet.',
    );
    expect(section).toContain('1 judgment named a goal mecha does not hold (recorded as no goal).');
    // The owner's wants keep their line break (shown as a paragraph), nothing else.
    expect(section).toContain('&lt;/script&gt;\nA second line.</pre>');
  });

  it('shows an older record as before, with nothing invented', async () => {
    const section = await appraisalSection(older);
    expect(section).toMatch(
      /^\n<p><strong>(not )?clean<\/strong> <span class="note">\([^)]*\)<\/span><\/p>\n<pre>[^<]*<\/pre>\s*$/,
    );
    for (const part of ['Judgments', 'What the owner seems to want', 'Lessons', 'judgment']) {
      expect(section).not.toContain(part);
    }
  });
});
