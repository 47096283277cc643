/** The value a scaled dimension takes when the model supplied no supported conclusion. */
export const unknownValue = 4294967295;
/** The largest known value of a scaled dimension (an ordinal estimate, not a probability). */
export const scaleMax = 1_000_000;
/** The largest consequence; 0 means no established consequence. */
export const consequenceMax = 4;

/** The scaled dimensions, in the order call 2 writes them (consequence sits among them). */
export const dimensionFields = [
  'benefit',
  'harm',
  'arousal',
  'consequence',
  'confidence',
  'regard_gain',
  'regard_loss',
  'trust_gain',
  'trust_loss',
] as const;

/** Call 2's fourteen fields, in their one order. */
export const interpretationFields = [
  'support',
  ...dimensionFields,
  'evidence',
  'task',
  'commitment',
  'correction',
] as const;

/** One field of call 2's object. */
export type InterpretationField = (typeof interpretationFields)[number];

/**
 * Call 2's answer exactly as the model wrote it: scaled dimensions 0–1,000,000 or
 * `unknownValue`, consequence 0–4, three quotes (empty or one of call 1's) and a correction flag.
 */
export interface Interpretation {
  readonly support: 0 | 1;
  readonly benefit: number;
  readonly harm: number;
  readonly arousal: number;
  readonly consequence: number;
  readonly confidence: number;
  readonly regard_gain: number;
  readonly regard_loss: number;
  readonly trust_gain: number;
  readonly trust_loss: number;
  readonly evidence: string;
  readonly task: string;
  readonly commitment: string;
  readonly correction: 0 | 1;
}

/** The support-0 answer: nothing supported, everything unknown and empty. */
export const unsupportedInterpretation: Interpretation = {
  support: 0,
  benefit: unknownValue,
  harm: unknownValue,
  arousal: unknownValue,
  consequence: 0,
  confidence: unknownValue,
  regard_gain: unknownValue,
  regard_loss: unknownValue,
  trust_gain: unknownValue,
  trust_loss: unknownValue,
  evidence: '',
  task: '',
  commitment: '',
  correction: 0,
};

/** Whether the interpretation holds any known dimension or a consequence above 0. */
export function hasKnownInterpretation(value: Interpretation): boolean {
  return dimensionFields.some((field) =>
    field === 'consequence' ? value.consequence > 0 : value[field] !== unknownValue,
  );
}
