// Dev entry for tests: the CLI from src/ through tsx (no build needed).
import { main } from '../../src/index.js';

process.exitCode = await main(process.argv.slice(2));
