import { spawnSync } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The built package and @mecha/stores, as a user's program loads them.
const entry = pathToFileURL(fileURLToPath(new URL('../dist/index.js', import.meta.url))).href;
const stores = pathToFileURL(
  fileURLToPath(new URL('../node_modules/@mecha/stores/dist/index.js', import.meta.url)),
).href;

const dir = mkdtempSync(join(tmpdir(), 'mecha-import-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A Claude Code log of about `megabytes` MB: reads whose results are 16 KB each. */
function generateLog(path: string, megabytes: number): number {
  const fd = openSync(path, 'w');
  const payload = 'x'.repeat(16 * 1024);
  let bytes = 0;
  let index = 0;
  const write = (record: unknown) => {
    const line = `${JSON.stringify(record)}\n`;
    bytes += writeSync(fd, line);
  };
  const at = (n: number) => new Date(Date.UTC(2026, 8, 20) + n * 1000).toISOString();
  write({ type: 'user', timestamp: at(0), message: { role: 'user', content: 'Read everything' } });
  while (bytes < megabytes * 1024 * 1024) {
    index += 1;
    write({
      type: 'assistant',
      timestamp: at(index),
      message: {
        id: `msg_${index}`,
        content: [
          {
            type: 'tool_use',
            id: `toolu_${index}`,
            name: 'Read',
            input: { file_path: `/f/${index}` },
          },
        ],
        stop_reason: 'tool_use',
      },
    });
    write({
      type: 'user',
      timestamp: at(index),
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: `toolu_${index}`, content: payload }],
      },
    });
  }
  closeSync(fd);
  return index;
}

/** Runs a script in a Node whose heap is capped: holding the whole log would not fit. */
function runCapped(script: string, heapMegabytes: number) {
  const path = join(dir, `script-${Math.random().toString(16).slice(2)}.mjs`);
  writeFileSync(path, script);
  return spawnSync(process.execPath, [`--max-old-space-size=${heapMegabytes}`, path], {
    encoding: 'utf8',
  });
}

describe('importing a large log', () => {
  it('keeps memory flat: 160 MB imports under a 64 MB heap, which cannot hold the file', {
    timeout: 300_000,
  }, () => {
    const source = join(dir, 'source', '-project');
    mkdirSync(source, { recursive: true });
    const log = join(source, '5b1f3c2a-0000-4000-8000-000000000000.jsonl');
    const calls = generateLog(log, 160);
    const home = join(dir, 'home');

    const imported = runCapped(
      `import { importHistory } from ${JSON.stringify(entry)};
       import { initHome, openHome } from ${JSON.stringify(stores)};
       initHome(${JSON.stringify(home)});
       const result = await importHistory(openHome(${JSON.stringify(home)}), { tool: 'claude-code', source: ${JSON.stringify(join(dir, 'source'))} });
       if (result._tag === 'Left') { console.error(result.left.message); process.exit(1); }
       console.log(JSON.stringify({ events: result.right.events, maxRssKb: process.resourceUsage().maxRSS }));`,
      64,
    );
    expect(imported.stderr).toBe('');
    expect(imported.status).toBe(0);
    const report = JSON.parse(imported.stdout) as { events: number; maxRssKb: number };
    // run_start, the prompt, then a call and a result per read.
    expect(report.events).toBe(2 + 2 * calls);
    console.log();

    // The control: the same heap cannot hold the file read whole, so the cap means something.
    const whole = runCapped(
      `import { readFileSync } from 'node:fs';
       const lines = readFileSync(${JSON.stringify(log)}, 'utf8').split('\\n').map((line) => line && JSON.parse(line));
       console.log(lines.length);`,
      64,
    );
    expect(whole.status).not.toBe(0);
  });
});
