import fc from 'fast-check';

// Every property runs at least 1,000 cases unless a developer lowers it for a quick loop.
const runs = Number.parseInt(process.env.MECHA_PROPERTY_RUNS ?? '', 10);
fc.configureGlobal({ numRuns: Number.isFinite(runs) && runs > 0 ? runs : 1000 });
