import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ComparisonRecord,
  type CounterfactualRecord,
  corpusAppraisalSchema,
  pendingReflections,
  type TranscriptEvent,
} from '@mecha/appraisal-core';
import { describe, expect, it } from 'vitest';
import { mecha, mechaJson, snapshot, tempDir } from './helpers.js';

// `sessions compare` and the counterfactual reflections it leads to, end to end through the
// built command on a home written here, with the scripted replayer (a real agent cannot run on
// this machine). The reflection step is distill's; its own tests run it through `distill`, and
// here the same core function writes the reflections a distill pass would.

const SESSION = '20260925T090000-drafted';
const DRAFT_TEXT = 'Dear Ana, the invoice is attached.';
const OWNER_TEXT = 'write to Ana about the invoice';
const at = (minutes: number) => new Date(Date.UTC(2026, 8, 25, 9, minutes)).toISOString();

function compareHome(): { user: string; home: string; project: string } {
  const user = tempDir('mecha-compare-user-');
  const home = join(user, '.mecha');
  const project = join(user, 'project');
  // A home as `mecha init` makes it (with its manifest), then the records written here.
  expect(mecha(['--home', home, 'init']).code).toBe(0);
  for (const dir of ['sessions', 'outbox', 'appraisals'])
    mkdirSync(join(home, dir), { recursive: true });
  mkdirSync(project);
  const base = (minute: number) => ({ v: 1 as const, run_id: 'r1', at: at(minute) });
  const events: TranscriptEvent[] = [
    {
      ...base(0),
      type: 'run_start',
      session_id: SESSION,
      surface: 'cli',
      session_kind: 'ordinary',
    },
    {
      ...base(0),
      type: 'message',
      turn: 0,
      message_id: 'm-s',
      role: 'system',
      taint: 'clean',
      text: 'You write mail.',
    },
    {
      ...base(0),
      type: 'message',
      turn: 0,
      message_id: 'm-0',
      role: 'owner',
      taint: 'clean',
      text: OWNER_TEXT,
    },
    {
      ...base(1),
      type: 'tool_call',
      turn: 6,
      call_id: 'c-1',
      tool: 'read_file',
      target: 'invoice.pdf',
    },
    {
      ...base(2),
      type: 'tool_call',
      turn: 6,
      call_id: 'c-2',
      tool: 'mail_send',
      target: 'ana@example.com',
    },
    { ...base(3), type: 'run_end', stop_cause: 'completed' },
  ];
  writeFileSync(
    join(home, 'sessions', `${SESSION}.jsonl`),
    events.map((e) => `${JSON.stringify(e)}\n`).join(''),
  );
  writeFileSync(
    join(home, 'outbox', 'outbox.jsonl'),
    [
      {
        v: 1,
        type: 'staged',
        at: at(2),
        draft_id: 'd-1',
        session_id: SESSION,
        run_id: 'r1',
        tool: 'mail_send',
        taint: 'clean',
        text: DRAFT_TEXT,
      },
      {
        v: 2,
        type: 'outcome',
        at: at(5),
        draft_id: 'd-1',
        outcome: 'rejected',
        sender: 'owner',
        reason: 'too curt',
      },
    ]
      .map((line) => `${JSON.stringify(line)}\n`)
      .join(''),
  );
  const arms = [
    {
      session_id: SESSION,
      turn: 6,
      policy: 'covering',
      outcome: {
        state: 'ended',
        stop_cause: 'completed',
        drafts: [{ text: DRAFT_TEXT }],
        model: 'scripted-arms',
      },
    },
    {
      session_id: SESSION,
      turn: 6,
      policy: 'none',
      outcome: { state: 'ended', stop_cause: 'completed', model: 'scripted-arms' },
    },
  ];
  writeFileSync(join(home, 'arms.jsonl'), arms.map((line) => `${JSON.stringify(line)}\n`).join(''));
  writeFileSync(join(home, 'config.toml'), '[probe]\nreplayer = "scripted:arms.jsonl"\n');
  return { user, home, project };
}

function lines(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** What the next distill pass adds: the same core function its counterfactual step calls. */
function distillReflections(home: string, taint: 'clean' | 'third_party'): void {
  appendFileSync(
    join(home, 'appraisals', 'appraisals.jsonl'),
    `${JSON.stringify({ v: 1, appraisal_id: 'ta-1', session_id: SESSION, at: at(30), taint, interpretation: 'A draft was rejected.', claims_kept: 0, claims_dropped: {} })}\n`,
  );
  const { add } = pendingReflections({
    comparisons: lines(
      join(home, 'appraisals', 'comparisons.jsonl'),
    ) as unknown as ComparisonRecord[],
    reflections: [],
    appraisals: [
      {
        v: 1,
        appraisal_id: 'ta-1',
        session_id: SESSION,
        at: at(30),
        taint,
        interpretation: 'x',
        claims_kept: 0,
        claims_dropped: {},
        goal_unresolved: false,
      },
    ],
    now: new Date(at(40)),
    newId: () => 'cfr-1',
  });
  appendFileSync(
    join(home, 'appraisals', 'counterfactuals.jsonl'),
    add.map((r: CounterfactualRecord) => `${JSON.stringify(r)}\n`).join(''),
  );
}

describe('sessions compare', () => {
  it('replays a rejected draft under two policies, records the decided comparison once', () => {
    const { user, home, project } = compareHome();
    const env = { HOME: user };
    const first = mechaJson(
      [
        '--home',
        home,
        'sessions',
        'compare',
        'SESSION'.replace('SESSION', SESSION.slice(0, 18)),
        '--workspace',
        project,
        '--json',
      ],
      env,
    );
    expect(first.run.stderr).toBe('');
    expect(first.run.code).toBe(0);
    expect(first.json).toMatchObject({
      state: 'recorded',
      record: {
        session_id: SESSION,
        moment: 'draft_rejected',
        verdict: 'separated',
        decided_by: 'validator',
        validator: 'rejected_draft',
        model: 'scripted-arms',
        point: { turn: 6, call: 1, draft_id: 'd-1' },
        arms: [
          { policy: 'covering', prompt: 'covering', result: 'did_refused' },
          { policy: 'none', prompt: 'none', result: 'did_not' },
        ],
      },
    });
    const store = join(home, 'appraisals', 'comparisons.jsonl');
    expect(lines(store)).toHaveLength(1);
    const before = snapshot(home);
    const again = mecha(
      ['--home', home, 'sessions', 'compare', SESSION, '--workspace', project],
      env,
    );
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Already decided and on record');
    expect(snapshot(home)).toEqual(before);

    const readout = corpusAppraisalSchema.parse(
      mechaJson(['--home', home, 'sessions', 'appraise', '--json'], { MECHA_NOW: at(60) }).json,
    );
    expect(readout.comparisons).toMatchObject({ model: 'scripted-arms', records: 1, separated: 1 });
  });

  it('names the decided moments when --at misses, refuses without a replayer, and writes nothing', () => {
    const { user, home, project } = compareHome();
    const before = snapshot(home);
    const missed = mecha(
      ['--home', home, 'sessions', 'compare', SESSION, '--at', 'steer:3', '--workspace', project],
      { HOME: user },
    );
    expect(missed.code).toBe(1);
    expect(missed.stderr).toContain('its decided moments: draft:d-1');
    const fromHome = mecha(['--home', home, 'sessions', 'compare', SESSION, '--workspace', user], {
      HOME: user,
    });
    expect(fromHome.code).toBe(1);
    expect(fromHome.stderr).toContain('your home directory');
    expect(
      mecha(['--home', home, 'sessions', 'compare', SESSION, '--policy', 'bogus'], { HOME: user })
        .code,
    ).toBe(2);
    expect(
      mecha(['--home', home, 'sessions', 'compare', SESSION, '--policy', 'none'], { HOME: user })
        .code,
    ).toBe(2);
    writeFileSync(join(home, 'config.toml'), '');
    const none = mecha(['--home', home, 'sessions', 'compare', SESSION, '--workspace', project], {
      HOME: user,
    });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no replayer is configured');
    writeFileSync(join(home, 'config.toml'), '[probe]\nreplayer = "scripted:arms.jsonl"\n');
    expect(snapshot(home)).toEqual(before);
  });
});

describe('counterfactual reflections', () => {
  it('shows each reflection on its session, dereferencing, and DOES NOT DEREFERENCE once its comparison is edited or removed', () => {
    const { user, home, project } = compareHome();
    expect(
      mecha(['--home', home, 'sessions', 'compare', SESSION, '--workspace', project], {
        HOME: user,
      }).code,
    ).toBe(0);
    distillReflections(home, 'third_party');

    const shown = mecha(['--home', home, 'sessions', 'appraise', SESSION]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(
      /counterfactual reflection cfr-1 · comparison:cmp-[0-9a-f]+ · dereferences · not clean \(third_party\)/,
    );
    expect(shown.stdout).toContain(
      '│ Counterfactual at a draft the owner rejected (message 6, call 1, draft d-1). Lost: under the system prompt that covered the moment',
    );
    // mecha's words only: neither the draft's text nor the owner's is in the reflection.
    const reflection = lines(join(home, 'appraisals', 'counterfactuals.jsonl'))[0];
    expect(JSON.stringify(reflection)).not.toContain('Dear Ana');
    expect(JSON.stringify(reflection)).not.toContain(OWNER_TEXT);
    expect(JSON.stringify(reflection)).not.toContain('too curt');

    const readout = corpusAppraisalSchema.parse(
      mechaJson(['--home', home, 'sessions', 'appraise', '--json'], { MECHA_NOW: at(60) }).json,
    );
    expect(readout.text_appraisals).toMatchObject({
      counterfactuals: 1,
      counterfactuals_not_clean: 1,
    });

    // Edit the comparison: the losing arm now "won".
    const store = join(home, 'appraisals', 'comparisons.jsonl');
    const [record] = lines(store) as unknown as ComparisonRecord[];
    const edited = {
      ...record,
      arms: record?.arms?.map((arm) => ({
        ...arm,
        result: arm.result === 'did_not' ? 'did_refused' : 'did_not',
      })),
    };
    writeFileSync(store, `${JSON.stringify(edited)}\n`);
    const changed = mecha(['--home', home, 'sessions', 'appraise', SESSION]);
    expect(changed.stdout).toContain(
      'DOES NOT DEREFERENCE: its comparison no longer says what it quotes',
    );
    const asJson = mechaJson<{ counterfactuals: { dereferences: boolean; broken?: string }[] }>([
      '--home',
      home,
      'sessions',
      'appraise',
      SESSION,
      '--json',
    ]);
    expect(asJson.json.counterfactuals).toMatchObject([{ dereferences: false, broken: 'changed' }]);

    // Remove it: the store holds another comparison only (emptying the file reads as damage).
    writeFileSync(store, `${JSON.stringify({ ...record, comparison_id: 'cmp-other' })}\n`);
    const removed = mecha(['--home', home, 'sessions', 'appraise', SESSION]);
    expect(removed.stdout).toContain('DOES NOT DEREFERENCE: its comparison is no longer on record');
  });
});
