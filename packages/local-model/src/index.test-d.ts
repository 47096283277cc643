// Type tests of the main entry: the signatures a harness author relies on (README, docs/*.md).
// Checked by the package's typecheck (tsc --noEmit); a wrong type fails it.
import { expectTypeOf } from 'vitest';
import {
  type CompletionModel,
  createDeviceScheduler,
  createLocalModel,
  createScriptedModel,
  type DeviceScheduler,
  type LocalModel,
  type LocalModelOptions,
  type ScriptedModel,
} from './index.js';

expectTypeOf(createLocalModel).parameters.toEqualTypeOf<[options: LocalModelOptions]>();
expectTypeOf(createLocalModel).returns.toEqualTypeOf<LocalModel>();
// Every model, real or scripted, is a CompletionModel that the scheduler and the packages take.
expectTypeOf<LocalModel>().toMatchTypeOf<CompletionModel>();
expectTypeOf<ScriptedModel>().toMatchTypeOf<CompletionModel>();
expectTypeOf(createScriptedModel).returns.toEqualTypeOf<ScriptedModel>();
expectTypeOf(createDeviceScheduler).parameter(0).toEqualTypeOf<CompletionModel>();
expectTypeOf(createDeviceScheduler).returns.toEqualTypeOf<DeviceScheduler>();
