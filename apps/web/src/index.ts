export { createApp } from './create-app.js';
