/** Explains the rule, and measures a word properly. */
export const rule = 'never write // @ts-ignore or `any` to silence the checker';

export function wordLength(input: unknown): number {
  return typeof input === 'string' ? input.length : 0;
}
