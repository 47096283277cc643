import { createHash } from 'node:crypto';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { modelIdentity } from './model-identity.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mecha-model-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('modelIdentity', () => {
  it('is the sha256 of the file bytes', async () => {
    const bytes = Buffer.from('GGUF fake weights for the identity test');
    const path = join(dir, 'm.gguf');
    await writeFile(path, bytes);
    expect(await modelIdentity(path)).toMatchObject({ sha256: sha256(bytes), bytes: bytes.length });
  });

  it('hashes again when the file is replaced', async () => {
    const path = join(dir, 'm.gguf');
    await writeFile(path, 'first');
    const first = await modelIdentity(path);
    await writeFile(path, 'second model');
    await utimes(path, new Date(), new Date(Date.now() + 5_000));
    const second = await modelIdentity(path);
    expect(second.sha256).toBe(sha256(Buffer.from('second model')));
    expect(second.sha256).not.toBe(first.sha256);
  });

  it('rejects with the fs error when the file is missing', async () => {
    await expect(modelIdentity(join(dir, 'absent.gguf'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
