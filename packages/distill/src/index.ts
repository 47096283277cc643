export type { BoundedTranscript, TranscriptBounds } from './bound-transcript.js';
export { boundTranscript, defaultTranscriptBounds } from './bound-transcript.js';
