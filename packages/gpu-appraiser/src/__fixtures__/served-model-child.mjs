// Run by served-model.test.ts as the machine's one server: serves the memory in DIRECTORY
// (background ticks) and the tiny random-weight GGUF to other processes (`serveModel`, endpoint
// file in LEASE_DIR), both through one device scheduler on the machine's lease. To place another
// process's foreground request inside a background appraisal, its first model call waits (on the
// event loop, so requests are still answered) at a gate: it writes `at-gate` in GATE_DIR, then
// waits until it is pre-empted (its signal aborts) and writes `preempted`, or until `go` appears.
// With HOLD, it then stays pre-empted until `go` appears (a test kills it there). Lines: { serving },
// { refused }, { run, request } per run, { stopped }.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createDeviceScheduler,
  createLocalModel,
  openDeviceLease,
  serveModel,
} from '@mecha/local-model';
import { serveAppraiser } from '../../dist/index.js';

const [directory, gguf, leaseDir, gateDir, hold] = process.argv.slice(2);
const print = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
const inner = createLocalModel({ path: gguf, threads: 1, gpu: false, contextSize: 4096 });
let gated = false;
const model = {
  identity: () => inner.identity(),
  countTokens: (text) => inner.countTokens(text),
  contextSize: () => inner.contextSize(),
  embed: (texts) => inner.embed(texts),
  dispose: () => inner.dispose(),
  async complete(request) {
    if (!gated) {
      gated = true;
      writeFileSync(join(gateDir, 'at-gate'), '');
      while (!request.signal?.aborted && !existsSync(join(gateDir, 'go'))) await sleep(5);
      if (request.signal?.aborted) {
        writeFileSync(join(gateDir, 'preempted'), '');
        while (hold && !existsSync(join(gateDir, 'go'))) await sleep(5);
      }
    }
    return inner.complete(request);
  },
};
const device = createDeviceScheduler(model, { lease: openDeviceLease({ directory: leaseDir }) });
const served = await serveModel({ scheduler: device, model, modelPath: gguf, directory: leaseDir });
if (served._tag === 'Left') {
  print({ refused: served.left });
  process.exit(0);
}
const controller = new AbortController();
// `on`, not `once`: node-llama-cpp re-raises a signal it sees no other listener for.
process.on('SIGTERM', () => controller.abort());
const result = await serveAppraiser({
  directory,
  model: device,
  signal: controller.signal,
  pollMs: 10,
  onServing: () => print({ serving: served.right.endpoint }),
  onRun: (report, request) => print({ run: report, request: request ?? null }),
});
await served.right.close();
await device.dispose();
print({ stopped: result, health: served.right.health() });
