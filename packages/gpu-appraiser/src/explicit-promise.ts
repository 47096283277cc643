// A future-tense commitment word: "will", "shall", "'ll", "promise(s/d)", "going to",
// "commit(s/ted) to", "plan(s) to", "intend(s) to". A completed act ("fixed the build") has none.
const promise =
  /(?:^|[^\p{L}])(?:will|shall|promise[sd]?|going to|commit(?:s|ted)? to|plans? to|intends? to)(?![\p{L}])|\p{L}['’]ll(?![\p{L}])/iu;

/**
 * Whether a quote states an explicit promise of future action, the only thing a commitment may
 * quote. Deliberately lexical: the grammar and the parser must agree without a model.
 */
export function isExplicitPromise(quote: string): boolean {
  return promise.test(quote);
}
