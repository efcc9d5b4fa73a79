#!/usr/bin/env node
// The package's `lease-api-server` command. npm links it through node_modules/.bin, so cli.ts's
// own "am I the entry file" check would not fire here: this file always runs main().
import { main } from './cli.js';

process.exitCode = await main(process.argv.slice(2));
