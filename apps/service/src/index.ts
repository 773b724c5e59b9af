export { main } from './cli.js';
