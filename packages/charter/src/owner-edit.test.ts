import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CharterArgumentError } from './charter-argument-error.js';
import { mintOwnerEdit } from './owner.js';
import { isOwnerEdit, type OwnerEdit, ownerSurfaces } from './owner-edit.js';

describe('mintOwnerEdit', () => {
  it('mints a frozen capability recording the surface and who', () => {
    for (const surface of ownerSurfaces) {
      const edit = mintOwnerEdit(surface, 'sam');
      expect(edit).toEqual({ surface, by: 'sam' });
      expect(Object.isFrozen(edit)).toBe(true);
      expect(isOwnerEdit(edit)).toBe(true);
    }
  });

  it('has no surface for a tool, a model or an agent', () => {
    expect(ownerSurfaces).toEqual(['cli', 'web', 'slack', 'tui']);
    for (const surface of ['tool', 'model', 'agent', 'mcp', '', 'CLI']) {
      expect(() => mintOwnerEdit(surface as 'cli', 'sam')).toThrow(CharterArgumentError);
    }
    expect(() => mintOwnerEdit('tool' as 'cli', 'sam')).toThrow(
      'only a person\'s surface (cli, web, slack, tui) can mint an owner edit, not "tool"',
    );
  });

  it('must record who', () => {
    for (const by of ['', '   ', undefined, 7]) {
      expect(() => mintOwnerEdit('cli', by as string)).toThrow(
        'an owner edit must record who made it',
      );
    }
  });
});

describe('isOwnerEdit', () => {
  it('refuses anything that was not minted, however alike', () => {
    const real = mintOwnerEdit('web', 'sam');
    const forgeries: unknown[] = [
      { surface: 'web', by: 'sam' },
      { ...real },
      Object.freeze({ ...real }),
      Object.create(real),
      new Proxy(real, {}),
      structuredClone(real),
      JSON.parse(JSON.stringify(real)),
      [real],
      null,
      undefined,
      'web',
    ];
    for (const forged of forgeries) expect(isOwnerEdit(forged)).toBe(false);
    expect(isOwnerEdit(real)).toBe(true);
  });

  it('refuses every arbitrary value', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect(isOwnerEdit(value)).toBe(false);
      }),
    );
  });

  it('cannot be altered after minting', () => {
    const edit = mintOwnerEdit('slack', 'U123');
    expect(() => {
      (edit as { surface: string }).surface = 'tool';
    }).toThrow(TypeError);
    expect(edit.surface).toBe('slack');
  });

  it('is a type error to write a capability as a literal', () => {
    // @ts-expect-error: an OwnerEdit carries a brand no object literal has.
    const forged: OwnerEdit = { surface: 'cli', by: 'sam' };
    expect(isOwnerEdit(forged)).toBe(false);
  });
});

describe('mintOwnerEdit: the argument each refusal names', () => {
  it("names surface for a surface that is not a person's, by for an empty by", () => {
    const thrown = (mint: () => unknown) => {
      try {
        mint();
      } catch (error) {
        return error as CharterArgumentError;
      }
      throw new Error('expected a CharterArgumentError');
    };
    expect(thrown(() => mintOwnerEdit('tool' as 'cli', 'sam')).argument).toBe('surface');
    expect(thrown(() => mintOwnerEdit('cli', ' ')).argument).toBe('by');
  });
});
