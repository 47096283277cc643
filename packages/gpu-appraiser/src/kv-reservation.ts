import { type Either, left, type Refusal, refusal, right } from '@mecha/errors';
/**
 * Tokens of key/value cache one page holds. The seed names pages without their size; mecha
 * takes 16 tokens, so the default 160 pages (2,560 tokens) hold the default 8,192 prompt bytes
 * at about four bytes a token plus the default 512 output tokens.
 */
export const kvPageTokens = 16;

/** The context, in tokens, that `pages` pages per sequence reserve. */
export const reservedTokens = (pages: number): number => pages * kvPageTokens;

/** The key/value pages a reservation holds. */
export interface KvReserved {
  readonly pages: number;
  readonly tokens: number;
  /** The context the model allocated (at least `tokens`). */
  readonly contextSize: number;
}

/** What reserving found: the pages held, or the refusal in words. */
export type KvReservation = Either<Refusal<'refused'>, KvReserved>;

/** What reserving needs of a model: a load that allocates its whole context at once. */
export interface ReservableModel {
  load(): Promise<{ readonly contextSize: number; readonly trainContextSize: number }>;
}

function messageOf(error: unknown): string {
  const parts: string[] = [];
  for (let at: unknown = error; at instanceof Error && parts.length < 4; at = at.cause) {
    parts.push(at.message);
  }
  return parts.length > 0 ? parts.join(': ') : String(error);
}

/**
 * Reserves the key/value page pool before any input is accepted: loads `model` (created with a
 * context of `reservedTokens(pages)`), which allocates the whole context at once. Refused, with
 * the reason, when the load fails (the device cannot hold it) or the model allocated less than
 * the pages need (its trained context is shorter).
 */
export async function reserveKvPages(
  model: ReservableModel,
  pages: number,
): Promise<KvReservation> {
  const tokens = reservedTokens(pages);
  const what = `${pages} key/value pages (${tokens} tokens per sequence)`;
  let info: { readonly contextSize: number; readonly trainContextSize: number };
  try {
    info = await model.load();
  } catch (error) {
    return left(refusal('refused', `cannot reserve ${what}: ${messageOf(error)}`));
  }
  if (info.contextSize < tokens) {
    const most = Math.floor(Math.min(info.contextSize, info.trainContextSize) / kvPageTokens);
    return left(
      refusal(
        'refused',
        `cannot reserve ${what}: the model holds at most ${info.contextSize} tokens per sequence (trained context ${info.trainContextSize}); set at most ${most} pages (mecha appraiser limits --pages ${most})`,
      ),
    );
  }
  return right({ pages, tokens, contextSize: info.contextSize });
}
