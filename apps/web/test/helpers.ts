import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateHome } from '@mecha/fixtures/home';
import { HomeReadout, initHome, openHome, rightOrThrow } from '@mecha/stores';
import { afterAll } from 'vitest';
import { createApp } from '../src/create-app.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A generated home (real files) in a temporary folder, removed after the file's tests. */
export function generatedHome(sessions = 30, seed = 'web'): string {
  const dir = mkdtempSync(join(tmpdir(), 'mecha-web-'));
  made.push(dir);
  const path = join(dir, 'home');
  generateHome({ path, seed, sessions });
  return path;
}

/** An empty initialised home. */
export function emptyHome(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mecha-web-'));
  made.push(dir);
  const path = join(dir, 'home');
  rightOrThrow(initHome(path));
  return path;
}

/** Every file and folder under a folder, to show that nothing was written. */
export { folderSnapshot as snapshot } from '@mecha/vitest-config/folder-snapshot';

export const csrfToken = 'test-csrf-token';
export const origin = 'http://127.0.0.1:4380';

/** The board's app over a home, in process (no socket), with a derived readout. */
export async function boardApp(
  path: string,
  extra: Partial<Parameters<typeof createApp>[0]> = {},
): Promise<{ app: ReturnType<typeof createApp>; readout: HomeReadout }> {
  const home = openHome(path);
  const readout = new HomeReadout(home);
  await readout.start();
  const app = createApp({
    version: '0.0.0-test',
    home,
    readout,
    csrfToken,
    env: {},
    owner: 'tester',
    ...extra,
  });
  return { app, readout };
}

/** A form POST as the page itself sends it (same origin, CSRF token), unless told otherwise. */
export function post(
  app: ReturnType<typeof createApp>,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = { origin },
): Promise<Response> {
  return Promise.resolve(
    app.request(`${origin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    }),
  );
}

/**
 * An act that went through: the answer is a 303 to its page (POST, redirect, GET), and the page
 * the browser then loads, which shows what the act said.
 */
export async function followed(
  app: ReturnType<typeof createApp>,
  acted: Response | Promise<Response>,
): Promise<Response> {
  const response = await acted;
  if (response.status !== 303) {
    throw new Error(`expected 303 after an act, got ${response.status}: ${await response.text()}`);
  }
  const location = response.headers.get('location');
  if (location === null) throw new Error('a 303 without a location');
  return app.request(`${origin}${location}`);
}
