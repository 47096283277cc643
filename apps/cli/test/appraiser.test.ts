import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeTinyLlamaGguf } from '@mecha/fixtures';
import { describe, expect, it } from 'vitest';
import { bin, mecha, tempDir } from './helpers.js';

/** Runs `mecha` with `input` on stdin. */
function withStdin(args: readonly string[], input: string) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    input,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root' },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('mecha appraiser', () => {
  it('has help for the group and every command', () => {
    const group = mecha(['appraiser', '--help']);
    expect(group.code).toBe(0);
    for (const name of ['on', 'off', 'status', 'add', 'run', 'retry', 'recall']) {
      expect(group.stdout).toContain(`mecha appraiser ${name}`);
      const help = mecha(['appraiser', name, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`Usage: mecha appraiser ${name}`);
    }
  });

  it('exits 2 on usage errors', () => {
    const home = tempDir();
    expect(mecha(['--home', home, 'appraiser', 'add', '--owner', 'a']).code).toBe(2);
    expect(mecha(['--home', home, 'appraiser', 'retry', 'x']).code).toBe(2);
    expect(
      mecha([
        '--home',
        home,
        'appraiser',
        'recall',
        '--owner',
        'a',
        '--scope',
        's',
        '--query',
        'q',
        '--priority',
        '2000000',
      ]).code,
    ).toBe(2);
  });

  it('keeps on pending until a quiet boundary, retains from stdin and reports it in status', () => {
    const home = tempDir();
    expect(mecha(['--home', home, 'appraiser', 'on']).code).toBe(0);
    const pending = mecha(['--home', home, 'appraiser', 'status', '--json']);
    const before = JSON.parse(pending.stdout);
    expect(before.flags.writes).toBe(false);
    expect(before.pending).toHaveLength(1);
    expect(mecha(['--home', home, 'appraiser', 'status']).stdout).toContain(
      'appraisal control: pending',
    );
    const added = withStdin(
      [
        '--home',
        home,
        'appraiser',
        'add',
        '--owner',
        'alice',
        '--scope',
        'team',
        '--subject',
        'bob',
        '--json',
      ],
      'Bob fixed the login page.',
    );
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toEqual({ sourceId: 1, queueId: 1 });
    const noSubject = withStdin(
      ['--home', home, 'appraiser', 'add', '--owner', 'alice', '--scope', 'team'],
      'A report about nobody.',
    );
    expect(noSubject.stdout).toContain('no queue: no subject');
    const after = JSON.parse(mecha(['--home', home, 'appraiser', 'status', '--json']).stdout);
    expect(after).toMatchObject({
      flags: { writes: true, recall: true, background: false },
      pending: [],
      queue: { pending: 1 },
    });
  });

  it('fails with the model how-to when [model] path is not set', () => {
    const home = tempDir();
    mecha(['--home', home, 'appraiser', 'on']);
    const run = mecha(['--home', home, 'appraiser', 'run']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('[model] path');
  });

  it('appraises with the tiny GGUF under the grammars, then recalls', async () => {
    const home = tempDir();
    await writeTinyLlamaGguf({ path: join(home, 'tiny.gguf'), seed: 3 });
    writeFileSync(join(home, 'config.toml'), '[model]\npath = "tiny.gguf"\n');
    mecha(['--home', home, 'appraiser', 'on']);
    // The tiny GGUF holds 2,048 tokens: 128 pages of 16 (the default 160 would be refused).
    mecha(['--home', home, 'appraiser', 'limits', '--pages', '128']);
    withStdin(
      [
        '--home',
        home,
        'appraiser',
        'add',
        '--owner',
        'alice',
        '--scope',
        'team',
        '--subject',
        'bob',
      ],
      'Bob fixed the build.',
    );
    // One thread: the tiny model is fastest so on a busy machine (see local-model's README).
    const run = mecha(['--home', home, 'appraiser', 'run', '--threads', '1', '--json']);
    const report = JSON.parse(run.stdout);
    // Whatever the random model writes, the grammar-complete answer passes the parser.
    expect(report).toMatchObject({ state: 'done', modelCalls: 2, items: [{ state: 'complete' }] });
    const recall = mecha([
      '--home',
      home,
      'appraiser',
      'recall',
      '--owner',
      'alice',
      '--scope',
      'team',
      '--query',
      'build',
    ]);
    expect(recall.code).toBe(0);
    expect(recall.stdout).toContain('group g1: source=#1 v1 actor="alice" subject="bob"');
    expect(recall.stdout).toContain('historical data');
    expect(recall.stdout).toContain('1 ranked by word overlap;');
    // --embeddings loads [model] path and ranks by its embeddings (the same tiny GGUF).
    const embedded = mecha([
      '--home',
      home,
      'appraiser',
      'recall',
      '--owner',
      'alice',
      '--scope',
      'team',
      '--query',
      'Bob fixed the build.',
      '--embeddings',
      '--threads',
      '1',
      '--json',
    ]);
    expect(embedded.code).toBe(0);
    expect(JSON.parse(embedded.stdout)).toMatchObject({
      state: 'ok',
      similarity: 'embedding',
      ranked: [{ sourceId: 1, score: 1_000_000 }],
    });
    const stray = mecha([
      '--home',
      home,
      'appraiser',
      'recall',
      '--owner',
      'a',
      '--scope',
      'team',
      '--query',
      'x',
      '--threads',
      '1',
    ]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('--threads goes with --embeddings');
    const refused = mecha([
      '--home',
      home,
      'appraiser',
      'recall',
      '--owner',
      'a',
      '--scope',
      'team',
      '--query',
      'x',
      '--revision',
      '9',
    ]);
    expect(refused.code).toBe(1);
  }, 600_000);

  it('refuses a run whose key/value pages the tiny GGUF cannot hold, writing nothing', async () => {
    const home = tempDir();
    await writeTinyLlamaGguf({ path: join(home, 'tiny.gguf'), seed: 3 });
    writeFileSync(join(home, 'config.toml'), '[model]\npath = "tiny.gguf"\n');
    mecha(['--home', home, 'appraiser', 'on', '--background']);
    // 129 pages of 16 tokens: 2,064 tokens, more than the model's 2,048.
    mecha(['--home', home, 'appraiser', 'limits', '--pages', '129']);
    // Nothing pending: the run loads no model, so it is not refused.
    const idle = mecha(['--home', home, 'appraiser', 'run', '--threads', '1']);
    expect(idle.code).toBe(0);
    expect(idle.stdout).toContain('run: done (0 sources, 0 model calls)');
    withStdin(
      [
        '--home',
        home,
        'appraiser',
        'add',
        '--owner',
        'alice',
        '--scope',
        'team',
        '--subject',
        'bob',
      ],
      'Bob fixed the build.',
    );
    const memory = () =>
      ['memory.sqlite', 'journal.jsonl'].map((name) => {
        const file = join(home, 'appraiser', name);
        return existsSync(file) ? readFileSync(file) : undefined;
      });
    const before = memory();
    const message =
      'mecha appraiser run: cannot reserve 129 key/value pages (2064 tokens per sequence): the model holds at most 2048 tokens per sequence (trained context 2048); set at most 128 pages (mecha appraiser limits --pages 128)\n';
    for (const background of [[], ['--background']]) {
      const refused = mecha(['--home', home, 'appraiser', 'run', ...background, '--threads', '1']);
      expect(refused).toMatchObject({ code: 1, stdout: '', stderr: message });
      expect(memory()).toEqual(before);
    }
    const status = JSON.parse(mecha(['--home', home, 'appraiser', 'status', '--json']).stdout);
    expect(status).toMatchObject({ queue: { pending: 1 } });
  }, 600_000);
});
