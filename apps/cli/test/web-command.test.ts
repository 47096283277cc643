import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin, mecha, tempDir } from './helpers.js';

describe('mecha web, before and around the browser', () => {
  it('refuses a bad port or host as usage, and a missing home as a failure', () => {
    const home = join(tempDir(), 'home');
    expect(mecha(['init', '--home', home]).code).toBe(0);
    const port = mecha(['web', '--home', home, '--port', '70000']);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('--port takes a whole number from 0 to 65,535');
    const host = mecha(['web', '--home', home, '--host', 'a host']);
    expect(host.code).toBe(2);
    const missing = mecha(['web', '--home', join(tempDir(), 'nowhere')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('there is no mecha home');
  });

  it('off loopback, prints a generated token once and refuses requests without it', async () => {
    const home = join(tempDir(), 'home');
    expect(mecha(['init', '--home', home]).code).toBe(0);
    const child = spawn(
      process.execPath,
      [bin, 'web', '--home', home, '--host', '0.0.0.0', '--port', '0'],
      {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      let stdout = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          const found = /serving (\S+) /.exec(stdout);
          if (found && stdout.includes('shown once')) resolve(found[1] as string);
        });
        void exited.then((code) => reject(new Error(`exited ${code}: ${stdout}`)));
      });
      const token = new URL(url).searchParams.get('token') as string;
      expect(token.length).toBeGreaterThanOrEqual(24);
      const origin = new URL(url).origin;
      expect((await fetch(`${origin}/`)).status).toBe(401);
      expect(
        (await fetch(`${origin}/`, { headers: { authorization: 'Bearer nope' } })).status,
      ).toBe(401);
      expect(
        (await fetch(`${origin}/`, { headers: { authorization: `Bearer ${token}` } })).status,
      ).toBe(200);
      const link = await fetch(url, { redirect: 'manual' });
      expect(link.status).toBe(303);
      expect(link.headers.get('set-cookie')).toContain('HttpOnly');
    } finally {
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    }
  });
});
