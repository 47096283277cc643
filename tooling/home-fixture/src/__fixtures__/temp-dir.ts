import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

const made: string[] = [];

afterEach(() => {
  for (const path of made.splice(0)) rmSync(path, { recursive: true, force: true });
});

// Where memory-backed temporary folders go, when the machine has one: a property test that
// rewrites files a thousand times spends its time in the file system journal otherwise.
const memory = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

/** A fresh folder under the system's temporary folder (or `/dev/shm`), removed after the test. */
export function tempDir(
  prefix = 'mecha-home-fixture-',
  options: { readonly inMemory?: boolean } = {},
): string {
  const path = mkdtempSync(join(options.inMemory ? memory : tmpdir(), prefix));
  made.push(path);
  return path;
}
