import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createScriptedReplayer } from '@mecha/appraisal-core';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../__fixtures__/temp-dir.js';
import { homePorts } from '../home-ports.js';
import { openHome } from '../open-home.js';
import { checkReplayWorkspace, probeReadout } from './probe-readout.js';

describe('checkReplayWorkspace', () => {
  it('refuses the user’s home directory and any directory covering the mecha home', () => {
    const user = tempDir();
    const home = join(user, '.mecha');
    mkdirSync(home);
    const project = join(user, 'project');
    mkdirSync(project);
    expect(checkReplayWorkspace({ workspace: user, homePath: home, userHome: user })).toMatchObject(
      {
        _tag: 'Left',
        left: { kind: 'bad_request', message: expect.stringContaining('your home directory') },
      },
    );
    expect(checkReplayWorkspace({ workspace: home, homePath: home })).toMatchObject({
      _tag: 'Left',
      left: { message: expect.stringContaining('covers the mecha home') },
    });
    expect(checkReplayWorkspace({ workspace: user, homePath: home })).toMatchObject({
      _tag: 'Left',
    });
    expect(checkReplayWorkspace({ workspace: project, homePath: home, userHome: user })).toEqual({
      _tag: 'Right',
      right: project,
    });
  });

  it('refuses a workspace that is not a directory, and a sibling named like the home is fine', () => {
    const user = tempDir();
    const file = join(user, 'file');
    writeFileSync(file, 'x');
    expect(checkReplayWorkspace({ workspace: file, homePath: join(user, '.mecha') })).toMatchObject(
      {
        _tag: 'Left',
        left: { message: expect.stringContaining('not a directory') },
      },
    );
    const sibling = join(user, '.mecha-work');
    mkdirSync(sibling);
    mkdirSync(join(user, '.mecha'));
    expect(
      checkReplayWorkspace({ workspace: sibling, homePath: join(user, '.mecha') }),
    ).toMatchObject({
      _tag: 'Right',
    });
  });
});

describe('probeReadout', () => {
  it('spends nothing when the workspace is refused', async () => {
    const user = tempDir();
    const home = openHome(join(user, '.mecha'));
    mkdirSync(home.path, { recursive: true });
    const replayer = createScriptedReplayer([]);
    const found = await probeReadout(homePorts(home), replayer, {
      now: new Date(),
      maxProbes: 5,
      workspace: user,
      homePath: home.path,
      userHome: user,
    });
    expect(found._tag).toBe('Left');
    expect(replayer.requests).toHaveLength(0);
  });
});
