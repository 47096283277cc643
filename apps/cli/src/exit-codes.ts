/** Exit codes: 0 ok, 1 failure (the request was understood and could not be done), 2 usage. */
export const exitCodes = { ok: 0, failure: 1, usage: 2 } as const;
