// One refreshing process for kubeconfig-persist.test.ts: for each `go` line on stdin it loads the kubeconfig, builds
// USER's oidc auth-provider with the package's own code and asks it for a token (a refresh, as the file's id-token has
// expired, then the write-back), answering one JSON line per round on stdout.
import { createInterface } from 'node:readline';
import { authProviderToken } from '../../templates/k8s-lease-client-node/src/auth-provider.js';
import { loadKubeconfig } from '../../templates/k8s-lease-client-node/src/kubeconfig.js';

const [kubeconfig, userName] = process.argv.slice(2);
if (kubeconfig === undefined || userName === undefined) throw new Error('usage: kubeconfig-persist.child.ts FILE USER');

async function round(): Promise<string> {
  const config = await loadKubeconfig({ kubeconfig });
  const user = config.users.get(userName ?? '');
  if (user?.authProvider === undefined) return `no auth-provider for ${userName}`;
  const token = authProviderToken(user.authProvider, {
    userName: userName ?? '',
    at: userName ?? '',
    origin: user.origin,
  });
  await token();
  return 'ok';
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line !== 'go') continue;
  const outcome = await round().catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
  process.stdout.write(`${JSON.stringify({ outcome })}\n`);
}
