export type { MachineSensorOptions } from './node/machine-sensors.js';
export { machineSensors } from './node/machine-sensors.js';
