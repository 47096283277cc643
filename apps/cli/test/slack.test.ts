import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import {
  buttonTap,
  type FakeSlackApi,
  interaction,
  postSigned,
  startFakeSlackApi,
} from '@mecha/slack/testing';
import { createSessionRecorder, openHome, rightOrThrow } from '@mecha/stores';
import { afterEach, describe, expect, it } from 'vitest';
import { bin, mecha, mechaJson, snapshot, tempDir } from './helpers.js';

// Slack's Web API cannot be reached from here: the built `mecha slack` talks to a loopback fake
// that records its calls (MECHA_SLACK_API_URL). The receiver, the home and the CLI are real.

const secret = '0123456789abcdef0123456789abcdef';
const token = 'xoxb-9999-8888-NEVERSHOWTHIS';
const owner = 'UOWNER001';

const settings = (fake: FakeSlackApi): Record<string, string> => ({
  SLACK_SIGNING_SECRET: secret,
  SLACK_BOT_TOKEN: token,
  MECHA_SLACK_OWNERS: owner,
  MECHA_SLACK_CHANNEL: 'C0CHANNEL',
  MECHA_SLACK_PORT: '0',
  MECHA_SLACK_POLL_MS: '100',
  MECHA_SLACK_API_URL: fake.url,
});

let child: ChildProcess | undefined;
let fake: FakeSlackApi | undefined;

afterEach(async () => {
  child?.kill('SIGTERM');
  child = undefined;
  await fake?.close();
  fake = undefined;
});

/** Starts the built `mecha slack` and resolves with its port once it says it is listening. */
function startSlack(
  home: string,
  env: Record<string, string>,
): Promise<{ port: number; output: () => string }> {
  const started = spawn(process.execPath, [bin, 'slack', '--home', home], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', ...env },
  });
  child = started;
  let output = '';
  return new Promise((resolve, reject) => {
    const look = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const port = /listening on http:\/\/127\.0\.0\.1:(\d+)\/slack\/events/.exec(output)?.[1];
      if (port !== undefined) resolve({ port: Number(port), output: () => output });
    };
    started.stdout.on('data', look);
    started.stderr.on('data', look);
    started.on('exit', (code) => reject(new Error(`mecha slack exited (${code}): ${output}`)));
  });
}

/** Runs the built `mecha slack` to its end, for what it prints and its exit code. */
function runSlack(
  args: readonly string[],
  env: Record<string, string>,
  onStart?: (child: ChildProcess) => void,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const started = spawn(process.execPath, [bin, 'slack', ...args], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', ...env },
  });
  child = started;
  let stdout = '';
  let stderr = '';
  started.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  started.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  onStart?.(started);
  return new Promise((resolve) =>
    started.on('exit', (code) => {
      child = undefined;
      resolve({ code, stdout, stderr });
    }),
  );
}

describe('mecha slack: --check and start-up', () => {
  it('--check asks Slack: the token accepted and the bot in the channel, or which variable to fix', async () => {
    const home = join(tempDir(), 'home');
    expect(mecha(['init', '--home', home]).code).toBe(0);
    fake = await startFakeSlackApi();
    const good = await runSlack(['--check', '--home', home], settings(fake));
    expect(good.code).toBe(0);
    expect(good.stdout).toContain('mecha slack: SLACK_BOT_TOKEN is accepted: the bot mecha.\n');
    expect(good.stdout).toContain(
      'mecha slack: MECHA_SLACK_CHANNEL C0CHANNEL (#mecha): the bot is in it.\n',
    );
    expect(fake.calls.map((call) => call.method)).toEqual(['auth.test', 'conversations.info']);
    fake.answer('conversations.info', { ok: true, channel: { id: 'C0CHANNEL', is_member: false } });
    const outside = await runSlack(['--check', '--home', home], settings(fake));
    expect(outside.code).toBe(1);
    expect(outside.stderr).toContain(
      'mecha slack: MECHA_SLACK_CHANNEL C0CHANNEL is a channel the bot is not in: invite it there (/invite @mecha).',
    );
    fake.failNext('auth.test', 'invalid_auth');
    const refused = await runSlack(['--check', '--home', home], settings(fake));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('mecha slack: SLACK_BOT_TOKEN is not accepted by Slack');
    expect(`${refused.stdout}${refused.stderr}`).not.toContain('NEVERSHOWTHIS');
  });

  it('says it stopped when Ctrl-C comes during start-up', async () => {
    const home = join(tempDir(), 'home');
    expect(mecha(['init', '--home', home]).code).toBe(0);
    fake = await startFakeSlackApi();
    const release = fake.hold('auth.test');
    const ended = runSlack(['--home', home], settings(fake), (started) => {
      void (fake as FakeSlackApi)
        .waitFor((call) => call.method === 'auth.test')
        .then(() => started.kill('SIGINT'));
    });
    const { code, stdout } = await ended;
    release();
    expect(code).toBe(0);
    expect(stdout).toBe('mecha slack: stopped during start-up; nothing was started.\n');
  });
});

describe('mecha doctor and the Slack ledger', () => {
  it('reports a damaged slack/posted.jsonl and exits 1; a whole one reads as counts', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const home = join(tempDir(), 'home');
    expect(mecha(['init', '--home', home]).code).toBe(0);
    mkdirSync(join(home, 'slack'));
    const entry = (state: string) =>
      `${JSON.stringify({ v: 1, kind: 'draft', at: '2026-12-03T10:00:00.000Z', draft_id: 'draft-1', state })}\n`;
    writeFileSync(join(home, 'slack/posted.jsonl'), entry('posting') + entry('posted'));
    const whole = mecha(['doctor', '--home', home]);
    expect(whole.code).toBe(0);
    expect(whole.stdout).toContain(
      '  slack       slack/posted.jsonl (0 run line(s), 1 draft(s) posted)\n',
    );
    writeFileSync(
      join(home, 'slack/posted.jsonl'),
      `${entry('posting')}{"v":1,"kind":\n${entry('posted')}`,
    );
    const damaged = mecha(['doctor', '--home', home]);
    expect(damaged.code).toBe(1);
    expect(damaged.stdout).toContain('  damaged     slack/posted.jsonl:2 is not JSON\n');
    expect(damaged.stdout).not.toContain('Every store reads whole.');
    const json = mechaJson<{ slack: { state: string; reason: string } }>([
      'doctor',
      '--home',
      home,
      '--json',
    ]);
    expect(json.json.slack).toEqual({
      state: 'damaged',
      reason: 'slack/posted.jsonl:2 is not JSON',
    });
  });
});

describe('mecha slack', () => {
  it('names every missing or malformed setting and starts nothing, never printing a token', () => {
    const home = join(tempDir(), 'home');
    expect(mecha(['init', '--home', home]).code).toBe(0);
    const missing = mecha(['slack', '--home', home]);
    expect(missing.code).toBe(1);
    for (const variable of [
      'SLACK_SIGNING_SECRET',
      'SLACK_BOT_TOKEN',
      'MECHA_SLACK_OWNERS',
      'MECHA_SLACK_CHANNEL',
    ]) {
      expect(missing.stderr).toContain(`mecha slack: ${variable} is not set`);
    }
    const malformed = mecha(['slack', '--home', home], {
      SLACK_SIGNING_SECRET: secret,
      SLACK_BOT_TOKEN: 'xoxp-user-token-SHOULDNOTSHOW',
      MECHA_SLACK_OWNERS: 'U0OWNER1',
      MECHA_SLACK_CHANNEL: 'C0CHANNEL',
      MECHA_SLACK_PORT: 'eighty',
    });
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain(
      'mecha slack: SLACK_BOT_TOKEN is not a bot token (one starts with xoxb-)',
    );
    expect(malformed.stderr).toContain(
      'mecha slack: MECHA_SLACK_PORT takes a whole number from 0 to 65535, not "eighty"',
    );
    expect(malformed.stderr).not.toContain('SHOULDNOTSHOW');
  });

  it('posts a staged draft; a Reject tapped in Slack reads as -1.0 owner in mecha sessions appraise', async () => {
    const home = join(tempDir(), 'home');
    expect(mecha(['init', '--home', home]).code).toBe(0);
    fake = await startFakeSlackApi();
    const { port, output } = await startSlack(home, settings(fake));
    // The watcher's first look marks where it starts; only drafts staged after it are posted.
    const { existsSync } = await import('node:fs');
    await new Promise<void>((resolve) => {
      const wait = () =>
        existsSync(join(home, 'slack/posted.jsonl')) ? resolve() : setTimeout(wait, 20);
      wait();
    });

    const store = openHome(home);
    const session = createSessionRecorder(store);
    const run = rightOrThrow(
      await session.startRun({ surface: 'slack', personPresent: true }),
      'run',
    );
    const { draftId } = rightOrThrow(
      await session.stageDraft({
        tool: 'mail_send',
        taint: 'clean',
        runId: run.runId,
        text: 'Totals attached',
      }),
      'draft',
    );
    rightOrThrow(await run.end({ stopCause: 'completed' }), 'end');

    const posted = await fake.waitFor(
      (call) =>
        call.method === 'chat.postMessage' &&
        JSON.stringify(call.params.blocks ?? '').includes(draftId),
    );
    expect(posted.authorization).toBe(`Bearer ${token}`);
    const tapped = await postSigned(port, secret, {
      body: buttonTap({
        user: owner,
        actionId: 'mecha_draft_reject',
        value: draftId,
        actionTs: '1790000100.000001',
      }),
    });
    expect(tapped.status).toBe(200);
    // Reject asks why, optionally; the rejection is recorded when the modal is submitted.
    const opened = await fake.waitFor((call) => call.method === 'views.open');
    const submitted = await postSigned(port, secret, {
      body: interaction({
        type: 'view_submission',
        team: { id: 'T0001' },
        user: { id: owner },
        api_app_id: 'A0001',
        trigger_id: 'trigger-reject',
        view: {
          id: 'V0REJECT',
          hash: 'h',
          callback_id: 'mecha_draft_reject',
          private_metadata: (opened.params.view as { private_metadata: string }).private_metadata,
          state: { values: { reason: { text: { type: 'plain_text_input', value: null } } } },
        },
      }),
    });
    expect(submitted.status).toBe(200);
    // The draft's message is replaced: its buttons give way to what happened.
    const replaced = await fake.waitFor((call) => call.method === 'chat.update');
    expect(replaced.params.ts).toBe('1790000000.000001');
    expect(JSON.stringify(replaced.params.blocks)).toContain('Rejected by you · <!date^');

    const { run: appraised, json } = mechaJson<{
      label: string;
      errors: {
        sign: number;
        agency: string;
        channel: string;
        cite: { kind: string; draft_id?: string };
      }[];
    }>(['--home', home, 'sessions', 'appraise', session.sessionId, '--json']);
    expect(appraised.code).toBe(0);
    expect(json.label).toBe('distress');
    expect(json.errors).toMatchObject([{ sign: -1, agency: 'owner', cite: { kind: 'draft' } }]);
    const text = mecha(['--home', home, 'sessions', 'appraise', session.sessionId]);
    expect(text.stdout).toContain('\u22121.0');
    expect(output()).not.toContain('NEVERSHOWTHIS');

    // A task closed in the terminal since its message was posted: a Drop tap changes nothing.
    const added = mechaJson<{ id: string }>([
      '--home',
      home,
      'tasks',
      'add',
      'Send',
      'totals',
      '--json',
    ]);
    expect(added.run.code).toBe(0);
    expect(mecha(['--home', home, 'tasks', 'set', added.json.id, '--status', 'done']).code).toBe(0);
    const before = snapshot(home);
    await postSigned(port, secret, {
      body: buttonTap({
        user: owner,
        actionId: 'mecha_task_drop',
        value: added.json.id,
        actionTs: '1790000100.000002',
      }),
    });
    const stale = await fake.waitFor((call) => call.method === 'chat.postEphemeral');
    expect(stale.params).toMatchObject({
      user: owner,
      text: '“Send totals” was already done before this tap, so nothing changed.',
    });
    expect(snapshot(home)).toEqual(before);
    expect(
      mechaJson<{ tasks: { status: string }[] }>([
        '--home',
        home,
        'tasks',
        'list',
        '--all',
        '--json',
      ]).json,
    ).toMatchObject({
      tasks: [{ status: 'done' }],
    });

    const running = child as ChildProcess;
    const exited = new Promise<number | null>((resolve) => running.on('exit', resolve));
    running.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output()).toContain('mecha slack: stopped.');
    child = undefined;
  });
});
