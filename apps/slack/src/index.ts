export { runEndContextLine } from './run-end-context-line.js';
