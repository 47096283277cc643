// Type tests of the main entry: the signatures a harness author relies on (README, docs/*.md).
// Checked by the package's typecheck (tsc --noEmit); a wrong type fails it.

import type { MechaHome } from '@mecha/stores';
import type { Either } from 'fp-ts/Either';
import { expectTypeOf } from 'vitest';
import {
  defaultSourceFolder,
  type HookImport,
  type ImportFailure,
  type ImportOptions,
  type ImportReport,
  type ImportTool,
  importFromCodexNotify,
  importHistory,
} from './index.js';

expectTypeOf(importHistory).parameters.toEqualTypeOf<[home: MechaHome, options: ImportOptions]>();
expectTypeOf(importHistory).returns.resolves.toEqualTypeOf<Either<ImportFailure, ImportReport>>();
expectTypeOf(defaultSourceFolder).parameter(0).toEqualTypeOf<ImportTool>();
expectTypeOf(defaultSourceFolder).returns.toEqualTypeOf<string>();
expectTypeOf(importFromCodexNotify)
  .parameter(2)
  .toEqualTypeOf<{ readonly sessions: string; readonly now?: () => Date }>();
expectTypeOf(importFromCodexNotify).returns.resolves.toEqualTypeOf<HookImport>();
