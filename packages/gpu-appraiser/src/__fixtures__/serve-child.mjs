// Run by serve.test.ts as a separate process: it serves the memory in DIRECTORY with the tiny
// random-weight GGUF (from the built package), reserving PAGES key/value pages first, and ticks
// the other memories named after PAGES too, until it gets SIGTERM. It prints one JSON line when it serves ({ serving,
// reservation }) or is refused, one per run it makes ({ run, request, directory }), one per
// memory it cannot open ({ skipped, reason }), and one when it stops ({ result }).
import { createDeviceScheduler, createLocalModel } from '@mecha/local-model';
import { reservedTokens, reserveKvPages, serveAppraiser } from '../../dist/index.js';

const [directory, gguf, pages, ...listed] = process.argv.slice(2);
const others = async () => listed;
const print = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
const inner = createLocalModel({
  path: gguf,
  threads: 1,
  gpu: false,
  contextSize: reservedTokens(Number(pages)),
});
const reserved = await reserveKvPages(inner, Number(pages));
if (reserved._tag === 'Left') {
  print({ refused: reserved.left });
  await inner.dispose();
  process.exit(0);
}
const reservation = reserved.right;
const controller = new AbortController();
process.once('SIGTERM', () => controller.abort());
const device = createDeviceScheduler(inner);
let announced = false;
const result = await serveAppraiser({
  directory,
  model: device,
  signal: controller.signal,
  pollMs: 10,
  others,
  onRun: (report, request, ran) => print({ run: report, request: request ?? null, directory: ran }),
  onSkip: (skipped, reason) => print({ skipped, reason }),
  onServing: () => {
    if (!announced) print({ serving: process.pid, reservation });
    announced = true;
  },
});
if (!announced) print({ serving: null, result });
await device.dispose();
print({ result });
