export type { GeneratedHome, GenerateHomeOptions } from './generate-home.js';
export { generateHome } from './generate-home.js';
