// The pure rule files under mutation: each is a seed rule written as a function of its inputs
// (no IO), so every behaviour it has must be pinned by a test beside it.
export const targets = [
  {
    name: 'charter',
    dir: 'packages/charter',
    files: ['guilt.ts', 'duration.ts', 'charter-sensor.ts'],
    // Tests that read the source as text; left out of the mutation run only (see vitest.config.mjs).
    sourceScans: {
      'src/browser-safe.test.ts':
        'greps the source for Node globals; the instrumented source has them',
    },
  },
  {
    name: 'appraisal-core',
    dir: 'packages/appraisal-core',
    files: [
      'derive-label.ts',
      'contributions.ts',
      'contribution-table.ts',
      'valence.ts',
      'follow-up.ts',
      'reachability.ts',
      'closure-line.ts',
      'format-valence.ts',
    ],
  },
];
