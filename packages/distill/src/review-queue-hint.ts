/**
 * What an empty review queue says about how it gets filled, on every surface that shows it:
 * candidate facts come only from distillation, which needs a local model.
 */
export const emptyReviewQueueHint =
  "Nothing waits for review. Candidate facts arrive when 'mecha distill' (or the nightly pass) carries finished sessions into the graph; distilling needs a local model, named by [model] path in config.toml ('mecha distill --dry-run' shows what would be distilled).";
