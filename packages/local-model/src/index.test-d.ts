// Type tests of the main entry: the signatures a harness author relies on (README, docs/*.md).
// Checked by the package's typecheck (tsc --noEmit); a wrong type fails it.
import type { Either, Refusal } from '@mecha/errors';
import { expectTypeOf } from 'vitest';
import {
  type CompletionModel,
  type CompletionRequest,
  connectModelServer,
  createDeviceScheduler,
  createLocalModel,
  createScriptedModel,
  type DeviceScheduler,
  type LocalModel,
  type LocalModelOptions,
  type ModelServeRefusal,
  type ModelServer,
  type ScriptedModel,
  type ServedModel,
  serveModel,
} from './index.js';

expectTypeOf(createLocalModel).parameters.toEqualTypeOf<[options: LocalModelOptions]>();
expectTypeOf(createLocalModel).returns.toEqualTypeOf<LocalModel>();
// Every model, real or scripted, is a CompletionModel that the scheduler and the packages take.
expectTypeOf<LocalModel>().toMatchTypeOf<CompletionModel>();
expectTypeOf<ScriptedModel>().toMatchTypeOf<CompletionModel>();
expectTypeOf(createScriptedModel).returns.toEqualTypeOf<ScriptedModel>();
expectTypeOf(createDeviceScheduler).parameter(0).toEqualTypeOf<CompletionModel>();
expectTypeOf(createDeviceScheduler).returns.toEqualTypeOf<DeviceScheduler>();
// The served model is a scheduler like a local one: callers take either.
expectTypeOf<ServedModel>().toMatchTypeOf<DeviceScheduler>();
expectTypeOf(connectModelServer).returns.toEqualTypeOf<
  Promise<Either<Refusal<'unreachable'>, ServedModel>>
>();
expectTypeOf(serveModel).returns.toEqualTypeOf<Promise<Either<ModelServeRefusal, ModelServer>>>();
// The generated text streams to the caller, piece by piece.
expectTypeOf<CompletionRequest['onText']>().toEqualTypeOf<((text: string) => void) | undefined>();
