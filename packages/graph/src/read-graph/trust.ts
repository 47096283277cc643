/** The trust a source has earned: 1 / (1 + corrections against it), to three places. */
export function trustOf(correctionsAgainst: number): number {
  return Math.round((1 / (1 + correctionsAgainst)) * 1000) / 1000;
}
