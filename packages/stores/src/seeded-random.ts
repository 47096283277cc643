/**
 * A small deterministic random source (sfc32 seeded through a string hash): the same seed
 * gives the same sequence on every machine, which is what makes a generated home reproducible.
 */
export interface SeededRandom {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [low, high], both included. */
  int(low: number, high: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Picks by weight from `[value, weight]` pairs. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T;
  /** `digits` lowercase hex digits. */
  hex(digits: number): string;
}

function hashSeed(seed: string): [number, number, number, number] {
  // cyrb128: four 32-bit words from a string, well mixed.
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let index = 0; index < seed.length; index += 1) {
    const code = seed.charCodeAt(index);
    h1 = h2 ^ Math.imul(h1 ^ code, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ code, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ code, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ code, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  return [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
}

/** A seeded random source: same seed, same sequence. */
export function seededRandom(seed: string | number): SeededRandom {
  let [a, b, c, d] = hashSeed(String(seed));
  const next = (): number => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let index = 0; index < 12; index += 1) next();
  const random: SeededRandom = {
    next,
    int: (low, high) => low + Math.floor(next() * (high - low + 1)),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)] as (typeof items)[number],
    weighted: (entries) => {
      let total = 0;
      for (const [, weight] of entries) total += weight;
      let roll = next() * total;
      for (const [value, weight] of entries) {
        roll -= weight;
        if (roll < 0) return value;
      }
      return (entries[entries.length - 1] as (typeof entries)[number])[0];
    },
    hex: (digits) => {
      let text = '';
      while (text.length < digits) {
        text += Math.floor(next() * 4294967296)
          .toString(16)
          .padStart(8, '0');
      }
      return text.slice(0, digits);
    },
  };
  return random;
}
