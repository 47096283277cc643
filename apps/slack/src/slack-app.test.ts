import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appraiseRun, explainLabel } from '@mecha/appraisal-core';
import {
  createSessionRecorder,
  type MechaHome,
  moveTask,
  openHome,
  readDraftVerdict,
  rightOrThrow,
} from '@mecha/stores';
import * as E from 'fp-ts/lib/Either.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeSlackApi, startFakeSlackApi } from './__fixtures__/fake-slack-api.js';
import { homeBytes } from './__fixtures__/home-bytes.js';
import { buttonTap, interaction, postSigned, slashCommand } from './__fixtures__/signed-request.js';
import { checkSlack } from './check-slack.js';
import type { Delivery } from './mecha-receiver.js';
import { type RunningSlackApp, startSlackApp } from './slack-app.js';
import { slackConfigFromEnv } from './slack-config.js';
import { readSlackLedger, slackLedgerFile } from './slack-ledger.js';
import { actionIds } from './slack-messages.js';
import { watchHome } from './watch-home.js';

// Slack's Web API cannot be reached from here: the app's client points at a loopback fake that
// records each call. Everything else is real: the home's files, the receiver, Bolt, the stores.

const secret = '8f742231b10e8888abcd99yyyzzz85a5'.replace(/[yz]/g, 'a');
const botToken = 'xoxb-1111-2222-SECRETTOKENVALUE';
const owner = 'UOWNER001';
const stranger = 'USTRANGER1';

interface Harness {
  readonly home: MechaHome;
  readonly path: string;
  readonly fake: FakeSlackApi;
  readonly running: RunningSlackApp;
  readonly port: number;
  readonly logs: string[];
  readonly deliveries: Delivery[];
  /** Resolves once `count` deliveries have been handled (listener work included). */
  delivered(count: number): Promise<void>;
}

let harness: Harness;
const waiters: (() => void)[] = [];
// The app's clock: real time at each test's start, moved on by hand (no test waits on time).
let clockMs = Date.now();

/** Keeps `deliveries` up to date with what the app's receiver handled, waking the waiters. */
function track(running: RunningSlackApp, deliveries: Delivery[]): void {
  running.receiver?.onDelivery((delivery) => {
    deliveries.push(delivery);
    for (const wake of waiters.splice(0)) wake();
  });
}

async function start(): Promise<Harness> {
  const path = mkdtempSync(join(tmpdir(), 'mecha-slack-'));
  const home = openHome(path);
  rightOrThrow(
    await home.board.put([
      { v: 1, kind: 'task', id: 'task-1', title: 'Send the totals', status: 'next' },
      {
        v: 1,
        kind: 'task',
        id: 'task-2',
        title: '<!channel> pay now & <http://x|here>',
        status: 'inbox',
      },
    ]),
    'board',
  );
  const fake = await startFakeSlackApi();
  const config = rightOrThrow(
    E.mapLeft((issues: readonly { message: string }[]) => ({ message: issues[0]?.message ?? '' }))(
      slackConfigFromEnv({
        SLACK_SIGNING_SECRET: secret,
        SLACK_BOT_TOKEN: botToken,
        MECHA_SLACK_OWNERS: owner,
        MECHA_SLACK_CHANNEL: 'C0CHANNEL',
        MECHA_SLACK_PORT: '0',
        MECHA_SLACK_API_URL: fake.url,
      }),
    ),
    'config',
  );
  const logs: string[] = [];
  clockMs = Date.now();
  const running = await startSlackApp({
    config,
    home,
    log: (line) => logs.push(line),
    watch: false,
    clock: () => new Date(clockMs),
  });
  const deliveries: Delivery[] = [];
  track(running, deliveries);
  return {
    home,
    path,
    fake,
    running,
    port: running.port as number,
    logs,
    deliveries,
    delivered: (count) =>
      new Promise((resolve) => {
        const check = () => (deliveries.length >= count ? resolve() : waiters.push(check));
        check();
      }),
  };
}

beforeEach(async () => {
  harness = await start();
});

afterEach(async () => {
  await harness.running.stop();
  await harness.fake.close();
  rmSync(harness.path, { recursive: true, force: true });
});

const tap = (user: string, actionId: string, value: string, actionTs: string) =>
  postSigned(harness.port, secret, { body: buttonTap({ user, actionId, value, actionTs }) });

async function closures(): Promise<
  { task_id: string; to: string; surface: string; who: string; appraisal_line?: string }[]
> {
  const read = await harness.home.closures.read();
  return read.state === 'unreadable' ? [] : (read.records as never);
}

async function taskStatus(id: string): Promise<string | undefined> {
  const board = await harness.home.board.read();
  if (board.state === 'unreadable') return undefined;
  const task = board.records.find((row) => row.kind === 'task' && row.id === id);
  return task?.kind === 'task' ? task.status : undefined;
}

describe('mecha slack: start', () => {
  it('calls auth.test with the bot token at start and logs nothing of it', async () => {
    const auth = await harness.fake.waitFor((call) => call.method === 'auth.test');
    expect(auth.authorization).toBe(`Bearer ${botToken}`);
    expect(harness.logs.join('\n')).not.toContain('SECRETTOKENVALUE');
  });
});

describe('mecha slack: a start Slack refuses', () => {
  it('fails with an error that does not carry the token', async () => {
    const fake = await startFakeSlackApi();
    fake.failNext('auth.test', 'invalid_auth', 10);
    const config = slackConfigFromEnv({
      SLACK_SIGNING_SECRET: secret,
      SLACK_BOT_TOKEN: botToken,
      MECHA_SLACK_OWNERS: owner,
      MECHA_SLACK_CHANNEL: 'C0CHANNEL',
      MECHA_SLACK_PORT: '0',
      MECHA_SLACK_API_URL: fake.url,
    });
    if (E.isLeft(config)) throw new Error('config');
    const logs: string[] = [];
    const failed = await startSlackApp({
      config: config.right,
      home: harness.home,
      log: (line) => logs.push(line),
      watch: false,
    }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    await fake.close();
    expect(failed?.message).toBe(
      'SLACK_BOT_TOKEN is not accepted by Slack: copy the Bot User OAuth Token again (OAuth & Permissions) (Slack answered invalid_auth)',
    );
    expect(`${failed?.message} ${failed?.stack} ${logs.join(' ')}`).not.toContain(
      'SECRETTOKENVALUE',
    );
  });
});

/** Every block of a message, and its text, as one string to read. */
const blocksOf = (call: { params: Record<string, unknown> } | undefined) =>
  JSON.stringify(call?.params.blocks ?? []);
/** Submits a modal as Slack does, with the view's metadata and the values typed in it. */
const submitView = (callbackId: string, metadata: string, values: Record<string, unknown>) =>
  postSigned(harness.port, secret, {
    body: interaction({
      type: 'view_submission',
      team: { id: 'T0001' },
      user: { id: owner },
      api_app_id: 'A0001',
      trigger_id: `trigger-${callbackId}`,
      view: {
        id: `V-${callbackId}`,
        hash: 'h',
        callback_id: callbackId,
        private_metadata: metadata,
        state: { values },
      },
    }),
  });
const updates = () => harness.fake.calls.filter((call) => call.method === 'chat.update');
const privately = () => harness.fake.calls.filter((call) => call.method === 'chat.postEphemeral');
/** The Slack date token a moment is shown with, read in each reader's own time zone. */
const shownAt = (at: string) =>
  `<!date^${Math.floor(Date.parse(at) / 1000)}^{time}|${at.slice(11, 16)} UTC>`;

describe('mecha slack: what a start and --check say', () => {
  const configWith = (env: Record<string, string>) => {
    const config = slackConfigFromEnv({
      SLACK_SIGNING_SECRET: secret,
      SLACK_BOT_TOKEN: botToken,
      MECHA_SLACK_OWNERS: owner,
      MECHA_SLACK_CHANNEL: 'C0CHANNEL',
      MECHA_SLACK_PORT: '0',
      MECHA_SLACK_API_URL: harness.fake.url,
      ...env,
    });
    if (E.isLeft(config)) throw new Error(JSON.stringify(config.left));
    return config.right;
  };
  const failedStart = (env: Record<string, string>) =>
    startSlackApp({
      config: configWith(env),
      home: harness.home,
      log: () => {},
      watch: false,
    }).then(
      async (running) => {
        await running.stop();
        return undefined;
      },
      (error: unknown) => (error as Error).message,
    );

  it('names MECHA_SLACK_PORT when the port is taken', async () => {
    expect(await failedStart({ MECHA_SLACK_PORT: String(harness.port) })).toBe(
      `MECHA_SLACK_PORT ${harness.port} is already in use on 127.0.0.1: stop what holds it, or set MECHA_SLACK_PORT to a free port (0 picks one)`,
    );
  });

  it('stops with a message when socket mode gets no URL, asking Slack once', async () => {
    const message = await failedStart({
      MECHA_SLACK_SOCKET_MODE: '1',
      SLACK_APP_TOKEN: 'xapp-1-A0001-APPTOKENVALUE',
    });
    expect(message).toBe(
      "Slack gave no socket mode URL for SLACK_APP_TOKEN (apps.connections.open): turn Socket Mode on in the app's settings, and give the token the connections:write scope",
    );
    const opens = harness.fake.calls.filter((call) => call.method === 'apps.connections.open');
    expect(opens).toHaveLength(1);
    expect(opens[0]?.authorization).toBe('Bearer xapp-1-A0001-APPTOKENVALUE');
  });

  it('answers a body over 1 MiB with 413, the connection not reset', async () => {
    const answer = await postSigned(harness.port, secret, { body: 'x'.repeat(1024 * 1024 + 10) });
    expect(answer).toEqual({ status: 413, text: 'refused: too large\n' });
  });

  it('--check: auth.test and the bot in MECHA_SLACK_CHANNEL, or which variable to fix', async () => {
    const config = configWith({});
    expect(await checkSlack(config)).toEqual({
      _tag: 'Right',
      right: {
        lines: [
          'SLACK_BOT_TOKEN is accepted: the bot mecha.',
          'MECHA_SLACK_CHANNEL C0CHANNEL (#mecha): the bot is in it.',
        ],
      },
    });
    harness.fake.answer('conversations.info', {
      ok: true,
      channel: { id: 'C0CHANNEL', name: 'mecha', is_member: false },
    });
    expect(await checkSlack(config)).toMatchObject({
      _tag: 'Left',
      left: {
        kind: 'rejected',
        lines: [
          'SLACK_BOT_TOKEN is accepted: the bot mecha.',
          'MECHA_SLACK_CHANNEL C0CHANNEL (#mecha) is a channel the bot is not in: invite it there (/invite @mecha).',
        ],
      },
    });
    harness.fake.answer('conversations.info', { ok: false, error: 'channel_not_found' });
    const notFound = await checkSlack(config);
    expect(notFound._tag === 'Left' ? notFound.left.lines[1] : 'passed').toMatch(
      /^MECHA_SLACK_CHANNEL C0CHANNEL names no channel/,
    );
    harness.fake.failNext('auth.test', 'invalid_auth');
    const message =
      'SLACK_BOT_TOKEN is not accepted by Slack: copy the Bot User OAuth Token again (OAuth & Permissions) (Slack answered invalid_auth)';
    expect(await checkSlack(config)).toEqual({
      _tag: 'Left',
      left: { kind: 'rejected', message, lines: [message] },
    });
    const calls = harness.fake.calls.map((call) => call.method);
    expect(calls.filter((method) => method.startsWith('chat.'))).toEqual([]);
  });
});

describe('Done and Drop', () => {
  it('closes the task through the closure path and replaces its buttons with what happened', async () => {
    const answer = await tap(owner, actionIds.taskDone, 'task-1', '1790000001.000001');
    expect(answer.status).toBe(200);
    await harness.delivered(1);
    expect(await closures()).toMatchObject([
      { task_id: 'task-1', to: 'done', surface: 'slack', who: 'owner' },
    ]);
    expect(await taskStatus('task-1')).toBe('done');
    const update = await harness.fake.waitFor((call) => call.method === 'chat.update');
    expect(update.params).toMatchObject({ channel: 'C0CHANNEL', ts: '1790000000.000001' });
    const blocks = update.params.blocks as { type: string; elements?: { text: string }[] }[];
    // No button is left on the message: what happened stands in their place.
    expect(blocks.map((block) => block.type)).not.toContain('actions');
    const [record] = (await closures()) as { closure_id?: string; at?: string }[];
    const happened = blocks.find((block) => JSON.stringify(block).includes('Done by you'));
    expect(happened?.elements?.[0]?.text).toBe(`Done by you · ${shownAt(String(record?.at))}`);
    expect(String(update.params.text)).toBe('Send the totals (done): Done by you');
    // The appraisal line is the one the closure record holds; the ids are in the footer.
    const closure = (await closures())[0];
    expect(blocksOf(update)).toContain(JSON.stringify(closure?.appraisal_line).slice(1, -1));
    expect(blocks.at(-1)?.elements?.[0]?.text).toBe(`task-1 · closure ${record?.closure_id}`);
    expect(harness.fake.calls.filter((call) => call.method === 'chat.postMessage')).toEqual([]);
  });

  it('replaces an ephemeral message through its response_url', async () => {
    const answer = await postSigned(harness.port, secret, {
      body: buttonTap({
        user: owner,
        actionId: actionIds.taskDrop,
        value: 'task-1',
        actionTs: '1790000001.000002',
        ephemeral: true,
        responseUrl: harness.fake.responseUrl('tap-1'),
      }),
    });
    expect(answer.status).toBe(200);
    await harness.delivered(1);
    const replaced = await harness.fake.waitFor((call) => call.method === 'response_url');
    expect(replaced.params).toMatchObject({
      replace_original: true,
      response_url: '/response/tap-1',
    });
    expect(blocksOf(replaced)).toContain('Dropped by you · <!date^');
    expect(updates()).toEqual([]);
  });

  it('closes once on a double tap, and the second tap is told privately, in words', async () => {
    const [first, second] = await Promise.all([
      tap(owner, actionIds.taskDone, 'task-1', '1790000002.000001'),
      tap(owner, actionIds.taskDone, 'task-1', '1790000002.000002'),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    await harness.delivered(2);
    expect(await closures()).toHaveLength(1);
    await harness.fake.waitFor((call) => call.method === 'chat.update');
    const told = await harness.fake.waitFor((call) => call.method === 'chat.postEphemeral');
    expect(updates()).toHaveLength(1);
    expect(told.params).toMatchObject({
      user: owner,
      text: '“Send the totals” was already done before this tap, so nothing changed.',
    });
  });

  it("runs a retried delivery (X-Slack-Retry-Num) once, by the tap's action", async () => {
    const body = buttonTap({
      user: owner,
      actionId: actionIds.taskDrop,
      value: 'task-1',
      actionTs: '1790000003.000001',
    });
    await postSigned(harness.port, secret, { body });
    await harness.delivered(1);
    const before = homeBytes(harness.path);
    const retried = await postSigned(harness.port, secret, {
      body,
      timestamp: Math.floor(Date.now() / 1000) + 1,
      headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' },
    });
    expect(retried.status).toBe(200);
    await harness.delivered(2);
    expect(harness.deliveries[1]).toMatchObject({ kind: 'repeat' });
    expect(homeBytes(harness.path)).toEqual(before);
    expect(await closures()).toMatchObject([{ task_id: 'task-1', to: 'dropped' }]);
    expect(updates()).toHaveLength(1);
    expect(privately()).toHaveLength(0);
  });

  it('changes nothing on a tap for a task closed in the CLI since, and says so privately', async () => {
    const closed = await moveTask(harness.home, {
      query: 'task-1',
      to: 'done',
      surface: 'cli',
      env: {},
    });
    expect(E.isRight(closed) && closed.right.state).toBe('closed');
    const before = homeBytes(harness.path);
    await tap(owner, actionIds.taskDrop, 'task-1', '1790000004.000001');
    await harness.delivered(1);
    const told = await harness.fake.waitFor((call) => call.method === 'chat.postEphemeral');
    expect(told.params.text).toBe(
      '“Send the totals” was already done before this tap, so nothing changed.',
    );
    expect(homeBytes(harness.path)).toEqual(before);
    expect(await taskStatus('task-1')).toBe('done');
    expect(await closures()).toMatchObject([{ to: 'done', surface: 'cli' }]);
    expect(updates()).toEqual([]);
  });

  it('refuses a Slack user not mapped to the owner, tells them why, and writes nothing', async () => {
    const before = homeBytes(harness.path);
    await tap(stranger, actionIds.taskDone, 'task-1', '1790000005.000001');
    await harness.delivered(1);
    const told = await harness.fake.waitFor((call) => call.method === 'chat.postEphemeral');
    expect(told.params.user).toBe(stranger);
    expect(String(told.params.text)).toContain('not mapped to the owner (MECHA_SLACK_OWNERS)');
    expect(homeBytes(harness.path)).toEqual(before);
    expect(updates()).toHaveLength(0);
  });
});

describe('Done and Drop, through the one closure path', () => {
  it('stages the follow-up the predicate names and says so on the message', async () => {
    const session = createSessionRecorder(harness.home);
    const run = rightOrThrow(
      await session.startRun({
        surface: 'slack',
        personPresent: true,
        goal: { kind: 'task', id: 'task-1' },
      }),
      'run',
    );
    rightOrThrow(await run.end({ stopCause: 'turn_ceiling' }), 'end');
    await tap(owner, actionIds.taskDone, 'task-1', '1790000009.000001');
    await harness.delivered(1);
    const update = await harness.fake.waitFor((call) => call.method === 'chat.update');
    expect(blocksOf(update)).toMatch(/Staged one follow-up in the inbox: “.*”\./);
    const staged = /follow-up (task-[0-9a-f]+)/.exec(blocksOf(update))?.[1];
    expect(await taskStatus(staged ?? '')).toBe('inbox');
  });

  it('lets hooks/pre_task_close refuse a tap, and then nothing is written', async () => {
    mkdirSync(join(harness.path, 'hooks'));
    writeFileSync(
      join(harness.path, 'hooks', 'pre_task_close'),
      '#!/bin/sh\necho "not on Fridays" >&2\nexit 1\n',
    );
    chmodSync(join(harness.path, 'hooks', 'pre_task_close'), 0o755);
    const before = homeBytes(harness.path);
    await tap(owner, actionIds.taskDone, 'task-1', '1790000010.000001');
    await harness.delivered(1);
    const told = await harness.fake.waitFor((call) => call.method === 'chat.postEphemeral');
    expect(String(told.params.text)).toMatch(
      /^Nothing changed: refused by hooks\/pre_task_close: .*not on Fridays/,
    );
    expect(homeBytes(harness.path)).toEqual(before);
    expect(updates()).toEqual([]);
  });

  it("records a tap as the owner's even when mecha slack was started in a run's shell", async () => {
    const session = createSessionRecorder(harness.home);
    const run = rightOrThrow(
      await session.startRun({ surface: 'task', personPresent: false }),
      'run',
    );
    await harness.running.stop();
    await harness.fake.close();
    await startAgain({
      PATH: process.env.PATH ?? '',
      MECHA_SESSION_ID: session.sessionId,
      MECHA_RUN_ID: run.runId,
    });
    const count = harness.deliveries.length;
    await tap(owner, actionIds.taskDone, 'task-1', '1790000011.000001');
    await harness.delivered(count + 1);
    expect(await closures()).toMatchObject([{ task_id: 'task-1', who: 'owner', surface: 'slack' }]);
  });
});

describe('the signature', () => {
  const body = () =>
    buttonTap({
      user: owner,
      actionId: actionIds.taskDone,
      value: 'task-1',
      actionTs: '1790000006.1',
    });

  it('refuses a bad signature, an old timestamp and a replayed request, the home byte-identical', async () => {
    const before = homeBytes(harness.path);
    const forged = await postSigned(harness.port, 'f'.repeat(32), { body: body() });
    expect(forged).toMatchObject({ status: 401, text: 'refused: bad signature\n' });
    const stale = await postSigned(harness.port, secret, {
      body: body(),
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });
    expect(stale).toMatchObject({ status: 401, text: 'refused: stale\n' });
    const unsigned = await fetch(`http://127.0.0.1:${harness.port}/slack/events`, {
      method: 'POST',
      body: body(),
    });
    expect(unsigned.status).toBe(401);
    expect(homeBytes(harness.path)).toEqual(before);
    expect(await closures()).toEqual([]);
    expect(harness.fake.calls.filter((call) => call.method !== 'auth.test')).toEqual([]);

    // A genuine request, then the very same bytes again: the copy is refused as a replay.
    const timestamp = Math.floor(Date.now() / 1000);
    const genuine = await postSigned(harness.port, secret, { body: body(), timestamp });
    expect(genuine.status).toBe(200);
    await harness.fake.waitFor((call) => call.method === 'chat.update');
    const after = homeBytes(harness.path);
    const replay = await postSigned(harness.port, secret, { body: body(), timestamp });
    expect(replay).toMatchObject({ status: 401, text: 'refused: replayed\n' });
    expect(homeBytes(harness.path)).toEqual(after);
    expect(await closures()).toHaveLength(1);
  });
});

describe('drafts', () => {
  async function stageDraft(): Promise<{ sessionId: string; draftId: string }> {
    const session = createSessionRecorder(harness.home);
    const run = rightOrThrow(await session.startRun({ surface: 'slack' }), 'run');
    const { draftId } = rightOrThrow(
      await session.stageDraft({
        tool: 'mail_send',
        taint: 'clean',
        runId: run.runId,
        text: 'Hi <!here>',
      }),
      'draft',
    );
    rightOrThrow(await run.end({ stopCause: 'completed' }), 'end');
    return { sessionId: session.sessionId, draftId };
  }

  it('posts a staged draft once with Send, Edit and Reject, and records Reject as the owner', async () => {
    await harness.running.watcher.tick();
    const { draftId } = await stageDraft();
    const tick = await harness.running.watcher.tick();
    expect(tick).toMatchObject({ drafts: 1, problems: [] });
    expect((await harness.running.watcher.tick()).drafts).toBe(0);
    const posted = harness.fake.calls.filter((call) => call.method === 'chat.postMessage');
    expect(posted).toHaveLength(1);
    const blocks = JSON.stringify(posted[0]?.params.blocks);
    for (const id of [actionIds.draftSend, actionIds.draftEdit, actionIds.draftReject]) {
      expect(blocks).toContain(id);
    }
    // Reject asks why (optional) in a modal; the rejection is recorded when it is submitted.
    await tap(owner, actionIds.draftReject, draftId, '1790000007.000001');
    const opened = await harness.fake.waitFor((call) => call.method === 'views.open');
    const view = opened.params.view as { callback_id: string; private_metadata: string };
    expect(view.callback_id).toBe('mecha_draft_reject');
    expect(await readDraftVerdict(harness.home, draftId)).toMatchObject({ state: 'pending' });
    await submitView('mecha_draft_reject', view.private_metadata, {
      reason: {
        text: { type: 'plain_text_input', value: 'Wrong recipient: <!channel>\nsecond line' },
      },
    });
    await harness.delivered(2);
    const outbox = await harness.home.outbox.read();
    expect(
      outbox.state === 'unreadable' ? [] : outbox.records.filter((r) => r.type === 'outcome'),
    ).toMatchObject([
      {
        draft_id: draftId,
        outcome: 'rejected',
        sender: 'owner',
        reason: 'Wrong recipient: <!channel>\nsecond line',
      },
    ]);
    const update = await harness.fake.waitFor((call) => call.method === 'chat.update');
    expect(update.params.text).toBe(
      'A draft waiting on you, to go out by mail_send: Rejected: Wrong recipient: &lt;!channel&gt;',
    );
    expect(blocksOf(update)).not.toContain(actionIds.draftSend);
    expect(blocksOf(update)).toContain('Rejected: Wrong recipient: &lt;!channel&gt; · <!date^');
    expect(blocksOf(update)).toContain('Hi <!here>');
  });

  it('records a Reject with no reason as "Rejected by you"', async () => {
    const { draftId } = await stageDraft();
    await tap(owner, actionIds.draftReject, draftId, '1790000007.000009');
    const opened = await harness.fake.waitFor((call) => call.method === 'views.open');
    await submitView(
      'mecha_draft_reject',
      (opened.params.view as { private_metadata: string }).private_metadata,
      { reason: { text: { type: 'plain_text_input', value: null } } },
    );
    await harness.delivered(2);
    const update = await harness.fake.waitFor((call) => call.method === 'chat.update');
    expect(blocksOf(update)).toContain('Rejected by you · <!date^');
    expect(await readDraftVerdict(harness.home, draftId)).toMatchObject({
      state: 'not_sent',
      outcome: 'rejected',
    });
  });

  it('replaces Send with "Sent as written", and answers a second Send privately in words', async () => {
    const { draftId } = await stageDraft();
    await tap(owner, actionIds.draftSend, draftId, '1790000007.000002');
    await harness.delivered(1);
    const update = await harness.fake.waitFor((call) => call.method === 'chat.update');
    expect(blocksOf(update)).toContain('Sent as written · <!date^');
    expect(blocksOf(update)).not.toMatch(/mecha_draft_(send|edit|reject)/);
    const before = homeBytes(harness.path);
    await tap(owner, actionIds.draftReject, draftId, '1790000007.000003');
    await harness.delivered(2);
    const told = await harness.fake.waitFor((call) => call.method === 'chat.postEphemeral');
    expect(told.params).toMatchObject({
      user: owner,
      text: 'This draft was already sent as written, so nothing changed.',
    });
    expect(JSON.stringify(told.params)).not.toContain('sent_unchanged');
    expect(homeBytes(harness.path)).toEqual(before);
    expect(updates()).toHaveLength(1);
  });

  it('opens the draft in a modal on Edit and records send_edited on submit', async () => {
    const { draftId } = await stageDraft();
    await tap(owner, actionIds.draftEdit, draftId, '1790000008.000001');
    const opened = await harness.fake.waitFor((call) => call.method === 'views.open');
    const view = opened.params.view as { private_metadata: string; blocks: unknown[] };
    expect(JSON.stringify(view.blocks)).toContain('Hi <!here>');
    await postSigned(harness.port, secret, {
      body: interaction({
        type: 'view_submission',
        team: { id: 'T0001' },
        user: { id: owner },
        api_app_id: 'A0001',
        trigger_id: 'trigger-view',
        view: {
          id: 'V0001',
          hash: 'h1',
          callback_id: 'mecha_draft_edit',
          private_metadata: view.private_metadata,
          state: {
            values: {
              draft: {
                text: { type: 'plain_text_input', value: 'Hello all,\n<!channel> \u001b[1mFriday' },
              },
            },
          },
        },
      }),
    });
    await harness.delivered(2);
    const outbox = await harness.home.outbox.read();
    expect(
      outbox.state === 'unreadable' ? [] : outbox.records.filter((r) => r.type === 'outcome'),
    ).toMatchObject([{ draft_id: draftId, outcome: 'sent_edited', sender: 'owner' }]);
    // The words that go out are kept, and the harness that sends reads them back.
    const read = await readDraftVerdict(harness.home, draftId);
    expect(read.state === 'send' && read.text).toBe('Hello all,\n<!channel> \u001b[1mFriday');
    const update = await harness.fake.waitFor((call) => call.method === 'chat.update');
    expect(update.params.ts).toBe('1790000000.000001');
    expect(blocksOf(update)).toContain('Sent with your edits · <!date^');
    expect(blocksOf(update)).toContain(JSON.stringify('Hello all,\n<!channel> [1mFriday'));
    expect(blocksOf(update)).not.toContain(actionIds.draftEdit);
  });

  it.each([
    ['an empty edit', ' \n ', 'the edit is empty: type the words to keep'],
    ['the draft as written', 'Hi <!here>', 'the edit is the draft as written: use Send to send'],
  ])('keeps the modal open on %s, saying why, and writes nothing', async (_, value, message) => {
    const { draftId } = await stageDraft();
    await tap(owner, actionIds.draftEdit, draftId, '1790000009.000001');
    const opened = await harness.fake.waitFor((call) => call.method === 'views.open');
    const view = opened.params.view as { private_metadata: string };
    const before = homeBytes(harness.path);
    const submitted = await postSigned(harness.port, secret, {
      body: interaction({
        type: 'view_submission',
        team: { id: 'T0001' },
        user: { id: owner },
        api_app_id: 'A0001',
        trigger_id: 'trigger-view-2',
        view: {
          id: 'V0002',
          hash: 'h2',
          callback_id: 'mecha_draft_edit',
          private_metadata: view.private_metadata,
          state: { values: { draft: { text: { type: 'plain_text_input', value } } } },
        },
      }),
    });
    await harness.delivered(2);
    expect(JSON.parse(submitted.text)).toEqual({
      response_action: 'errors',
      errors: { draft: expect.stringContaining(message) },
    });
    expect(homeBytes(harness.path)).toEqual(before);
    expect((await readDraftVerdict(harness.home, draftId)).state).toBe('pending');
  });
});

describe('a draft longer than Slack’s edit box', () => {
  // Slack's plain-text input holds at most 3,000 characters: an edit box pre-filled with the
  // first 3,000 of a longer draft would send the owner's draft cut short.
  const long = Array.from({ length: 80 }, (_, line) => `Line ${line}: ${'total '.repeat(7)}`)
    .join('\n')
    .concat('\nThe last line, which a truncated box would lose.');

  async function stageLong(text: string): Promise<string> {
    const session = createSessionRecorder(harness.home);
    const { draftId } = rightOrThrow(
      await session.stageDraft({ tool: 'mail_send', taint: 'clean', text }),
      'draft',
    );
    return draftId;
  }

  it('is posted cut, with neither Send nor Edit: it is read and sent whole on the board', async () => {
    expect(long.length).toBeGreaterThan(3000);
    await harness.running.watcher.tick();
    const draftId = await stageLong(long);
    await harness.running.watcher.tick();
    const posted = harness.fake.calls.find((call) => call.method === 'chat.postMessage');
    const blocks = blocksOf(posted);
    expect(blocks).toContain(actionIds.draftReject);
    expect(blocks).not.toContain(actionIds.draftSend);
    expect(blocks).not.toContain(actionIds.draftEdit);
    expect(blocks).toContain(
      `Cut here: the draft is ${long.length.toLocaleString('en')} characters and a Slack message shows 3,000. Read it whole, and send or edit it, on the web board (mecha web, Drafts and questions).`,
    );
    expect(blocks).toContain(draftId);
  });

  it('refuses Send on it (a message posted before), telling the owner privately; nothing is sent', async () => {
    const draftId = await stageLong(long);
    const before = homeBytes(harness.path);
    await tap(owner, actionIds.draftSend, draftId, '1790000010.000002');
    await harness.delivered(1);
    const told = await harness.fake.waitFor((call) => call.method === 'chat.postEphemeral');
    expect(told.params.text).toBe(
      `This draft is ${long.length.toLocaleString('en')} characters and Slack shows 3,000 of it: read it whole on the web board (mecha web, Drafts and questions) and send it there. Nothing was sent.`,
    );
    expect(homeBytes(harness.path)).toEqual(before);
    expect((await readDraftVerdict(harness.home, draftId)).state).toBe('pending');
  });

  it('opens no modal on Edit: says why in Slack, points to the web board, and writes nothing', async () => {
    const draftId = await stageLong(long);
    const before = homeBytes(harness.path);
    await tap(owner, actionIds.draftEdit, draftId, '1790000010.000001');
    await harness.delivered(1);
    const told = await harness.fake.waitFor((call) => call.method === 'chat.postEphemeral');
    expect(told.params.user).toBe(owner);
    expect(told.params.text).toBe(
      `${draftId} is too long to edit in Slack: ${long.length.toLocaleString('en')} characters, and Slack's edit box holds 3,000. Edit it on the web board (mecha web, Drafts and questions), or Send or Reject it here. Nothing changed.`,
    );
    expect(harness.fake.calls.filter((call) => call.method === 'views.open')).toHaveLength(0);
    expect(homeBytes(harness.path)).toEqual(before);
    expect((await readDraftVerdict(harness.home, draftId)).state).toBe('pending');
  });

  it('refuses an edit submitted for it (a box opened before), keeping the draft whole', async () => {
    const draftId = await stageLong(long);
    const before = homeBytes(harness.path);
    const submitted = await postSigned(harness.port, secret, {
      body: interaction({
        type: 'view_submission',
        team: { id: 'T0001' },
        user: { id: owner },
        api_app_id: 'A0001',
        trigger_id: 'trigger-view-long',
        view: {
          id: 'V0003',
          hash: 'h3',
          callback_id: 'mecha_draft_edit',
          private_metadata: JSON.stringify({ draftId, channel: 'C0CHANNEL', ts: '' }),
          state: {
            values: {
              draft: { text: { type: 'plain_text_input', value: `${long.slice(0, 2990)} edited` } },
            },
          },
        },
      }),
    });
    await harness.delivered(1);
    expect(JSON.parse(submitted.text)).toEqual({
      response_action: 'errors',
      errors: { draft: expect.stringContaining(`${draftId} is too long to edit in Slack`) },
    });
    expect(homeBytes(harness.path)).toEqual(before);
    expect((await readDraftVerdict(harness.home, draftId)).state).toBe('pending');
  });

  it('opens a draft of exactly 3,000 characters whole, as the box shows it', async () => {
    const fits = `${'a'.repeat(2990)}\u001b[31m\tbye!`;
    const draftId = await stageLong(fits);
    await tap(owner, actionIds.draftEdit, draftId, '1790000011.000001');
    const opened = await harness.fake.waitFor((call) => call.method === 'views.open');
    const view = opened.params.view as {
      blocks: { element: { initial_value?: string; max_length?: number } }[];
    };
    const shown = `${'a'.repeat(2990)}[31m bye!`;
    expect(view.blocks[0]?.element.initial_value).toBe(shown);
    expect(view.blocks[0]?.element.max_length).toBe(3000);
  });
});

describe('the run-end context line', () => {
  async function recordRun(
    events: (run: Awaited<ReturnType<typeof startRun>>) => Promise<unknown>,
    stopCause: 'completed' | 'turn_ceiling',
    surface = 'slack',
  ) {
    const session = createSessionRecorder(harness.home);
    const run = await startRun(session, surface);
    await events(run);
    rightOrThrow(await run.end({ stopCause }), 'end');
    return { sessionId: session.sessionId, runId: run.runId };
  }
  async function startRun(session: ReturnType<typeof createSessionRecorder>, surface: string) {
    return rightOrThrow(await session.startRun({ surface, personPresent: true }), 'run');
  }

  it('posts the word form, the bare form and nothing for a silent run, each once, across restarts', async () => {
    await harness.running.watcher.tick();
    const word = await recordRun(async () => {}, 'turn_ceiling');
    const bare = await recordRun(async (run) => run.compaction({ turn: 1 }), 'turn_ceiling');
    await recordRun(async () => {}, 'completed');
    await recordRun(async () => {}, 'turn_ceiling', 'tui');
    expect(await harness.running.watcher.tick()).toMatchObject({ posted: 2, silent: 1, failed: 0 });

    const lines = harness.fake.calls
      .filter((call) => call.method === 'chat.postMessage' && call.params.thread_ts)
      .map((call) => call.params.text);
    expect(lines.sort()).toEqual(
      [
        'A run with no goal · appraisal · distress \u22120.5',
        'A run with no goal · appraisal · \u22120.5…',
      ].sort(),
    );
    const ledger = readSlackLedger(harness.path);
    expect(
      E.isRight(ledger) && ledger.right.runs.get(`${word.sessionId}/${word.runId}`)?.state,
    ).toBe('posted');
    expect(
      E.isRight(ledger) && ledger.right.runs.get(`${bare.sessionId}/${bare.runId}`)?.state,
    ).toBe('posted');

    // A restart: a new app on the same home posts nothing again.
    const calls = harness.fake.calls.length;
    await harness.running.stop();
    await harness.fake.close();
    const again = await startAgain();
    expect(await again.watcher.tick()).toMatchObject({ posted: 0, silent: 0 });
    expect(harness.fake.calls.filter((call) => call.method === 'chat.postMessage')).toHaveLength(0);
    expect(calls).toBeGreaterThan(0);
  });

  it("threads a session's later run under the same message, after a look that found nothing new", async () => {
    await harness.running.watcher.tick();
    const session = createSessionRecorder(harness.home);
    const first = rightOrThrow(await session.startRun({ surface: 'slack' }), 'run');
    rightOrThrow(await first.end({ stopCause: 'turn_ceiling' }), 'end');
    expect(await harness.running.watcher.tick()).toMatchObject({ posted: 1 });
    expect(await harness.running.watcher.tick()).toMatchObject({ posted: 0 });
    const second = rightOrThrow(await session.startRun({ surface: 'slack', resumed: true }), 'run');
    await second.intervention({ turn: 1, kind: 'steer' });
    rightOrThrow(await second.end({ stopCause: 'completed' }), 'end');
    expect(await harness.running.watcher.tick()).toMatchObject({ posted: 1 });
    const posts = harness.fake.calls.filter((call) => call.method === 'chat.postMessage');
    expect(posts.map((call) => [call.params.text, call.params.thread_ts])).toEqual([
      ['mecha · A run with no goal', undefined],
      ['A run with no goal · appraisal · distress \u22120.5', '1790000000.000101'],
      ['A run with no goal · appraisal · distress \u22121.0', '1790000000.000101'],
    ]);
  });

  it("names the run's goal by its title and gives the label's reason, the ids in the footer", async () => {
    await harness.running.watcher.tick();
    const session = createSessionRecorder(harness.home);
    const run = rightOrThrow(
      await session.startRun({ surface: 'slack', goal: { kind: 'task', id: 'task-1' } }),
      'run',
    );
    rightOrThrow(await run.end({ stopCause: 'turn_ceiling' }), 'end');
    expect(await harness.running.watcher.tick()).toMatchObject({ posted: 1 });
    const [parent, line] = harness.fake.calls.filter((call) => call.method === 'chat.postMessage');
    expect(parent?.params.text).toBe('mecha · Send the totals');
    expect(line?.params.text).toBe('Send the totals · appraisal · distress \u22120.5');
    const transcript = await harness.home.sessions.transcript(session.sessionId);
    if (transcript.state === 'unreadable') throw new Error(transcript.reason);
    // The reason is explainLabel's sentence, the one the web board shows, never a second wording.
    const reason = explainLabel(appraiseRun(transcript.records)).sentence;
    expect(reason).toMatch(/^Distress because /);
    const blocks = line?.params.blocks as {
      text?: { text: string };
      elements?: { text: string }[];
    }[];
    expect(blocks[0]?.text?.text).toBe(`*Send the totals*\n${reason}`);
    expect(blocks[1]?.elements?.[0]?.text).toBe('appraisal · distress \u22120.5');
    expect(blocks[2]?.elements?.[0]?.text).toBe(`run ${run.runId} · session ${session.sessionId}`);
  });

  it('tries a failed post again once its wait is over', async () => {
    await harness.running.watcher.tick();
    await recordRun(async () => {}, 'turn_ceiling');
    harness.fake.failNext('chat.postMessage', 'ratelimited', 1);
    expect(await harness.running.watcher.tick()).toMatchObject({ posted: 0, failed: 1 });
    expect(await harness.running.watcher.tick()).toMatchObject({ posted: 0, waiting: 1 });
    clockMs += 2_000;
    expect(await harness.running.watcher.tick()).toMatchObject({ posted: 1, failed: 0 });
  });
});

describe('the watcher when Slack keeps failing', () => {
  const ledgerLines = () =>
    readFileSync(join(harness.path, slackLedgerFile), 'utf8').split('\n').filter(Boolean).length;
  /** A minute of looks every 300 ms, the clock moved on by hand before each. */
  async function aMinuteOfLooks(): Promise<void> {
    for (let look = 0; look < 200; look += 1) {
      clockMs += 300;
      await harness.running.watcher.tick();
    }
  }
  async function somethingToPost(): Promise<string> {
    await harness.running.watcher.tick();
    const session = createSessionRecorder(harness.home);
    const run = rightOrThrow(await session.startRun({ surface: 'slack' }), 'run');
    const { draftId } = rightOrThrow(
      await session.stageDraft({ tool: 'mail_send', taint: 'clean', text: 'Totals attached' }),
      'draft',
    );
    rightOrThrow(await run.end({ stopCause: 'turn_ceiling' }), 'end');
    return draftId;
  }
  const channelPosts = () =>
    harness.fake.calls.filter(
      (call) => call.method === 'chat.postMessage' && call.params.channel === 'C0CHANNEL',
    );

  it('backs off per post: a handful of tries each in a minute, and the ledger grows per try only', async () => {
    await somethingToPost();
    harness.fake.answer('chat.postMessage', { ok: false, error: 'internal_error' });
    await aMinuteOfLooks();
    // Two posts (a run's line, a draft), each tried at 0, 2, 6, 14 and 30 s: five tries each.
    const tries = channelPosts().length;
    expect(tries).toBe(10);
    // A claim and its failure per try, and the first look's watch_from: nothing per look.
    expect(ledgerLines()).toBe(1 + 2 * tries);
    expect(harness.logs.filter((line) => line.includes('was not posted'))).toHaveLength(tries);
  });

  it('stops on channel_not_found, says once which variable to fix, and tells the owner by DM', async () => {
    await somethingToPost();
    harness.fake.answer('chat.postMessage', (params) =>
      params.channel === 'C0CHANNEL' ? { ok: false, error: 'channel_not_found' } : undefined,
    );
    const first = await harness.running.watcher.tick();
    expect(first.halted).toMatchObject({
      code: 'channel_not_found',
      variable: 'MECHA_SLACK_CHANNEL',
    });
    const lines = ledgerLines();
    await aMinuteOfLooks();
    expect(channelPosts()).toHaveLength(1);
    expect(ledgerLines()).toBe(lines);
    const said = harness.logs.filter((line) => line.includes('Slack refused to post'));
    expect(said).toEqual([
      'slack: Slack refused to post (channel_not_found): MECHA_SLACK_CHANNEL C0CHANNEL names no channel the bot can see: set it to the channel id (C0…) from the channel details. Nothing more is posted until mecha slack is restarted with it fixed.',
    ]);
    const dm = harness.fake.calls.filter(
      (call) => call.method === 'chat.postMessage' && call.params.channel === owner,
    );
    expect(dm.map((call) => call.params.text)).toEqual([
      said[0]?.replace(/^slack: /, 'mecha slack: '),
    ]);
  });

  it('says a damaged ledger once, not on every look', async () => {
    mkdirSync(join(harness.path, 'slack'), { recursive: true });
    writeFileSync(join(harness.path, slackLedgerFile), '{"v":1,"kind":\n{}\n');
    const lines: string[] = [];
    const looks: (() => Promise<void>)[] = [];
    const watcher = watchHome({
      home: harness.home,
      client: harness.running.app.client,
      channel: 'C0CHANNEL',
      log: (line) => lines.push(line),
      // Each look is run here by hand, in turn: no timer, no waiting.
      schedule: (run) => {
        looks.push(run as () => Promise<void>);
        return { cancel: () => {} };
      },
    });
    watcher.start(300);
    for (let look = 0; look < 5; look += 1) await looks.shift()?.();
    await watcher.stop();
    expect(lines).toEqual([`slack: watcher: ${slackLedgerFile}:1 is not JSON`]);
  });

  it.each([
    ['not_in_channel', 'MECHA_SLACK_CHANNEL'],
    ['invalid_auth', 'SLACK_BOT_TOKEN'],
    ['account_inactive', 'SLACK_BOT_TOKEN'],
  ])('stops on %s after one try, naming %s', async (error, variable) => {
    await somethingToPost();
    harness.fake.answer('chat.postMessage', { ok: false, error });
    await aMinuteOfLooks();
    expect(channelPosts()).toHaveLength(1);
    expect(harness.logs.filter((line) => line.includes(`(${error}): ${variable}`))).toHaveLength(1);
  });
});

async function startAgain(env?: Record<string, string>): Promise<RunningSlackApp> {
  const fake = await startFakeSlackApi();
  const config = slackConfigFromEnv({
    SLACK_SIGNING_SECRET: secret,
    SLACK_BOT_TOKEN: botToken,
    MECHA_SLACK_OWNERS: owner,
    MECHA_SLACK_CHANNEL: 'C0CHANNEL',
    MECHA_SLACK_PORT: '0',
    MECHA_SLACK_API_URL: fake.url,
  });
  if (E.isLeft(config)) throw new Error('config');
  const running = await startSlackApp({
    config: config.right,
    home: openHome(harness.path),
    log: () => {},
    watch: false,
    ...(env === undefined ? {} : { env }),
  });
  harness = { ...harness, fake, running, port: running.port as number };
  track(running, harness.deliveries);
  return running;
}

describe('/mecha charter', () => {
  const slash = async (user: string, text: string) => {
    const answer = await postSigned(harness.port, secret, { body: slashCommand({ user, text }) });
    expect(answer.status).toBe(200);
    return JSON.parse(answer.text) as { text: string; response_type: string };
  };

  it("adds, moves, sets and removes lines, with the CLI's messages for malformed edits", async () => {
    expect(
      (
        await slash(
          owner,
          'charter add replies "Answer what people send me" --sensor outbox_age --setpoint 2d',
        )
      ).text,
    ).toMatch(/^Added line replies\.\n\nYour charter: 1 line/);
    expect((await slash(owner, 'charter add ship Ship the release --rank 1')).text).toContain(
      '1. ship: Ship the release\n2. replies: Answer what people send me (sensor outbox_age · setpoint 2d)',
    );
    expect((await slash(owner, 'charter move replies 1')).text).toContain(
      'Moved line replies to rank 1.',
    );
    expect((await slash(owner, 'charter set ship --setpoint 3h')).text).toContain(
      'Changed line ship.',
    );
    expect((await slash(owner, 'charter rm ship')).text).toContain('Removed line ship.');
    const before = homeBytes(harness.path);
    expect((await slash(owner, 'charter add x y --sensor inbox')).text).toBe(
      '/mecha charter add: --sensor takes outbox_age, question_latency or request_closure, not "inbox" (see /mecha help)',
    );
    expect((await slash(owner, 'charter move replies 0')).text).toBe(
      '/mecha charter move: RANK takes a whole number from 1 to 999,999,999, not "0" (see /mecha help)',
    );
    expect((await slash(owner, 'charter rm nosuch')).text).toMatch(/^\/mecha charter rm: .*nosuch/);
    expect(homeBytes(harness.path)).toEqual(before);
  });

  it('refuses a Slack user not mapped to the owner, writing nothing', async () => {
    const before = homeBytes(harness.path);
    const answer = await slash(stranger, 'charter add replies Answer people');
    expect(answer.text).toContain('not mapped to the owner');
    expect(homeBytes(harness.path)).toEqual(before);
  });

  it('answers /mecha tasks with one private list: grouped, capped, Done and Drop per row', async () => {
    const rows = Array.from({ length: 28 }, (_, index) => ({
      v: 1 as const,
      kind: 'task' as const,
      id: `task-${index + 3}`,
      title: index === 3 ? '<!here> & co' : `Task number ${index + 3}`,
      status: (['next', 'waiting', 'inbox'] as const)[index % 3] ?? 'inbox',
      ...(index === 0 ? { due: '2026-12-05', project_id: 'p-1' } : {}),
    }));
    const board = await harness.home.board.read();
    rightOrThrow(
      await harness.home.board.put([
        ...(board.state === 'unreadable' ? [] : board.records),
        { v: 1, kind: 'project', id: 'p-1', title: 'Year end' },
        ...rows,
      ]),
      'board',
    );
    const answer = await slash(owner, 'tasks');
    await harness.delivered(1);
    // One message, only the owner sees it; nothing is posted to the channel.
    expect(answer.response_type).toBe('ephemeral');
    expect(harness.fake.calls.filter((call) => call.method.startsWith('chat.'))).toEqual([]);
    const blocks = (
      answer as unknown as {
        blocks: {
          type: string;
          text?: { text: string };
          block_id?: string;
          elements?: { text: string }[];
        }[];
      }
    ).blocks;
    expect(blocks.length).toBeLessThanOrEqual(50);
    expect(answer.text).toBe('Your open tasks: 30 (18 more on the board)');
    expect(
      blocks.filter((block) => block.type === 'header').map((block) => block.text?.text),
    ).toEqual(['Next (11)', 'Waiting (1)']);
    const rowIds = blocks.flatMap((block) => (block.type === 'actions' ? [block.block_id] : []));
    expect(rowIds).toHaveLength(12);
    expect(JSON.stringify(blocks)).toContain(
      '*Task number 3*\\nnext · due 2026-12-05 · project “Year end”',
    );
    expect(JSON.stringify(blocks)).toContain('*&lt;!here&gt; &amp; co*');
    expect(blocks.at(-1)?.elements?.[0]?.text).toBe('18 more tasks on the board (mecha web).');

    // Done on a row: the list is shown again through its response_url, what happened on top.
    await postSigned(harness.port, secret, {
      body: buttonTap({
        user: owner,
        actionId: actionIds.taskDone,
        value: 'task-1',
        actionTs: '1790000020.000001',
        ephemeral: true,
        responseUrl: harness.fake.responseUrl('tasks-list'),
      }),
    });
    await harness.delivered(2);
    const replaced = await harness.fake.waitFor((call) => call.method === 'response_url');
    expect(replaced.params).toMatchObject({
      replace_original: true,
      text: 'Your open tasks: 29 (17 more on the board)',
    });
    expect(blocksOf(replaced)).toContain('“Send the totals”: Done by you · <!date^');
    expect(await taskStatus('task-1')).toBe('done');
  });

  it('lists the drafts waiting with /mecha drafts, those staged before the app looked too', async () => {
    const session = createSessionRecorder(harness.home);
    const { draftId } = rightOrThrow(
      await session.stageDraft({
        tool: 'mail_send',
        taint: 'third_party',
        goal: { kind: 'task', id: 'task-1' },
        text: 'Totals attached',
      }),
      'draft',
    );
    // The watcher starts after it was staged: it never posts it to the channel.
    clockMs = Date.now() + 1_000;
    expect(await harness.running.watcher.tick()).toMatchObject({ drafts: 0 });
    const answer = await slash(owner, 'drafts');
    expect(answer).toMatchObject({ response_type: 'ephemeral', text: 'Drafts waiting on you: 1' });
    const listed = JSON.stringify((answer as unknown as { blocks: unknown[] }).blocks);
    expect(listed).toContain('A draft for “Send the totals”, to go out by mail_send');
    expect(listed).toContain('Third-party content');
    expect(listed).toContain(actionIds.draftSend);
    await postSigned(harness.port, secret, {
      body: buttonTap({
        user: owner,
        actionId: actionIds.draftSend,
        value: draftId,
        actionTs: '1790000021.000001',
        ephemeral: true,
        responseUrl: harness.fake.responseUrl('drafts-list'),
      }),
    });
    await harness.delivered(2);
    const replaced = await harness.fake.waitFor((call) => call.method === 'response_url');
    expect(replaced.params.text).toBe('No drafts are waiting on you.');
    expect(blocksOf(replaced)).toContain(
      '“A draft for “Send the totals”, to go out by mail_send”: Sent as written · <!date^',
    );
    expect((await readDraftVerdict(harness.home, draftId)).state).toBe('send');
  });
});
