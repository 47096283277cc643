export type { ModelIdentity } from './model-identity.js';
export { modelIdentity } from './model-identity.js';
