export type { ValenceSums } from './format-valence.js';
export { formatValence } from './format-valence.js';
