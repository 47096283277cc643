export type { CharterSensor } from './charter-sensor.js';
export { charterSensors, isCharterSensor } from './charter-sensor.js';
