export type { EitherLike } from './either.js';
export { isLeft, leftOrThrow, rightOrThrow } from './either.js';
export { errorBrand, errorGuard, MechaError } from './mecha-error.js';
export { UnexpectedLeftError } from './unexpected-left-error.js';
