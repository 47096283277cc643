// Run by model-server.test.ts as another process: loads the tiny random-weight GGUF at GGUF (the
// built package), serves it to the machine with its endpoint file in DIR, prints one JSON line
// ({ serving } or { refused }), and serves until SIGTERM, then prints { stopped }.
import {
  createDeviceScheduler,
  createLocalModel,
  openDeviceLease,
  serveModel,
} from '../../dist/index.js';

const [directory, gguf] = process.argv.slice(2);
const print = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
const model = createLocalModel({ path: gguf, threads: 1, gpu: false, contextSize: 2048 });
const scheduler = createDeviceScheduler(model, { lease: openDeviceLease({ directory }) });
const served = await serveModel({ scheduler, model, modelPath: gguf, directory });
if (served._tag === 'Left') {
  print({ refused: served.left });
  await scheduler.dispose();
  process.exit(0);
}
// Loaded only once serving: a refused second server never loads the model.
await model.load();
print({ serving: served.right.endpoint });
process.once('SIGTERM', async () => {
  await served.right.close();
  await scheduler.dispose();
  print({ stopped: served.right.health() });
  process.exit(0);
});
