// Type tests of the main entry: the signatures a harness author relies on (README,
// docs/integrating.md). Checked by the package's typecheck (tsc --noEmit); a wrong type fails it.
import type { AppraisalPorts } from '@mecha/appraisal-core';
import type { Either } from '@mecha/errors';
import { expectTypeOf } from 'vitest';
import {
  type AddedTask,
  type AnsweredQuestion,
  addTask,
  answerParkedQuestion,
  type BeginRunOptions,
  beginRun,
  type CharterCommand,
  charterCommand,
  createSessionRecorder,
  type DraftVerdict,
  decideDraft,
  type EditedCharter,
  editCharter,
  type GuardedTaskTool,
  guardTaskTool,
  type HomeLocation,
  homePorts,
  type MechaHome,
  moveTask,
  type OpenHomeOptions,
  type OwnerActRefusal,
  openHome,
  resolveHome,
  type SessionRecorder,
  type TaskMove,
  type TaskMoveRefusal,
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

// The owner's acts answer `Either<OwnerActRefusal, T>` (an fp-ts Either, read structurally).
expectTypeOf(moveTask).returns.resolves.toExtend<Either<TaskMoveRefusal, TaskMove>>();
expectTypeOf<TaskMoveRefusal>().toExtend<OwnerActRefusal<TaskMoveRefusal['kind']>>();
expectTypeOf(addTask).returns.resolves.toExtend<Either<OwnerActRefusal, AddedTask>>();
expectTypeOf(editCharter).returns.resolves.toExtend<Either<OwnerActRefusal, EditedCharter>>();
expectTypeOf(decideDraft).returns.resolves.toExtend<Either<OwnerActRefusal, DraftVerdict>>();
expectTypeOf(answerParkedQuestion).returns.resolves.toExtend<
  Either<OwnerActRefusal, AnsweredQuestion>
>();
expectTypeOf(charterCommand).returns.toExtend<Either<OwnerActRefusal, CharterCommand>>();
