import { explainLabel } from '@mecha/appraisal-core';
import {
  addTask,
  createSessionRecorder,
  decideDraft,
  homePorts,
  openHome,
  rightOrThrow,
  sessionReadout,
} from '@mecha/stores';
import { beforeAll, describe, expect, it } from 'vitest';
import { foldCharacters } from '../src/pages/session-page.js';
import { boardApp, emptyHome, origin } from './helpers.js';

// The session page explains its label from the readout the CLI uses: the sentence of
// `explainLabel`, each signed error in plain words with its goal's title and who caused it,
// and a trace of the runs and turns where every turn cite is a link to its turn.

let page: string;
let sessionId: string;
let expected: string;
const longAnswer = `The report ${'is long '.repeat(100)}<script>window.pwned = 1</script>`;

beforeAll(async () => {
  const path = emptyHome();
  const home = openHome(path);
  const added = rightOrThrow(
    await addTask(home, { title: 'Send the <b>invoice</b>', status: 'next' }),
  );
  const taskId = added.task.id;
  const recorder = createSessionRecorder(home);
  sessionId = recorder.sessionId;
  const run = rightOrThrow(
    await recorder.startRun({
      surface: 'web',
      personPresent: true,
      goal: { kind: 'task', id: taskId },
    }),
  );
  rightOrThrow(await run.message({ turn: 1, role: 'owner', taint: 'clean', text: 'Send it.' }));
  const call = rightOrThrow(await run.toolCall({ turn: 1, tool: 'mail_send', target: 'ana' }));
  rightOrThrow(
    await run.toolResult({ turn: 1, callId: call.callId, status: 'error', taint: 'clean' }),
  );
  rightOrThrow(await run.stepCheck({ turn: 2, stepId: 'attach', passed: false }));
  rightOrThrow(await run.message({ turn: 2, role: 'assistant', taint: 'clean', text: longAnswer }));
  const { draftId } = rightOrThrow(
    await recorder.stageDraft({
      tool: 'mail_send',
      taint: 'clean',
      text: 'Invoice attached',
      goal: { kind: 'task', id: taskId },
    }),
  );
  rightOrThrow(await run.end({ stopCause: 'completed', turns: 2 }));
  const rejected = await decideDraft(home, {
    query: draftId,
    verdict: 'reject',
    reason: 'wrong <amount>',
    env: {},
  });
  expect(rightOrThrow(rejected).state).toBe('decided');
  const { app } = await boardApp(path);
  const response = await app.request(`${origin}/sessions/${sessionId}`);
  expect(response.status).toBe(200);
  page = await response.text();
  const found = rightOrThrow(await sessionReadout(homePorts(openHome(path)), sessionId));
  expected = explainLabel(found.reading).sentence;
});

const escaped = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

describe('the session page explains the label', () => {
  it('says why the label in the one sentence the CLI and Slack show', () => {
    expect(expected).toMatch(/because/);
    expect(page).toContain(
      `<p class="why" id="why">${escaped(expected).replace(/'/g, '&#39;')}</p>`,
    );
  });

  it('puts each signed error in plain words, with the owner’s reason, its goal’s title and who caused it', () => {
    expect(page).toContain('A message draft the owner rejected: “wrong &lt;amount&gt;”');
    expect(page).toContain('A declared step check that did not pass');
    expect(page).toContain('“Send the &lt;b&gt;invoice&lt;/b&gt;”');
    expect(page).toContain('caused by you, the owner');
    expect(page).toContain('caused by the run itself');
  });

  it('traces the runs and turns, links every turn cite to its turn, and folds long text', () => {
    expect(page).toContain('<a href="#turn-2">turn 2</a>');
    expect(page).toMatch(/<li class="turn turn--cited" id="turn-2">/);
    expect(page).toContain('<code>mail_send</code> on <code>ana</code>');
    expect(page).toContain('tool result</span> an error');
    expect(page).toContain('Stopped: <strong>completed</strong> after 2 turns.');
    expect(page).toContain(`(show all ${longAnswer.length.toLocaleString('en')} characters)`);
    expect(longAnswer.length).toBeGreaterThan(foldCharacters);
    expect(page).not.toContain('<script>window.pwned');
  });
});
