// Loaded before every test file (vitest.config.ts setupFiles). Many tests run the CLI with spawnSync, which
// blocks the worker's event loop: vitest's worker answers its RPC calls only between macrotasks, and a file
// whose synchronous tests add up past 60 s fails with "Timeout calling onTaskUpdate" although every test
// passed. Yielding one macrotask after each test lets those calls be answered in time.
import { afterEach } from 'vitest';

afterEach(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
