import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from './__fixtures__/temp-dir.js';
import { homePorts } from './home-ports.js';
import { openHome } from './open-home.js';

const replies = {
  id: 'replies',
  text: 'Reply to people waiting on me',
  sensor: 'outbox_age' as const,
  setpoint: 48 * 3_600_000,
};
const charter = [replies, { id: 'evenings', text: 'Keep evenings free' }];

describe('the charter file', () => {
  it('writes charter.toml and reads the same lines back, in rank order', async () => {
    const home = openHome(tempDir());
    expect(E.isRight(await home.writeCharter(charter))).toBe(true);
    expect(home.readCharter()).toEqual({ state: 'read', charter });
    expect(await homePorts(home).charter.lines()).toEqual({ state: 'read', records: charter });
  });

  it('reads a charter that does not parse as unreadable, with its issues', () => {
    const path = tempDir();
    writeFileSync(join(path, 'charter.toml'), '[[line]]\nid = "Bad Id"\ntext = "x"\n');
    const read = openHome(path).readCharter();
    expect(read.state).toBe('unreadable');
  });

  it('reads a charter that vanished as unreadable', async () => {
    const path = tempDir();
    const home = openHome(path);
    await home.writeCharter(charter);
    rmSync(join(path, 'charter.toml'));
    expect(home.readCharter().state).toBe('unreadable');
  });

  it('refuses to write a charter that breaks a rule', async () => {
    const home = openHome(tempDir());
    const written = await home.writeCharter([replies, replies]);
    expect(E.isLeft(written)).toBe(true);
  });
});
