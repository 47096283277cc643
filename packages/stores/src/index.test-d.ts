// Type tests of the main entry: the signatures a harness author relies on (README,
// docs/integrating.md). Checked by the package's typecheck (tsc --noEmit); a wrong type fails it.
import type { AppraisalPorts } from '@mecha/appraisal-core';
import { expectTypeOf } from 'vitest';
import {
  type BeginRunOptions,
  beginRun,
  createSessionRecorder,
  type GuardedTaskTool,
  guardTaskTool,
  type HomeLocation,
  homePorts,
  type MechaHome,
  type OpenHomeOptions,
  openHome,
  resolveHome,
  type SessionRecorder,
  type TaskTool,
} from './index.js';

expectTypeOf(openHome).parameters.toEqualTypeOf<[path: string, options?: OpenHomeOptions]>();
expectTypeOf(openHome).returns.toEqualTypeOf<MechaHome>();
expectTypeOf(homePorts).parameters.toEqualTypeOf<[home: MechaHome]>();
expectTypeOf(homePorts).returns.toEqualTypeOf<AppraisalPorts>();
expectTypeOf(createSessionRecorder).parameter(0).toEqualTypeOf<MechaHome>();
expectTypeOf(createSessionRecorder).returns.toEqualTypeOf<SessionRecorder>();
expectTypeOf(resolveHome).returns.toEqualTypeOf<HomeLocation>();
expectTypeOf(beginRun).parameters.toEqualTypeOf<[home: MechaHome, options: BeginRunOptions]>();
declare const tool: TaskTool<{ readonly id: string }, string>;
expectTypeOf(guardTaskTool(tool)).toEqualTypeOf<GuardedTaskTool<{ readonly id: string }, string>>();
