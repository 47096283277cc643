// Type tests of the main entry: the signatures a harness author relies on (README, docs/*.md).
// Checked by the package's typecheck (tsc --noEmit); a wrong type fails it.

import type { AppraisalPorts } from '@mecha/appraisal-core';
import { expectTypeOf } from 'vitest';
import {
  type ExportAppraisalsOptions,
  type ExportAppraisalsOutcome,
  exportAppraisals,
} from './index.js';

expectTypeOf(exportAppraisals).parameters.toEqualTypeOf<
  [ports: AppraisalPorts, options: ExportAppraisalsOptions]
>();
expectTypeOf(exportAppraisals).returns.resolves.toEqualTypeOf<ExportAppraisalsOutcome>();
