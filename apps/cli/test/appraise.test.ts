import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusAppraisalSchema } from '@mecha/appraisal-core';
import { describe, expect, it } from 'vitest';
import { fixtureNow, fixturePath, mecha, mechaJson, tempDir } from './helpers.js';

const rows = fixturePath('rows');

interface SessionJson {
  session_id: string;
  label: string;
  valence: { positive: number; negative: number; partial: boolean };
  compacted: boolean;
  errors: {
    sign: number;
    channel: string;
    agency: string;
    visible: boolean;
    goal?: { kind: string; id?: string };
    cite: Record<string, unknown> & { kind: string };
  }[];
  text_appraisal: { state: string; record?: Record<string, unknown> };
}

function session(id: string): SessionJson {
  const { run, json } = mechaJson<SessionJson>([
    '--home',
    rows,
    'sessions',
    'appraise',
    id,
    '--json',
  ]);
  expect(run.code).toBe(0);
  return json;
}

function signature(error: SessionJson['errors'][number]): string {
  const pointer = Object.entries(error.cite)
    .filter(([key]) => key !== 'kind')
    .map(([, value]) => String(value))
    .join('');
  return `${error.sign} ${error.channel} ${error.agency} ${error.cite.kind}${pointer === '' ? '' : ` ${pointer}`}`;
}

// One fixture session per row of the contribution table the free readout reads, with the
// errors and label the reference says it must produce.
const table: readonly [string, string, string, readonly string[]][] = [
  ['draftSentUnchanged', 's-sent-unchanged', 'pride', ['1 edit self draft d-unchanged']],
  ['draftSentEdited', 's-sent-edited', 'distress', ['-1 edit owner draft d-edited']],
  ['draftRejected', 's-rejected', 'distress', ['-1 edit owner draft d-rejected']],
  ['sendNotByOwner (a shell rejection)', 's-rejected-shell', 'neutral', []],
  [
    'ownerOutcomeNegative (confirmed error)',
    's-embarrassed',
    'embarrassment',
    ['-1 commitment self outcome oo-error'],
  ],
  [
    'ownerOutcomeNegative (adverse impact)',
    's-guilty',
    'guilt',
    ['-1 commitment self outcome oo-impact'],
  ],
  ['fineOwnerOutcome', 's-fine', 'pride', ['1 edit self draft d-fine']],
  [
    'questionAnsweredCompleted',
    's-question-answered',
    'pride',
    ['0.5 commitment self question q-goal'],
  ],
  [
    'questionAbandoned',
    's-question-abandoned',
    'distress',
    ['-0.5 commitment owner question q-dropped'],
  ],
  [
    'requestClosedWithoutDraft',
    's-request-closed',
    'distress',
    ['-0.5 commitment owner request req-a'],
  ],
  ['loopStop', 's-loop-stop', 'distress', ['-1 counter self counter loop_stop']],
  ['emptyOutput', 's-empty-output', 'distress', ['-1 counter self counter empty_output']],
  ['finalFailedCall', 's-failed-call', 'distress', ['-1 counter self counter final_failed_call']],
  ['stepCheckFailed', 's-step-check', 'distress', ['-1 counter self turn 2']],
  ['ceiling', 's-ceiling', 'distress', ['-0.5 counter owner counter turn_ceiling']],
  ['boredomNotice', 's-boredom', 'distress', ['-0.5 counter self counter boredom_notice']],
  ['steer', 's-steer', 'distress', ['-1 intervention self turn 3']],
  ['deny', 's-deny', 'distress', ['-1 intervention self turn 2']],
  ['ownerStop', 's-owner-stop', 'distress', ['-1 intervention owner turn 2']],
  ['reflectorCorrection', 's-reflector', 'distress', ['-1 intervention owner reflection refl-a']],
  ['taskClosedDone', 's-task-done', 'neutral', ['0.5 commitment owner closure close-done']],
  ['taskClosedDropped', 's-task-dropped', 'neutral', ['0 commitment owner closure close-dropped']],
  [
    'taskReopenedAfterDone',
    's-task-reopened',
    'distress',
    ['-1 commitment owner closure close-z-reopen'],
  ],
  ['workflowClosed', 's-wf-closed', 'neutral', ['0.5 commitment owner workflow wf-closed']],
  [
    'workflowCancelled',
    's-wf-cancelled',
    'distress',
    ['-0.5 commitment owner workflow wf-cancelled'],
  ],
  [
    'workflowReopenedAfterClose',
    's-wf-reopened',
    'distress',
    ['-1 commitment owner workflow wf-reopened'],
  ],
  [
    'workflowArtifactCheckFailed',
    's-wf-artifact',
    'distress',
    ['-1 commitment self workflow wf-artifact'],
  ],
  ['legacyAppraiserVerdict', 's-legacy-anger', 'anger', ['-0.5 appraisal world appraiser']],
  [
    'the silent rows (excluded counters, shutdown, pending/cancelled/shell drafts, an open question, a dropped task and a cancelled workflow reopened, a delivery check, an unclean reflection, a request parked on its requester)',
    's-silent',
    'neutral',
    [],
  ],
];

describe('mecha sessions appraise SESSION --json, one fixture session per contribution row', () => {
  it.each(table)('signs %s as the reference says', (_row, id, label, errors) => {
    const json = session(id);
    expect(json.session_id).toBe(id);
    expect(json.errors.map(signature).sort()).toEqual([...errors].sort());
    expect(json.label).toBe(label);
  });

  it('attributes an unchanged send to the charter line watching the outbox', () => {
    expect(session('s-sent-unchanged').errors[0]?.goal).toEqual({ kind: 'charter', id: 'replies' });
  });

  it('marks only an unchanged message that then went wrong as visible', () => {
    expect(session('s-embarrassed').errors[0]?.visible).toBe(true);
    expect(session('s-sent-edited').errors[0]?.visible).toBe(false);
  });

  it('reads a compacted session neutral outright, with its steer kept and the valence partial', () => {
    const json = session('s-compacted');
    expect(json.label).toBe('neutral');
    expect(json.compacted).toBe(true);
    expect(json.errors.map(signature)).toEqual(['-1 intervention self turn 3']);
    expect(json.valence).toEqual({ positive: 0, negative: 1, partial: true });
  });

  it('resolves a unique prefix to its session', () => {
    expect(session('s-legacy').session_id).toBe('s-legacy-anger');
  });
});

describe('mecha sessions appraise --json over the whole fixture home', () => {
  const { run, json } = mechaJson(['--home', rows, 'sessions', 'appraise', '--json'], fixtureNow);

  it('prints only JSON, exactly the corpus readout of the core', () => {
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(corpusAppraisalSchema.safeParse(json).success).toBe(true);
  });

  it('counts the labels of every session read, development and experiment sessions hidden', () => {
    expect(json.labels).toEqual({
      neutral: 7,
      distress: 19,
      anger: 1,
      regret: 0,
      disappointment: 0,
      frustration: 0,
      pride: 3,
      embarrassment: 1,
      guilt: 1,
      shame: 0,
      excitement: 0,
    });
    expect(json).toMatchObject({
      sessions_read: 32,
      sessions_unreadable: 0,
      tests_hidden: 1,
      experiments_hidden: 1,
    });
  });

  it('sums positive and negative apart, partial because a run compacted', () => {
    expect(json.valence).toEqual({ positive: 3.5, negative: 20, partial: true });
  });

  it('counts goals, the owner acts, rejections and curation', () => {
    expect(json).toMatchObject({
      named_a_goal: 3,
      attributed_by_sensor: 8,
      cite_a_charter_line: 0,
      goal_put_to_owner: 1,
      goal_confirmed: 1,
      owner_acts: {
        task_closed: 1,
        task_dropped: 1,
        task_reopened: 1,
        workflow_closed: 1,
        workflow_cancelled: 1,
        workflow_reopened: 1,
        workflow_verify_failed: 1,
      },
      reasoned_rejections: 1,
      unattributed_rejections: 1,
      curation: { rules: { retired: 1, restored: 0 } },
      graph_fact_rejections: null,
      appraiser: null,
      probe: null,
    });
  });

  it('says every store was read whole', () => {
    for (const key of [
      'outbox_read',
      'questions_read',
      'frontdoor_read',
      'learning_read',
      'charter_read',
      'closures_read',
      'workflows_read',
    ]) {
      expect(json[key]).toBe(true);
    }
  });

  it('counts successes, withdrawn ones apart, and the exemplars by origin', () => {
    expect(json.successes).toMatchObject({
      standing: 7,
      by_kind: {
        draft_sent_unchanged: 4,
        task_closed_done: 1,
        workflow_closed_after_check: 1,
        question_answered_then_finished: 1,
      },
      withdrawn: 1,
      exemplars: {
        total: 4,
        by_tool: { mail_send: 4 },
        by_taint: { clean: 3, third_party: 1, unknown: 0 },
        served: false,
      },
    });
  });

  it('counts the text appraisals and checks their expected acts', () => {
    expect(json.text_appraisals).toMatchObject({
      records: 2,
      sessions: 2,
      clean: 1,
      not_clean: 1,
      claims_kept: 2,
      claims_dropped: 2,
      dropped_by: { no_such_referent: 2 },
    });
    expect(json.expectations).toMatchObject({
      with_expectation: 2,
      scored: 2,
      hits: 1,
      surprises: 1,
      hit_rate: 0.5,
    });
  });
});

describe('the human readout of sessions appraise', () => {
  const run = mecha(['--home', rows, 'sessions', 'appraise'], fixtureNow);
  const lines = run.stdout.split('\n');

  it('shows the valence first, positive and negative apart with a true minus sign', () => {
    expect(run.code).toBe(0);
    expect(lines[0]).toBe('Appraisal of 32 sessions (all time) (partial)');
    expect(lines[2]).toBe('  valence     +3.5 \u221220.0\u2026');
  });

  it('then the labels, and the reachability line derived from the core', () => {
    expect(run.stdout).toContain(
      '  labels      distress 19 · neutral 7 · pride 3 · anger 1 · embarrassment 1 · guilt 1\n',
    );
    expect(run.stdout).toContain(
      '3 of the 11 variants reachable by the free readout (neutral, distress, pride); 5 more only by a probe or a linked owner outcome (regret, disappointment, frustration, embarrassment, guilt); 3 with no producer today (anger, shame, excitement)',
    );
  });

  it('says why the reading is partial', () => {
    expect(run.stdout).toContain('partial: a run compacted');
  });

  it('prints the text-appraisal counts the way the reference does', () => {
    expect(run.stdout).toContain(
      "text appraisals on record: 2 over 2 session(s) · 1 clean · 1 not clean (the owner's surfaces only) · claims 2 kept, 2 dropped by grounding (no_such_referent 2)",
    );
  });

  it('is plain text when stdout is not a terminal', () => {
    expect(run.stdout).not.toContain('\u001b[');
  });
});

describe('narrowing the population', () => {
  it('--days keeps the window (the June session falls out)', () => {
    const { json } = mechaJson(
      ['--home', rows, 'sessions', 'appraise', '--days', '30', '--json'],
      fixtureNow,
    );
    expect(json.sessions_read).toBe(31);
  });

  it('--kind web keeps sessions whose first run came from the web', () => {
    const { json } = mechaJson(
      ['--home', rows, 'sessions', 'appraise', '--kind', 'web', '--json'],
      fixtureNow,
    );
    expect(json.sessions_read).toBe(1);
  });

  it('--include-tests counts development sessions, --kind test selects them', () => {
    const all = mechaJson(
      ['--home', rows, 'sessions', 'appraise', '--include-tests', '--json'],
      fixtureNow,
    ).json;
    expect(all).toMatchObject({ sessions_read: 33, tests_hidden: 0, experiments_hidden: 1 });
    const tests = mechaJson(
      ['--home', rows, 'sessions', 'appraise', '--kind', 'test', '--json'],
      fixtureNow,
    ).json;
    expect(tests.sessions_read).toBe(1);
  });
});

describe("one session's readout", () => {
  it('lists its signed errors with their cites and label, and its text appraisal', () => {
    const run = mecha(['--home', rows, 'sessions', 'appraise', 's-rejected']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Session s-rejected: Distress · \u22121.0');
    expect(run.stdout).toMatch(
      /\u22121\.0 {2}edit {10}owner {2}draft d-rejected · charter line replies/,
    );
    expect(run.stdout).toContain('text appraisal ta-rejected');
    expect(run.stdout).toContain('expects: rejected');
  });

  it('strips control characters from every field of the text appraisal', () => {
    const run = mecha(['--home', rows, 'sessions', 'appraise', 's-rejected']);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
    expect(run.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
    expect(run.stdout).toContain(
      'The draft went to the wrong client.[31m INJECTED [0mredro New line',
    );
    const { json } = mechaJson<SessionJson>([
      '--home',
      rows,
      'sessions',
      'appraise',
      's-rejected',
      '--json',
    ]);
    expect(JSON.stringify(json.text_appraisal.record)).not.toMatch(/\\u001b|\\u202e|\\n/);
  });

  it('says when a session has no text appraisal', () => {
    expect(mecha(['--home', rows, 'sessions', 'appraise', 's-deny']).stdout).toContain(
      'No text appraisal on record for this session',
    );
  });
});

describe('mecha sessions appraise --text', () => {
  it('prints every text appraisal, newest first', () => {
    const run = mecha(['--home', rows, 'sessions', 'appraise', '--text']);
    expect(run.code).toBe(0);
    expect(run.stdout.indexOf('ta-steer')).toBeLessThan(run.stdout.indexOf('ta-rejected'));
    expect(run.stdout).toContain('not clean (third party)');
  });

  it('-n limits it to the newest', () => {
    const { json } = mechaJson<{ records: { appraisal_id: string }[] }>([
      '--home',
      rows,
      'sessions',
      'appraise',
      '--text',
      '-n',
      '1',
      '--json',
    ]);
    expect(json.records.map((record) => record.appraisal_id)).toEqual(['ta-steer']);
  });
});

describe('the retired and the paid passes', () => {
  it('accepts --appraise and --max-appraisals, does nothing, and says so on stderr only', () => {
    const { run, json } = mechaJson(
      ['--home', rows, 'sessions', 'appraise', '--appraise', '--max-appraisals', '5', '--json'],
      fixtureNow,
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('--appraise and --max-appraisals are retired and do nothing');
    expect(json.sessions_read).toBe(32);
    expect(json.appraiser).toBeNull();
  });

  it('--probe reports that no replayer is configured and leaves probe null', () => {
    const { run, json } = mechaJson(
      ['--home', rows, 'sessions', 'appraise', '--probe', '--max-probes', '3', '--json'],
      fixtureNow,
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('no replayer is configured');
    expect(json.probe).toBeNull();
    const human = mecha(['--home', rows, 'sessions', 'appraise', '--probe'], fixtureNow);
    expect(human.stdout).toContain('counterfactual probe: not run: no replayer is configured');
  });
});

describe('sessions appraise --replay-candidates', () => {
  it('orders tied sessions by the charter line their evidence is attributed to', () => {
    const run = mecha([
      '--home',
      fixturePath('tasks'),
      'sessions',
      'appraise',
      '--replay-candidates',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('every session is tied, so the charter decides');
    expect(run.stdout).toMatch(/^ {4}1\. s-good {2}charter line replies \(rank 1\)$/m);
  });

  it('puts headroom first and leaves out sessions with none given', () => {
    const dir = tempDir();
    const file = join(dir, 'headroom.json');
    writeFileSync(file, '{"s-good": 1, "s-cut": 2}');
    const { run, json } = mechaJson<{
      candidates: { session_id: string; headroom: number }[];
      without_headroom: number;
    }>([
      '--home',
      fixturePath('tasks'),
      'sessions',
      'appraise',
      '--replay-candidates',
      '--headroom',
      file,
      '--json',
    ]);
    expect(run.code).toBe(0);
    expect(json.candidates.map((row) => [row.session_id, row.headroom])).toEqual([
      ['s-cut', 2],
      ['s-good', 1],
    ]);
    expect(json.without_headroom).toBe(4);
  });

  it.each([
    ['a headroom that is not a number', '{"s-good": "lots"}', /must be a finite number/],
    ['a file that is not JSON', 'nope', /is not JSON/],
  ])('refuses %s as a usage error', (_, content, message) => {
    const file = join(tempDir(), 'headroom.json');
    writeFileSync(file, content);
    const run = mecha([
      '--home',
      fixturePath('tasks'),
      'sessions',
      'appraise',
      '--replay-candidates',
      '--headroom',
      file,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it('refuses --headroom without --replay-candidates', () => {
    const run = mecha([
      '--home',
      fixturePath('tasks'),
      'sessions',
      'appraise',
      '--headroom',
      'x.json',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--headroom only goes with --replay-candidates');
  });
});
