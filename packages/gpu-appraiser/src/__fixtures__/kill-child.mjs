// Run by faults.test.ts as a separate process that is killed with SIGKILL mid-work: it opens
// the appraiser from the built package and runs one source whose second call never finishes.
import { createScriptedModel } from '@mecha/local-model';
import { openAppraiser } from '../../dist/index.js';

const directory = process.argv[2];
const model = createScriptedModel(
  (prompt) =>
    prompt.includes('You read one report about a person and quote it.')
      ? '["Bob fixed the build"]'
      : `{"support":1,"benefit":500000${' '.repeat(4000)}`,
  { msPerToken: 1000 },
);
const appraiser = openAppraiser({ directory, model });
appraiser.setAppraisal('on');
appraiser.retainSource({ text: 'Bob fixed the build.', owner: 'a', scope: 's', subject: 'bob' });
await appraiser.run();
