export { peakReading } from './peak-reading.js';
