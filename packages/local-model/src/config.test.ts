import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MechaError } from '@mecha/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveModelPath } from './config.js';
import { ModelConfigError } from './model-config-error.js';

let home: string;
let configFile: string;
let model: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'mecha-home-'));
  configFile = join(home, '.mecha', 'config.toml');
  await mkdir(join(home, '.mecha', 'models'), { recursive: true });
  await mkdir(join(home, 'models'), { recursive: true });
  model = join(home, 'models', 'm.gguf');
  await writeFile(model, 'GGUF');
  await writeFile(join(home, '.mecha', 'models', 'local.gguf'), 'GGUF');
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

async function failure(table: unknown) {
  const result = await resolveModelPath(table, { homeDir: home, configFile });
  if (result.state === 'read') throw new Error(`expected a failure, got ${result.value}`);
  return result.error;
}

describe('resolveModelPath', () => {
  it('accepts an absolute path to an existing file', async () => {
    expect(await resolveModelPath({ path: model }, { homeDir: home, configFile })).toEqual({
      state: 'read',
      value: model,
    });
  });

  it('expands ~ to the home folder', async () => {
    const result = await resolveModelPath(
      { path: '~/models/m.gguf' },
      { homeDir: home, configFile },
    );
    expect(result).toEqual({ state: 'read', value: model });
  });

  it('resolves a relative path against the config file folder', async () => {
    const result = await resolveModelPath(
      { path: 'models/local.gguf' },
      { homeDir: home, configFile },
    );
    expect(result).toEqual({ state: 'read', value: join(home, '.mecha', 'models', 'local.gguf') });
  });

  it.each([
    ['no [model] table', undefined],
    ['a [model] table without path', { threads: 2 }],
  ])('names the key and the file when there is %s', async (_, table) => {
    const error = await failure(table);
    expect(ModelConfigError.isInstance(error)).toBe(true);
    expect(MechaError.isInstance(error)).toBe(true);
    expect(error.problem).toBe('missing');
    expect(error.key).toBe('[model] path');
    expect(error.configFile).toBe('~/.mecha/config.toml');
    expect(error.message).toContain('[model] path in ~/.mecha/config.toml');
    expect(error.message).toContain('path = "~/models/your-model.gguf"');
  });

  it.each([
    ['a number', { path: 3 }],
    ['an empty string', { path: '  ' }],
    ['a table that is not one', 'model.gguf'],
  ])('refuses %s as the path', async (_, table) => {
    const error = await failure(table);
    expect(error.problem).toBe('invalid');
    expect(error.message).toContain(
      '[model] path in ~/.mecha/config.toml must be a non-empty string',
    );
  });

  it('names the key and the resolved path when the file does not exist', async () => {
    const error = await failure({ path: '~/models/absent.gguf' });
    expect(error.problem).toBe('not_found');
    expect(error.path).toBe(join(home, 'models', 'absent.gguf'));
    expect(error.message).toContain(join(home, 'models', 'absent.gguf'));
    expect(error.message).toContain('[model] path in ~/.mecha/config.toml does not exist');
    expect(error.cause).toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a folder', async () => {
    const error = await failure({ path: '~/models' });
    expect(error.problem).toBe('not_a_file');
    expect(error.message).toContain('is not a file');
  });

  it('shows a config file outside the home folder as it is', async () => {
    const result = await resolveModelPath(undefined, {
      homeDir: home,
      configFile: '/etc/mecha/config.toml',
    });
    expect(result.state).toBe('unreadable');
    if (result.state === 'unreadable')
      expect(result.error.message).toContain('[model] path in /etc/mecha/config.toml');
  });
});
