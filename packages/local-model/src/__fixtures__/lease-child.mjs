// Run by device-lease.test.ts as another process: takes the device lease in DIR at PRIORITY,
// prints `got <holder json>` once it holds it, and then either gives it back and exits
// (`release`) or keeps it until killed (`keep`).
import { openDeviceLease } from '../../dist/index.js';

const [directory, priority, mode] = process.argv.slice(2);
const lease = openDeviceLease({ directory });
const release = await lease.acquire(priority);
process.stdout.write(`got ${JSON.stringify(lease.holder())}\n`);
if (mode === 'release') release();
else setInterval(() => {}, 1 << 30);
