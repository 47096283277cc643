import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's chromium: Playwright's own browser download is blocked on these machines. */
const chromiumPath = '/usr/bin/chromium';

/** Launches headless chromium for a browser test, or fails saying how to install it. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `the web board's browser tests need Debian's chromium at ${chromiumPath}: run 'apt-get install -y chromium' as root (npm test does it for you when run as root)`,
    );
  }
  return chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'], headless: true });
}

/** Closes the browser and stops a `mecha web` still running (Ctrl-C), waiting for it to go. */
export async function closeBoard(
  browser: Browser | undefined,
  server: ChildProcess | undefined,
  exited: Promise<number | null> | undefined,
): Promise<void> {
  await browser?.close();
  if (server !== undefined && server.exitCode === null) {
    server.kill('SIGINT');
    await exited;
  }
}
