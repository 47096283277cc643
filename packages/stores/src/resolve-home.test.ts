import { describe, expect, it } from 'vitest';
import { resolveHome } from './resolve-home.js';

describe('resolveHome', () => {
  it('defaults to .mecha under the user home', () => {
    expect(resolveHome({ env: {}, homeDirectory: '/home/ada', cwd: '/tmp' })).toEqual({
      path: '/home/ada/.mecha',
      source: 'default',
    });
  });

  it('takes MECHA_HOME when set, resolving a relative one against cwd', () => {
    const env = { MECHA_HOME: 'homes/one' };
    expect(resolveHome({ env, homeDirectory: '/home/ada', cwd: '/work' })).toEqual({
      path: '/work/homes/one',
      source: 'MECHA_HOME',
    });
  });

  it('ignores a blank MECHA_HOME rather than using the working directory', () => {
    const env = { MECHA_HOME: '  ' };
    expect(resolveHome({ env, homeDirectory: '/home/ada', cwd: '/work' }).source).toBe('default');
  });
});
