// A writer in its own process, for the concurrency and crash tests. It runs the built package,
// exactly as a harness would (bundled into a startup snapshot so that a process starts fast).
//   append <home> <tag> <count>               appends <count> requests one at a time
//   ledger <home> <tag> <pushes> <sessions>   read-then-mark on each session, logging each push
//   crash <home> <tag>       says "ready", appends batches of 40 requests until killed, and
//                            says "wrote" after the first
//   crash-big <home> <tag>   appends one draft with a 1 MB text at a time, forever: a write that
//                            long is where a kill can land mid-write and tear the last line
//   crash-multibyte <home> <tag>  the same with a text of "€" (three bytes each)
import { appendFileSync } from 'node:fs';
import { openHome, withDistillLedger } from '../../dist/index.js';

const at = '2026-09-25T09:00:00.000Z';
const request = (id) => ({ v: 1, type: 'received', at, request_id: id });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function fail(reason) {
  process.stderr.write(`${JSON.stringify(reason)}\n`);
  process.exit(1);
}

async function check(result) {
  const settled = await result;
  if (settled._tag === 'Left') fail(settled.left);
  return settled.right;
}

// A writer must never outlive its test: it stops when its parent goes (stdin closes, or it is
// handed to another parent), and the looping modes stop after 15 minutes whatever happens (the
// tests' own hang guard). Not sooner: on a loaded machine a writer can wait a minute for the lock
// before its kill, and one that stopped by itself would not be the kill the test times.
function stayTethered() {
  const parent = process.ppid;
  process.stdin.on('close', () => process.exit(0));
  process.stdin.resume();
  const started = Date.now();
  return () => {
    if (process.ppid !== parent || Date.now() - started > 900_000) process.exit(0);
  };
}

/** Runs one mode with its arguments. */
export async function main([mode, path, tag, ...rest]) {
  const tethered = stayTethered();
  const home = openHome(path, { lockTimeoutMs: 60_000 });
  switch (mode) {
    case 'append': {
      for (let seq = 0; seq < Number(rest[0]); seq += 1) {
        tethered();
        await check(home.requests.append([request(`${tag}-${seq}`)]));
      }
      process.exit(0);
      return;
    }
    case 'ledger': {
      // Every process walks the same sessions in the same order, so they contend for each one;
      // a push takes a moment, as a real one does.
      const [pushes, sessions] = rest;
      for (let index = 0; index < Number(sessions); index += 1) {
        tethered();
        const sessionId = `s-${index}`;
        await check(
          withDistillLedger(home, async (ledger) => {
            if (ledger.isDistilled(sessionId) !== false) return;
            await sleep(1);
            appendFileSync(pushes, `${sessionId} ${tag}\n`);
            await check(ledger.mark(sessionId, 'pushed'));
          }),
        );
      }
      process.exit(0);
      return;
    }
    case 'crash': {
      // "ready" at once, "wrote" after the first append: a kill may land anywhere, waiting for
      // the lock included.
      process.stdout.write('ready\n');
      let seq = 0;
      for (let batch = 0; ; batch += 1) {
        tethered();
        await check(
          home.requests.append(Array.from({ length: 40 }, () => request(`${tag}-${seq++}`))),
        );
        if (batch === 0) process.stdout.write('wrote\n');
        // A breath between batches, as a real writer has: other writers get the lock too.
        await sleep(2);
      }
    }
    case 'crash-big':
    case 'crash-multibyte': {
      // Three-byte characters in the multibyte mode: most kills mid-write land inside one.
      const text = mode === 'crash-big' ? 'x'.repeat(1_000_000) : '€'.repeat(333_333);
      for (let seq = 0; ; seq += 1) {
        tethered();
        const draft = {
          v: 1,
          type: 'staged',
          at,
          draft_id: `${tag}-${seq}`,
          session_id: 's-1',
          tool: 'mail_send',
          taint: 'clean',
          text,
        };
        await check(home.outbox.append([draft]));
        if (seq === 0) process.stdout.write('wrote\n');
      }
    }
    default:
      fail(`unknown mode ${mode}`);
  }
}
