import { packageConfig } from './index.js';

// The preset's own helpers are plain JavaScript, tested beside themselves.
export default packageConfig({ test: { include: ['*.test.js'] } });
