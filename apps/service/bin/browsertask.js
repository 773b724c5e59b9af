#!/usr/bin/env node
// The compiled CLI lives in dist/ (built by `npm start`/`npm test` set-up or `pnpm build`).
import { main } from '../dist/cli.js';

process.exitCode = await main(process.argv.slice(2));
