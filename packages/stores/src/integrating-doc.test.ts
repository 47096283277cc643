import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rightOrThrow } from '@mecha/errors';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { tempDir } from './__fixtures__/temp-dir.js';
import { initHome } from './init-home.js';
import { openHome } from './open-home.js';

const example = fileURLToPath(new URL('../examples/harness.ts', import.meta.url));
const page = fileURLToPath(new URL('../../../docs/integrating.md', import.meta.url));

describe('docs/integrating.md', () => {
  it('shows the example exactly as it is in examples/harness.ts', () => {
    const text = readFileSync(page, 'utf8');
    expect(text).toContain(
      `<!-- example:harness:start -->\n\`\`\`ts\n${readFileSync(example, 'utf8')}\`\`\`\n<!-- example:harness:end -->`,
    );
  });

  it('runs the example against the built package, and the home reads back', async () => {
    // The example is TypeScript: strip its types as a user's build would, into a folder where
    // `@mecha/stores` is this package (its type-check under --strict is the pack check's).
    const folder = tempDir();
    mkdirSync(join(folder, 'node_modules', '@mecha'), { recursive: true });
    for (const name of ['stores', 'appraisal-core', 'homeostat']) {
      symlinkSync(
        fileURLToPath(new URL(`../../${name}`, import.meta.url)),
        join(folder, 'node_modules', '@mecha', name),
      );
    }
    const script = join(folder, 'harness.mjs');
    writeFileSync(
      script,
      ts.transpileModule(readFileSync(example, 'utf8'), {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      }).outputText,
    );
    const home = join(tempDir(), 'home');
    const run = () =>
      execFileSync(process.execPath, [script], {
        env: { ...process.env, MECHA_HOME: home },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    // A home named by MECHA_HOME that does not exist is an error naming mecha init, and nothing
    // is made there.
    let refused = '';
    try {
      run();
    } catch (error) {
      refused = String((error as { stderr?: unknown }).stderr);
    }
    expect(refused).toContain(`there is no mecha home at ${home}: create one with 'mecha init`);
    expect(existsSync(home)).toBe(false);
    rightOrThrow(initHome(home), 'the home');
    const expected = {
      home,
      transcript: 'read',
      denied: 1,
      briefDelivered: false,
      shellPresence: 'run',
      boredomNotices: 1,
      badge: { text: 'distress \u22120.5', tone: 'amber' },
      runEnded: 'completed',
      taskStatus: 'done',
      graphBoard: {},
    };
    // Examples are safe to run again: a second run against the same home records a second session.
    const earlier = JSON.parse(run()) as Record<string, unknown>;
    expect(earlier).toMatchObject(expected);
    const printed = JSON.parse(run()) as Record<string, unknown>;
    expect(printed).toMatchObject(expected);
    expect(printed.session).not.toBe(earlier.session);
    const opened = openHome(home);
    const outbox = await opened.outbox.read();
    expect(
      outbox.state === 'read' &&
        outbox.records.map((r) => (r.type === 'outcome' ? r.sender : r.type)),
    ).toEqual(['staged', 'owner', 'staged', 'owner']);
    const closures = await opened.closures.read();
    expect(closures.state === 'read' && closures.records.map((r) => r.session_ids)).toEqual([
      [earlier.session],
      [printed.session],
    ]);
  });
});
