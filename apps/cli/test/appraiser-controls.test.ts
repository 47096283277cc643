import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeTinyLlamaGguf } from '@mecha/fixtures';
import { describe, expect, it } from 'vitest';
import { bin, mecha, tempDir } from './helpers.js';

const json = (args: readonly string[]) => {
  const run = mecha([...args, '--json']);
  return { code: run.code, value: JSON.parse(run.stdout) as Record<string, unknown> };
};

describe('mecha appraiser: the control surface', () => {
  it('has help for every control', () => {
    for (const name of [
      'limits',
      'pause',
      'stop',
      'resume',
      'hold',
      'release',
      'import',
      'lease',
    ]) {
      expect(mecha(['appraiser', '--help']).stdout).toContain(`mecha appraiser ${name}`);
      const help = mecha(['appraiser', name, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`Usage: mecha appraiser ${name}`);
    }
  });

  it('shows the limits with their ranges, refuses bad ones naming each, and records good ones pending', () => {
    const home = tempDir();
    const shown = json(['--home', home, 'appraiser', 'limits']);
    expect(shown.code).toBe(0);
    expect(shown.value).toMatchObject({
      configuration: {
        limits: { pagesPerSequence: 160, outputTokens: 512, ticks: 16384, sourceRows: 64 },
      },
      ranges: { sourceRows: [1, 64], outputTokens: [1, 4096], recallFloor: [0, 1_000_000] },
    });
    expect(mecha(['--home', home, 'appraiser', 'limits']).stdout).toContain(
      '--rows                  64  source rows per run (accepts 1–64)',
    );
    const refused = mecha(['--home', home, 'appraiser', 'limits', '--rows', '65', '--pages', '0']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('appraisal control: refused');
    expect(refused.stdout).toContain('sourceRows must be an integer from 1 to 64, got 65');
    expect(refused.stdout).toContain('pagesPerSequence must be a positive integer, got 0');
    // --json prints a refusal as it always has: its state, the control's id, the problems and
    // the configuration that stands, in that order (not the Either the appraiser answers).
    const refusedJson = json(['--home', home, 'appraiser', 'limits', '--rows', '65']);
    expect(refusedJson.code).toBe(1);
    expect(Object.keys(refusedJson.value)).toEqual(['state', 'id', 'problems', 'configuration']);
    expect(refusedJson.value).toMatchObject({
      state: 'refused',
      problems: [{ field: 'sourceRows' }],
    });
    expect(mecha(['--home', home, 'appraiser', 'limits', '--tokens', 'many']).code).toBe(2);
    const accepted = json([
      '--home',
      home,
      'appraiser',
      'limits',
      '--rows',
      '8',
      '--tokens',
      '4096',
    ]);
    expect(accepted).toMatchObject({
      code: 0,
      value: {
        state: 'pending',
        configuration: { limits: { sourceRows: 8, outputTokens: 4096, pagesPerSequence: 160 } },
      },
    });
    const status = json(['--home', home, 'appraiser', 'status']).value;
    expect(Object.keys(accepted.value)).toEqual(['state', 'id', 'configuration']);
    expect(status.limits).toMatchObject({ sourceRows: 64 });
    expect(status.pending).toEqual([
      expect.objectContaining({ kind: 'limits', value: { sourceRows: 8, outputTokens: 4096 } }),
    ]);
  });

  it('switches one flag with --only, the others kept; a bad flag name is a usage error', () => {
    const home = tempDir();
    const flags = (args: readonly string[]) =>
      (json(['--home', home, 'appraiser', ...args]).value.configuration as { flags: unknown })
        .flags;
    expect(flags(['on'])).toEqual({ writes: true, recall: true, background: false });
    // Writes on, recall defaults off: a state `on` and `off` alone cannot reach.
    expect(flags(['off', '--only', 'recall'])).toEqual({
      writes: true,
      recall: false,
      background: false,
    });
    expect(flags(['on', '--only', 'background'])).toEqual({
      writes: true,
      recall: false,
      background: true,
    });
    expect(flags(['off', '--only', 'writes'])).toEqual({
      writes: false,
      recall: false,
      background: true,
    });
    expect(flags(['on', '--only', 'recall'])).toEqual({
      writes: false,
      recall: true,
      background: true,
    });
    expect(mecha(['--home', home, 'appraiser', 'on', '--only', 'everything']).code).toBe(2);
    expect(
      mecha(['--home', home, 'appraiser', 'off', '--only', 'recall', '--background']).code,
    ).toBe(2);
    // Applied at the next quiet boundary like any control.
    expect(json(['--home', home, 'appraiser', 'status']).value.pending).toHaveLength(5);
  });

  it('pause, stop and resume set the policy; import permits recall only', () => {
    const home = tempDir();
    expect(mecha(['--home', home, 'appraiser', 'pause']).stdout).toContain('policy paused');
    expect(json(['--home', home, 'appraiser', 'stop']).value).toMatchObject({
      state: 'pending',
      configuration: { policy: 'stopped' },
    });
    expect(json(['--home', home, 'appraiser', 'resume']).value).toMatchObject({
      configuration: { policy: 'run' },
    });
    const file = join(home, 'previous.json');
    writeFileSync(
      file,
      JSON.stringify({ flags: { writes: true, recall: true, background: false } }),
    );
    const imported = mecha(['--home', home, 'appraiser', 'import', file]);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('imported (recall only: no new writes or generation)');
    writeFileSync(file, '{"flags": "all"}');
    const bad = mecha(['--home', home, 'appraiser', 'import', file]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('nothing was imported');
    expect(mecha(['--home', home, 'appraiser', 'import']).code).toBe(2);
    writeFileSync(file, '{"flags": 12}');
    expect(mecha(['--home', home, 'appraiser', 'import', file]).stderr).toContain('0 to 7');
  });

  it('hold suspends a running `mecha appraiser run` on the tiny GGUF; a pause given during it cancels on release', async () => {
    const home = tempDir();
    await writeTinyLlamaGguf({ path: join(home, 'tiny.gguf'), seed: 3 });
    writeFileSync(join(home, 'config.toml'), '[model]\npath = "tiny.gguf"\n');
    mecha(['--home', home, 'appraiser', 'on']);
    const add = spawn(
      process.execPath,
      [bin, '--home', home, 'appraiser', 'add', '--owner', 'a', '--scope', 't', '--subject', 'bob'],
      { stdio: ['pipe', 'ignore', 'inherit'] },
    );
    add.stdin.end('Bob fixed the build.');
    await new Promise((resolve) => add.once('exit', resolve));
    expect(json(['--home', home, 'appraiser', 'hold']).value).toEqual({
      held: true,
      waiting: null,
    });
    const worker = spawn(
      process.execPath,
      [bin, '--home', home, 'appraiser', 'run', '--threads', '1', '--json'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    worker.stdout.on('data', (chunk) => {
      out += chunk;
    });
    const exited = new Promise<number | null>((resolve) => worker.once('exit', resolve));
    // Another process watches the store until the worker reports that it waits at the hold.
    let status = json(['--home', home, 'appraiser', 'status']).value;
    while ((status.hold as { waiting: number | null }).waiting !== worker.pid) {
      status = json(['--home', home, 'appraiser', 'status']).value;
    }
    expect(status).toMatchObject({ worker: worker.pid, journal: { recoveryDeferred: true } });
    expect(mecha(['--home', home, 'appraiser', 'status']).stdout).toContain(
      `scheduler hold: on (process ${worker.pid} waits at it)`,
    );
    // A third process pauses during the hold: nothing happens until the ticks resume.
    expect(json(['--home', home, 'appraiser', 'pause']).value).toMatchObject({ state: 'pending' });
    expect(mecha(['--home', home, 'appraiser', 'release']).stdout).toContain('scheduler hold: off');
    expect(await exited).toBe(1);
    expect(JSON.parse(out)).toEqual({
      state: 'cancelled',
      items: [],
      modelCalls: 0,
      // No model server on this machine: the model was this process's own.
      model: { served: false, path: join(home, 'tiny.gguf') },
    });
    // The pause is applied at the next quiet boundary: the next run is not admitted.
    const paused = json(['--home', home, 'appraiser', 'run', '--threads', '1']);
    expect(paused.value).toMatchObject({ state: 'paused', modelCalls: 0 });
    mecha(['--home', home, 'appraiser', 'resume']);
    const done = json(['--home', home, 'appraiser', 'run', '--threads', '1']);
    expect(done.value).toMatchObject({ state: 'done', modelCalls: 2 });
  }, 600_000);

  it('recall takes a participant constraint and shares a lease that reads back exactly', () => {
    const home = tempDir();
    for (const [owner, subject, text] of [
      ['alice', 'bob', 'Bob paid the invoice.'],
      ['carol', 'dan', 'Dan paid the invoice.'],
    ] as const) {
      const added = spawnSync(
        process.execPath,
        [
          bin,
          '--home',
          home,
          'appraiser',
          'add',
          '--owner',
          owner,
          '--scope',
          't',
          '--subject',
          subject,
        ],
        { input: text, encoding: 'utf8' },
      );
      expect(added.status).toBe(0);
    }
    const recall = (extra: readonly string[]) =>
      json([
        '--home',
        home,
        'appraiser',
        'recall',
        '--owner',
        'x',
        '--scope',
        't',
        '--query',
        'invoice',
        ...extra,
      ]).value as { ranked: { sourceId: number }[] };
    expect(recall([]).ranked).toHaveLength(2);
    expect(recall(['--participant', 'bob']).ranked).toEqual([{ sourceId: 1, score: 1_000_000 }]);
    expect(recall(['--participant', 'carol']).ranked).toEqual([{ sourceId: 2, score: 1_000_000 }]);
    const shared = json([
      '--home',
      home,
      'appraiser',
      'recall',
      '--owner',
      'x',
      '--scope',
      't',
      '--query',
      'invoice',
      '--share',
    ]);
    expect(shared.value).toMatchObject({ state: 'ok', leaseId: 1, revision: 4, policy: 4 });
    const shown = mecha(['--home', home, 'appraiser', 'lease', '1']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('shared lease #1: revision 4, rendering policy 4');
    expect(shown.stdout).toContain('source_ref: text: "Bob paid the invoice."');
    expect(json(['--home', home, 'appraiser', 'lease', '1']).value).toEqual(shared.value);
    expect(mecha(['--home', home, 'appraiser', 'lease', '2']).stderr).toContain(
      'no shared lease #2',
    );
    expect(mecha(['--home', home, 'appraiser', 'lease']).code).toBe(2);
    expect(
      mecha([
        '--home',
        home,
        'appraiser',
        'recall',
        '--owner',
        'x',
        '--scope',
        't',
        '--query',
        'q',
        '--share',
        '--revision',
        '3',
      ]).code,
    ).toBe(1);
  });
});
