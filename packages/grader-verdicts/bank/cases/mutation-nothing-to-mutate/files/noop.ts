/** Does nothing, on purpose: there is no behaviour to pin. */
export function noop(): void {}
