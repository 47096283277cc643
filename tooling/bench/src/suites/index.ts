import type { ResultTable } from '../measure.js';
import { appraisalSuite } from './appraisal.js';
import { appraiserSuite } from './appraiser.js';
import { cliSuite } from './cli.js';
import { distillSuite } from './distill.js';
import { graphSuite } from './graph.js';
import { graphTeamSuite } from './graph-team.js';
import { hookSuite } from './hook.js';
import { pruneSuite } from './prune.js';
import { recallSuite } from './recall.js';
import { remoteGraphSuite } from './remote-graph.js';
import { storesSuite } from './stores.js';
import { validitySuite } from './validity.js';
import { verdictsSuite } from './verdicts.js';
import { webSuite } from './web.js';
import { webPagesSuite } from './web-pages.js';
import { webPaintSuite } from './web-paint.js';

/** What the command line gave every suite: `--model PATH`, a GGUF for the suites that load one. */
export interface BenchOptions {
  readonly model?: string;
}

/** A benchmark suite: an id to select it by, a title for its docs section, and its run. */
export interface Suite {
  readonly id: string;
  readonly title: string;
  readonly run: (options: BenchOptions) => Promise<readonly ResultTable[]>;
}

/** Every suite `pnpm bench` runs, in order. */
export const suites: readonly Suite[] = [
  appraisalSuite,
  storesSuite,
  cliSuite,
  hookSuite,
  distillSuite,
  graphSuite,
  graphTeamSuite,
  remoteGraphSuite,
  appraiserSuite,
  recallSuite,
  verdictsSuite,
  pruneSuite,
  webSuite,
  validitySuite,
  webPagesSuite,
  webPaintSuite,
];
