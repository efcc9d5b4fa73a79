#!/usr/bin/env node
// The package's `k8s-lease` command (npm links it through node_modules/.bin).
import module from 'node:module';
import { processIo } from './io.js';

// Node 22.1+ keeps the compiled code of this package and its dependencies on disk (the tool's start-up is mostly
// compiling the client, undici and yaml), as TypeScript's tsc does; older Node has no such cache and starts as before.
// Read through Reflect: the @types/node this package is checked against is Node 20's, which lacks it. Static
// imports are evaluated before this line, so main.js, and all it loads, is imported after it.
const enableCompileCache: unknown = Reflect.get(module, 'enableCompileCache');
if (typeof enableCompileCache === 'function') enableCompileCache.call(module);
const { main } = await import('./main.js');
const code = await main(process.argv.slice(2), processIo());

/** Resolves once everything written to `stream` before it has been handed to the system (pipes are async on macOS). */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}

// main has awaited all it started (the command, the release, the connection pool's close); what is left is undici's
// own bookkeeping, which kept the process alive for up to half a second after a request: exit once output is out.
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(code);
