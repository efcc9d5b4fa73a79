#!/usr/bin/env node
// The package's `k8s-lease` command (npm links it through node_modules/.bin).
import { processIo } from './io.js';
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2), processIo());
