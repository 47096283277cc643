// Run by cross-process.test.ts as a separate process: it appraises one report with the tiny
// random-weight GGUF (from the built package) and, to place another process's act at an exact
// token, stops the whole process at token GATE_TOKEN of call GATE_CALL (a synchronous wait, so
// not one more token is decoded) until the file `go` appears in GATE_DIR. It prints the run's
// report and every call's stop reason and token count as one JSON line. With LEASE_DIR it runs as
// background work on a device scheduler holding the machine's device lease there.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDeviceScheduler, createLocalModel, openDeviceLease } from '@mecha/local-model';
import { openAppraiser } from '../../dist/index.js';

const [directory, gguf, gateDir, gateCall, gateToken, leaseDir] = process.argv.slice(2);
const inner = createLocalModel({ path: gguf, threads: 1, gpu: false, contextSize: 4096 });
const calls = [];
const pause = new Int32Array(new SharedArrayBuffer(4));
const model = {
  identity: () => inner.identity(),
  dispose: () => inner.dispose(),
  async complete(request) {
    const index = calls.length + 1;
    const result = await inner.complete({
      ...request,
      onToken: (emitted) => {
        if (index === Number(gateCall) && emitted === Number(gateToken)) {
          writeFileSync(join(gateDir, 'at-gate'), String(emitted));
          while (!existsSync(join(gateDir, 'go'))) Atomics.wait(pause, 0, 0, 5);
        }
        request.onToken?.(emitted);
      },
    });
    calls.push({ stopReason: result.stopReason, completion: result.tokens.completion });
    return result;
  },
};
const appraiser = openAppraiser({
  directory,
  model: leaseDir
    ? createDeviceScheduler(model, { lease: openDeviceLease({ directory: leaseDir }) })
    : model,
});
const report = await appraiser.run({ background: leaseDir !== undefined });
appraiser.close();
await inner.dispose();
process.stdout.write(`${JSON.stringify({ report, calls })}\n`);
