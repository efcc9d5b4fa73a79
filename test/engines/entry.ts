// Command-line entry of the scenario for Node, Deno and Bun: `<runtime> entry.mjs <baseUrl> <namespace> <downUrl>`.
// Prints one `STEP {json}` line per step, then exits 0 when every step passed. Runtime differences stay
// here, in the harness: argv and exit are the only things the three spell differently.
import { runScenario } from './scenario.js';

interface HostGlobals {
  Deno?: { args: string[]; exit(code: number): never };
  process?: { argv: string[]; exit(code: number): never };
}

const host = globalThis as HostGlobals;
const args = host.Deno?.args ?? host.process?.argv.slice(2) ?? [];
const [baseUrl, namespace, downUrl] = args;
const exit = (code: number): never => {
  if (host.Deno !== undefined) return host.Deno.exit(code);
  if (host.process !== undefined) return host.process.exit(code);
  throw new Error(`exit ${code}`);
};

if (baseUrl === undefined || namespace === undefined || downUrl === undefined) {
  console.error('usage: entry.mjs <baseUrl> <namespace> <downUrl>');
  exit(2);
} else {
  const results = await runScenario({ baseUrl, namespace, downUrl }, (step) =>
    console.log(`STEP ${JSON.stringify(step)}`),
  );
  // Exits explicitly: idle keep-alive sockets must not keep a runtime alive for seconds after the last step.
  exit(results.every((r) => r.passed) ? 0 : 1);
}
