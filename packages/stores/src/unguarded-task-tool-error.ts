import { errorBrand, errorGuard, MechaError } from '@mecha/errors';

const brand = errorBrand('UnguardedTaskToolError');

/** A model-facing registry holds a task tool that is not guarded: a startup error, not a warning. */
export class UnguardedTaskToolError extends MechaError {
  readonly [brand] = true;
  constructor(readonly toolName: string) {
    super(
      `the task tool "${toolName}" is registered for a model without guardTaskTool(): a model could close a board task`,
    );
    this.name = 'UnguardedTaskToolError';
  }
  static override isInstance = errorGuard<UnguardedTaskToolError>('UnguardedTaskToolError');
}
