import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  addTask,
  createSessionRecorder,
  homeLayout,
  maxRecordBytes,
  openHome,
  readDraftVerdict,
  readQuestionAnswer,
  rightOrThrow,
} from '@mecha/stores';
import { beforeAll, describe, expect, it } from 'vitest';
import { runsPerPage } from '../src/pages/runs-page.js';
import {
  boardApp,
  csrfToken,
  emptyHome,
  followed,
  generatedHome,
  origin,
  post,
  snapshot,
} from './helpers.js';

describe('the runs page', () => {
  let app: Awaited<ReturnType<typeof boardApp>>['app'];
  let readout: Awaited<ReturnType<typeof boardApp>>['readout'];

  beforeAll(async () => {
    ({ app, readout } = await boardApp(generatedHome(60, 'pages')));
  });

  const sessionsOn = async (path: string) => {
    const text = await (await app.request(`${origin}${path}`)).text();
    return [...text.matchAll(/<li id="run-([^"]+)" data-session/g)].map(
      (match) => match[1] as string,
    );
  };

  it('lists newest first, a page at a time', async () => {
    const rows = readout.population({ now: new Date() });
    const first = await sessionsOn('/');
    expect(first).toEqual(rows.slice(0, runsPerPage).map((row) => row.sessionId));
    expect(await sessionsOn('/?page=2')).toEqual(
      rows.slice(runsPerPage, 2 * runsPerPage).map((row) => row.sessionId),
    );
  });

  it('filters by label, silent included, and by kind', async () => {
    const rows = readout.population({ now: new Date() });
    const distress = rows.filter((row) => row.label === 'distress' && row.chip !== undefined);
    expect(distress.length).toBeGreaterThan(0);
    expect(await sessionsOn('/?label=distress')).toEqual(
      distress.slice(0, runsPerPage).map((row) => row.sessionId),
    );
    const silent = rows.filter((row) => row.state !== 'unreadable' && row.chip === undefined);
    expect(await sessionsOn('/?label=silent')).toEqual(
      silent.slice(0, runsPerPage).map((row) => row.sessionId),
    );
    const tui = rows.filter((row) => row.listing.surface === 'tui');
    expect(await sessionsOn('/?kind=tui')).toEqual(
      tui.slice(0, runsPerPage).map((row) => row.sessionId),
    );
  });

  it('offers neutral, only labels something produces, and the kinds present as a select', async () => {
    const page = await (await app.request(`${origin}/`)).text();
    const form = page.slice(page.indexOf('<form class="filters"'), page.indexOf('</form>'));
    expect(form).toContain('<option value="neutral">');
    expect(form).not.toContain('value="shame"');
    expect(form).not.toContain('value="excitement"');
    const surfaces = new Set(readout.rows().flatMap((row) => row.listing.surface ?? []));
    const offered = [...form.matchAll(/<option value="([^"]*)"/g)].map((match) => match[1]);
    for (const surface of surfaces) expect(offered).toContain(surface);
    expect(form).toContain('<select name="kind">');
    const rows = readout.population({ now: new Date() });
    const neutral = rows.filter((row) => row.label === 'neutral' && row.chip !== undefined);
    expect(await sessionsOn('/?label=neutral')).toEqual(
      neutral.slice(0, runsPerPage).map((row) => row.sessionId),
    );
  });

  it('answers a bad filter with the reason, never a guess', async () => {
    for (const [query, reason] of [
      ['days=abc', 'days takes a whole number'],
      ['label=happy', 'label takes one of'],
      ['page=0', 'page takes a whole number'],
      ['kind=Bad%20Kind', 'kind takes a recorded surface'],
      // A kind nothing was started from is a typo, not 0 sessions.
      ['kind=tuii', 'no session was started from &quot;tuii&quot;: kinds present are'],
      // A label nothing produces today is not offered, nor taken.
      ['label=shame', 'label takes one of'],
    ]) {
      const page = await app.request(`${origin}/?${query}`);
      expect(page.status, query).toBe(400);
      expect(await page.text()).toContain(reason);
    }
    expect((await app.request(`${origin}/corpus?days=-1`)).status).toBe(400);
    expect((await app.request(`${origin}/sessions/no-such-session`)).status).toBe(404);
  });
});

describe('a home whose sessions cannot be listed', () => {
  it('says the count is unknown, never zero', async () => {
    const path = emptyHome();
    rmSync(join(path, 'sessions'), { recursive: true, force: true });
    writeFileSync(join(path, 'sessions'), 'not a folder');
    const { app } = await boardApp(path);
    const text = await (await app.request(`${origin}/`)).text();
    expect(text).toContain('The sessions could not be listed');
    expect(text).not.toContain('0 sessions');
    expect(text).not.toContain('No runs in this window');
  });
});

describe('acts from the board', () => {
  let path: string;
  let app: Awaited<ReturnType<typeof boardApp>>['app'];
  let draftId: string;
  let questionId: string;
  let taskId: string;

  beforeAll(async () => {
    path = emptyHome();
    const home = openHome(path);
    const recorder = createSessionRecorder(home);
    const run = rightOrThrow(await recorder.startRun({ surface: 'web', personPresent: true }));
    rightOrThrow(await run.end({ stopCause: 'parked', turns: 1 }));
    draftId = rightOrThrow(
      await recorder.stageDraft({ tool: 'mail_send', taint: 'clean', text: 'Hello' }),
    ).draftId;
    questionId = rightOrThrow(await recorder.parkQuestion({ purpose: 'ordinary' })).questionId;
    const added = rightOrThrow(await addTask(home, { title: 'Plan the offsite', status: 'inbox' }));
    taskId = added.task.id;
    ({ app } = await boardApp(path));
  });

  it('sends a draft as written, and a second verdict on it changes nothing', async () => {
    const sent = await followed(
      app,
      post(app, `/drafts/${draftId}`, { verdict: 'send', csrf: csrfToken }),
    );
    expect(sent.status).toBe(200);
    expect(await sent.text()).toContain(`Sent ${draftId} as written.`);
    const before = snapshot(path);
    const again = await post(app, `/drafts/${draftId}`, { verdict: 'reject', csrf: csrfToken });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain('already has a verdict (sent_unchanged)');
    expect(snapshot(path)).toEqual(before);
  });

  it('answers a parked question once', async () => {
    const answered = await followed(
      app,
      post(app, `/questions/${questionId}/answer`, {
        answer: 'Friday',
        csrf: csrfToken,
      }),
    );
    expect(await answered.text()).toContain(`Answered ${questionId}`);
    const again = await post(app, `/questions/${questionId}/answer`, {
      answer: 'Monday',
      csrf: csrfToken,
    });
    expect(again.status).toBe(409);
    const read = await readQuestionAnswer(openHome(path), questionId);
    expect(read.state === 'answered' && read.text).toBe('Friday');
  });

  it('refuses a malformed act with the reason and writes nothing', async () => {
    const before = snapshot(path);
    expect(
      (await post(app, `/drafts/${draftId}`, { verdict: 'burn', csrf: csrfToken })).status,
    ).toBe(400);
    expect(
      (await post(app, `/board/${taskId}/close`, { to: 'next', csrf: csrfToken })).status,
    ).toBe(400);
    expect(
      (await post(app, `/board/${taskId}/reopen`, { to: 'done', csrf: csrfToken })).status,
    ).toBe(400);
    const unknown = await post(app, '/board/task-nope/close', { to: 'done', csrf: csrfToken });
    expect(unknown.status).toBe(409);
    expect(snapshot(path)).toEqual(before);
  });

  it('edits the charter with the CLI’s messages for the same mistakes', async () => {
    const added = await followed(
      app,
      post(app, '/charter', {
        op: 'add',
        id: 'replies',
        text: 'Reply to <people> waiting',
        sensor: 'outbox_age',
        setpoint: '2d',
        csrf: csrfToken,
      }),
    );
    expect(added.status).toBe(200);
    const text = await added.text();
    expect(text).toContain('Added line replies.');
    expect(text).toContain('Reply to &lt;people&gt; waiting');
    expect(openHome(path).readCharter()).toMatchObject({
      state: 'read',
      charter: [{ id: 'replies', sensor: 'outbox_age', setpoint: 2 * 86_400_000 }],
    });
    const before = snapshot(path);
    const badSensor = await post(app, '/charter', {
      op: 'set_sensor',
      id: 'replies',
      sensor: 'inbox',
      csrf: csrfToken,
    });
    expect(badSensor.status).toBe(400);
    const sensorPage = await badSensor.text();
    expect(sensorPage).toContain(
      'the sensor is one of outbox_age, question_latency or request_closure, not &quot;inbox&quot;',
    );
    // The refused edit opens again with what was typed, in words, never the CLI's flags.
    expect(sensorPage).not.toContain('--sensor');
    expect(sensorPage).toContain('<details open><summary>Edit replies</summary>');
    expect(sensorPage).toContain('name="sensor" size="16" value="inbox"');
    const badSetpoint = await post(app, '/charter', {
      op: 'set_setpoint',
      id: 'replies',
      setpoint: 'soon',
      csrf: csrfToken,
    });
    const setpointPage = await badSetpoint.text();
    expect(setpointPage).toContain('the setpoint is a duration such as 48h or 2d:');
    expect(setpointPage).toContain('name="setpoint" size="8" value="soon"');
    expect(setpointPage).not.toContain('--setpoint');
    const duplicate = await post(app, '/charter', {
      op: 'add',
      id: 'replies',
      text: 'again',
      csrf: csrfToken,
    });
    expect(duplicate.status).toBe(409);
    expect(await duplicate.text()).toContain('name="text" size="30" required value="again"');
    expect(snapshot(path)).toEqual(before);
    const removed = await followed(
      app,
      post(app, '/charter', { op: 'remove', id: 'replies', csrf: csrfToken }),
    );
    expect(await removed.text()).toContain('Removed line replies.');
  });

  it('refuses charter edits and closures from a board started inside an unattended run', async () => {
    const home = openHome(path);
    const recorder = createSessionRecorder(home);
    const run = rightOrThrow(await recorder.startRun({ surface: 'trigger', personPresent: false }));
    const { app: inRun } = await boardApp(path, {
      env: { MECHA_SESSION_ID: recorder.sessionId, MECHA_RUN_ID: run.runId },
    });
    const before = snapshot(path);
    const edit = await post(inRun, '/charter', { op: 'add', id: 'x', text: 'y', csrf: csrfToken });
    expect(edit.status).toBe(409);
    expect(await edit.text()).toContain('only a person edits the charter');
    const close = await post(inRun, `/board/${taskId}/close`, { to: 'done', csrf: csrfToken });
    expect(close.status).toBe(409);
    expect(await close.text()).toContain('nobody present');
    expect(snapshot(path)).toEqual(before);
  });
});

describe('the owner’s words from the board', () => {
  let path: string;
  let app: Awaited<ReturnType<typeof boardApp>>['app'];
  let readout: Awaited<ReturnType<typeof boardApp>>['readout'];
  let recorder: ReturnType<typeof createSessionRecorder>;

  beforeAll(async () => {
    path = emptyHome();
    recorder = createSessionRecorder(openHome(path));
    ({ app, readout } = await boardApp(path));
  });

  // The board's watcher takes in what a run writes; in process, the test tells it.
  const stage = async (text: string) => {
    const { draftId } = rightOrThrow(
      await recorder.stageDraft({ tool: 'mail_send', taint: 'third_party', text }),
    );
    await readout.changed([homeLayout.outbox]);
    return draftId;
  };
  const park = async () => rightOrThrow(await recorder.parkQuestion()).questionId;

  it('keeps an edit with its line breaks, shows it escaped, and the harness reads it to send', async () => {
    const draftId = await stage('Hi <b>all</b>');
    const edited = await followed(
      app,
      post(app, `/drafts/${draftId}`, {
        verdict: 'send_edited',
        text: 'Hi team,\r\n<img src=x onerror=alert(1)> \u001b[31mFriday\u001b[0m',
        csrf: csrfToken,
      }),
    );
    expect(edited.status).toBe(200);
    const page = await edited.text();
    expect(page).toContain(`Sent ${draftId} with your edits.`);
    expect(page).toContain(
      '<pre class="said__words">Hi team,\n&lt;img src=x onerror=alert(1)&gt; [31mFriday[0m</pre>',
    );
    expect(page).not.toContain('\u001b');
    const read = await readDraftVerdict(openHome(path), draftId);
    expect(read).toMatchObject({ state: 'send', outcome: 'sent_edited', sender: 'owner' });
    expect(read.state === 'send' && read.text).toBe(
      'Hi team,\n<img src=x onerror=alert(1)> \u001b[31mFriday\u001b[0m',
    );
  });

  it('shows a stranger’s draft escaped and stripped in the edit box it fills', async () => {
    const draftId = await stage('</textarea><script>x()</script>\u001b]0;title\u0007');
    const page = await (await app.request(`${origin}/drafts`)).text();
    const box = page.slice(page.indexOf(`id="draft-${draftId}"`));
    expect(box).toContain('&lt;/textarea&gt;&lt;script&gt;x()&lt;/script&gt;]0;title</textarea>');
    expect(box).not.toContain('<script>x()');
  });

  it('keeps an answer and shows it back escaped', async () => {
    const questionId = await park();
    const answered = await followed(
      app,
      post(app, `/questions/${questionId}/answer`, {
        answer: 'Use <the> Lakeside totals',
        csrf: csrfToken,
      }),
    );
    expect(answered.status).toBe(200);
    expect(await answered.text()).toContain(
      '<pre class="said__words">Use &lt;the&gt; Lakeside totals</pre>',
    );
    const read = await readQuestionAnswer(openHome(path), questionId);
    expect(read.state === 'answered' && read.text).toBe('Use <the> Lakeside totals');
  });

  it('refuses an empty edit, an unchanged edit, an empty answer and an over-long one, writing nothing', async () => {
    const draftId = await stage('As written');
    const questionId = await park();
    const before = snapshot(path);
    for (const [route, fields, message] of [
      [`/drafts/${draftId}`, { verdict: 'send_edited', text: ' \r\n ' }, 'the edit is empty'],
      [`/drafts/${draftId}`, { verdict: 'send_edited' }, 'the edit is empty'],
      [`/drafts/${draftId}`, { verdict: 'send_edited', text: 'As written' }, 'use Send'],
      [`/questions/${questionId}/answer`, { answer: '' }, 'the answer is empty'],
      [`/questions/${questionId}/answer`, {}, 'the answer is empty'],
      [
        `/questions/${questionId}/answer`,
        { answer: 'z'.repeat(maxRecordBytes) },
        'the answer is too long to keep: 4,097 KiB as recorded',
      ],
    ] as const) {
      const refused = await post(app, route, { ...fields, csrf: csrfToken });
      expect(refused.status, message).toBe(400);
      expect(await refused.text()).toContain(message);
    }
    expect(snapshot(path)).toEqual(before);
  });
});

/** The text a browser puts in a page's edit box: entities decoded, one leading newline dropped. */
function boxValue(page: string, id: string, name: string): string {
  const from = page.slice(page.indexOf(`id="${id}"`));
  const found = new RegExp(`<textarea name="${name}"[^>]*>([\\s\\S]*?)</textarea>`).exec(from);
  if (found === null) throw new Error(`no ${name} box in ${id}`);
  const raw = (found[1] as string).replace(/^\n/, '');
  return raw
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

describe('an edit box sent back untouched', () => {
  it('is refused as the draft as written, though the box showed it without control characters', async () => {
    const path = emptyHome();
    const recorder = createSessionRecorder(openHome(path));
    const draft = '\nDear Ana,\u001b[31m\tsee <below>\u202e\r\nSam & co';
    const { draftId } = rightOrThrow(
      await recorder.stageDraft({ tool: 'mail_send', taint: 'clean', text: draft }),
    );
    const { app } = await boardApp(path);
    const page = await (await app.request(`${origin}/drafts`)).text();
    const shown = boxValue(page, `draft-${draftId}`, 'text');
    expect(shown).toBe('\nDear Ana,[31m see <below>\nSam & co');
    const before = snapshot(path);
    // A browser sends the box's lines with `\r\n`.
    const sent = await post(app, `/drafts/${draftId}`, {
      verdict: 'send_edited',
      text: shown.replace(/\n/g, '\r\n'),
      csrf: csrfToken,
    });
    expect(sent.status).toBe(400);
    expect(await sent.text()).toContain('the edit is the draft as written: use Send');
    expect(snapshot(path)).toEqual(before);
    expect((await readDraftVerdict(openHome(path), draftId)).state).toBe('pending');
  });
});

describe('a parked question beside its answer box', () => {
  const question = (page: string, id: string) => {
    const from = page.slice(page.indexOf(`id="question-${id}"`));
    return from.slice(0, from.indexOf('</li>'));
  };

  async function parked(
    words: readonly { readonly text?: string; readonly taint?: 'clean' | 'third_party' }[],
  ) {
    const path = emptyHome();
    const recorder = createSessionRecorder(openHome(path));
    const run = rightOrThrow(await recorder.startRun({ surface: 'web', personPresent: true }));
    for (const [turn, message] of words.entries()) {
      rightOrThrow(
        await run.message({
          turn,
          role: 'assistant',
          taint: message.taint ?? 'clean',
          ...(message.text === undefined ? {} : { text: message.text }),
        }),
      );
    }
    const { questionId } = rightOrThrow(await recorder.parkQuestion());
    rightOrThrow(await run.end({ stopCause: 'parked' }));
    const { app } = await boardApp(path);
    return { path, app, questionId, sessionId: recorder.sessionId };
  }

  it('shows the question the run asked, escaped and stripped, labelled for its box', async () => {
    const { app, questionId } = await parked([
      { text: 'Thinking.' },
      {
        text: 'Which totals? <script>window.pwned = 1</script>\u001b[31m\nLakeside & Northwind',
        taint: 'third_party',
      },
    ]);
    const block = question(await (await app.request(`${origin}/questions`)).text(), questionId);
    expect(block).toContain(
      `<pre class="question__words" id="asked-${questionId}">Which totals? &lt;script&gt;window.pwned = 1&lt;/script&gt;[31m\nLakeside &amp; Northwind</pre>`,
    );
    expect(block).not.toContain('<script>');
    expect(block).not.toContain('\u001b');
    expect(block).not.toContain('Thinking.');
    expect(block).toContain('third-party content');
    // The words come before the box, and the box names them as what it answers.
    expect(block.indexOf('question__words')).toBeLessThan(block.indexOf('<textarea'));
    expect(block).toMatch(
      new RegExp(`<textarea name="answer"[^>]*aria-describedby="asked-${questionId}"`),
    );
    expect(block).not.toContain('<details');
  });

  it('shortens a long question, with the whole of it one click away', async () => {
    const long = Array.from(
      { length: 40 },
      (_, line) => `Line ${line}: ${'word '.repeat(12)}`,
    ).join('\n');
    const { app, questionId } = await parked([{ text: long }]);
    const block = question(await (await app.request(`${origin}/questions`)).text(), questionId);
    const shown = /<pre class="question__words"[^>]*>([\s\S]*?)<\/pre>/.exec(block)?.[1] ?? '';
    expect(shown.length).toBeLessThan(long.length);
    expect(shown.endsWith('…')).toBe(true);
    expect(long.startsWith(shown.slice(0, -1))).toBe(true);
    expect(block).toContain(
      `<summary>Show the whole question (${long.length.toLocaleString('en')} characters)</summary>`,
    );
    expect(block).toContain(`<pre>${long}</pre>`);
  });

  it.each([
    ['recorded no message', [], "The question's words were not recorded: run "],
    ['kept no text', [{}], "The question's words were not recorded: run "],
  ])('says so when the run %s, and shows no empty question', async (_, words, said) => {
    const { app, questionId } = await parked(words);
    const block = question(await (await app.request(`${origin}/questions`)).text(), questionId);
    expect(block).toContain(said);
    expect(block).not.toContain('question__words');
    expect(block).toContain('<textarea name="answer"');
  });

  it('says the words could not be read when the transcript is gone', async () => {
    const { app, path, questionId, sessionId } = await parked([{ text: 'Which totals?' }]);
    rmSync(join(path, 'sessions', `${sessionId}.jsonl`));
    const block = question(await (await app.request(`${origin}/questions`)).text(), questionId);
    expect(block).toContain(
      `The question's words could not be read: the transcript of session ${sessionId} could not be read`,
    );
    expect(block).not.toContain('question__words');
  });
});

describe('Send beside an edit box', () => {
  let path: string;
  let app: Awaited<ReturnType<typeof boardApp>>['app'];
  let readout: Awaited<ReturnType<typeof boardApp>>['readout'];
  let recorder: ReturnType<typeof createSessionRecorder>;

  beforeAll(async () => {
    path = emptyHome();
    recorder = createSessionRecorder(openHome(path));
    ({ app, readout } = await boardApp(path));
  });
  const stage = async (text: string) => {
    const { draftId } = rightOrThrow(
      await recorder.stageDraft({ tool: 'mail_send', taint: 'clean', text }),
    );
    await readout.changed([homeLayout.outbox]);
    return draftId;
  };

  it('sends the owner’s edit when the box was changed: the words are never thrown away', async () => {
    const draftId = await stage('Dear Ana,\nsee you Monday');
    const page = await (
      await followed(
        app,
        post(app, `/drafts/${draftId}`, {
          verdict: 'send',
          text: 'Dear Ana,\r\nsee you Friday',
          csrf: csrfToken,
        }),
      )
    ).text();
    expect(page).toContain(`Sent ${draftId} with your edits.`);
    const read = await readDraftVerdict(openHome(path), draftId);
    expect(read).toMatchObject({ state: 'send', outcome: 'sent_edited', sender: 'owner' });
    expect(read.state === 'send' && read.text).toBe('Dear Ana,\nsee you Friday');
  });

  it('sends the draft as written when the box came back as it was shown', async () => {
    const draft = 'Dear Ana,\u001b[31m see below\r\nSam';
    const draftId = await stage(draft);
    const shown = boxValue(
      await (await app.request(`${origin}/drafts`)).text(),
      `draft-${draftId}`,
      'text',
    );
    const page = await (
      await followed(
        app,
        post(app, `/drafts/${draftId}`, {
          verdict: 'send',
          text: shown.replace(/\n/g, '\r\n'),
          csrf: csrfToken,
        }),
      )
    ).text();
    expect(page).toContain(`Sent ${draftId} as written.`);
    const read = await readDraftVerdict(openHome(path), draftId);
    expect(read).toMatchObject({ state: 'send', outcome: 'sent_unchanged' });
  });

  it('refuses Send with the box emptied, writing nothing', async () => {
    const draftId = await stage('Hello');
    const before = snapshot(path);
    const refused = await post(app, `/drafts/${draftId}`, {
      verdict: 'send',
      text: '  ',
      csrf: csrfToken,
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('the edit is empty');
    expect(snapshot(path)).toEqual(before);
  });
});

describe('POST, redirect, GET', () => {
  it('answers an act with 303 to its page, whose address keeps the message; a reload acts no more', async () => {
    const path = emptyHome();
    const home = openHome(path);
    const added = rightOrThrow(await addTask(home, { title: 'Book the room', status: 'next' }));
    const { app } = await boardApp(path);
    const acted = await post(app, `/board/${added.task.id}/close`, { to: 'done', csrf: csrfToken });
    expect(acted.status).toBe(303);
    const location = acted.headers.get('location') ?? '';
    expect(location).toMatch(
      new RegExp(`^/board\\?said=[0-9a-f-]{36}&task=${added.task.id}#task-${added.task.id}$`),
    );
    const before = snapshot(path);
    for (let load = 0; load < 2; load += 1) {
      const page = await app.request(`${origin}${location}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(`Closed ${added.task.id}: next → done`);
    }
    expect(snapshot(path)).toEqual(before);
    // An address naming no act's message is the plain page.
    expect(await (await app.request(`${origin}/board?said=nothing`)).text()).not.toContain(
      'id="said"',
    );
  });
});
