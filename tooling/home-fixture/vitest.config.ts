import { packageConfig } from '@mecha/vitest-config';

export default packageConfig();
