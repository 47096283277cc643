export type { EitherLike } from './either.js';
export { isLeft, leftOrThrow, rightOrThrow } from './either.js';
export { errorBrand, errorGuard, MechaError } from './mecha-error.js';
export type { Either, Refusal, RefusalKind } from './refusal.js';
export { left, refusal, right } from './refusal.js';
export type { SkippedLine, SourceRead, ValueRead } from './source-read.js';
export { couldNotRead, isComplete, readValue, recordsOf } from './source-read.js';
export { UnexpectedLeftError } from './unexpected-left-error.js';
