export { errorBrand, errorGuard, MechaError } from './mecha-error.js';
