/**
 * Child process of the parse-fairness benchmark: the flooder, in a process of its own so that sending its
 * bodies does not slow the parent's measured requests. Argv: server URL, body bytes, requests in flight.
 * Floods until the parent sends 'stop', then sends its answers counted by status and exits.
 */
import { FLOOD_TOKEN, yamlNamespaceBody } from './parse-fairness.js';

const [url = '', bytes = '0', concurrency = '1'] = process.argv.slice(2);
const body = yamlNamespaceBody('flood', Number(bytes));
const answers: Record<string, number> = {};
let stopped = false;
process.on('message', (message: unknown) => {
  if (message === 'stop') stopped = true;
});

async function loop(): Promise<void> {
  while (!stopped) {
    const res = await fetch(`${url}/api/v1/namespaces`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${FLOOD_TOKEN}`, 'Content-Type': 'application/yaml' },
      body,
    });
    await res.arrayBuffer();
    answers[res.status] = (answers[res.status] ?? 0) + 1;
  }
}

await Promise.all(Array.from({ length: Number(concurrency) }, loop));
process.send?.({ type: 'answers', answers }, () => process.exit(0));
