/** The stores a charter line can watch, each read as the age of what waits there. */
export const charterSensors = ['outbox_age', 'question_latency', 'request_closure'] as const;

/** One of the three age sensors a charter line may carry. */
export type CharterSensor = (typeof charterSensors)[number];

/** Narrows untrusted input (a TOML value, a CLI argument) to a known sensor. */
export function isCharterSensor(value: unknown): value is CharterSensor {
  return typeof value === 'string' && (charterSensors as readonly string[]).includes(value);
}
