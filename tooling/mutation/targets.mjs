// The pure rule files under mutation: each is a seed rule written as a function of its inputs
// (no IO), so every behaviour it has must be pinned by a test beside it.
export const targets = [
  {
    name: 'charter',
    dir: 'packages/charter',
    files: ['guilt.ts', 'duration.ts', 'charter-sensor.ts'],
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
