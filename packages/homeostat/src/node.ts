export type { MachineSensorOptions } from './node/machine-sensors.js';
export {
  machineSensors,
  parseLoadAverage,
  parseMemAvailable,
  readLoadAverage,
  readMemAvailable,
} from './node/machine-sensors.js';
