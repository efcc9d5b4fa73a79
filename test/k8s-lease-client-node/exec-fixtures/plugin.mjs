// A client-go credential plugin for the exec tests, driven by PLUGIN_* variables.
// Every run appends one JSON line to PLUGIN_RECORD (argv, KUBERNETES_EXEC_INFO, the variables named in PLUGIN_SEE),
// so the tests count runs and see what the plugin was given.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';

const env = process.env;
const record = env.PLUGIN_RECORD;
const runIndex = record && existsSync(record) ? readFileSync(record, 'utf8').split('\n').filter(Boolean).length : 0;
if (record) {
  const seen = Object.fromEntries(
    (env.PLUGIN_SEE ?? '')
      .split(',')
      .filter(Boolean)
      .map((name) => [name, env[name] ?? null]),
  );
  appendFileSync(
    record,
    `${JSON.stringify({ argv: process.argv.slice(2), execInfo: env.KUBERNETES_EXEC_INFO ?? null, env: seen })}\n`,
  );
}

const failAfter = env.PLUGIN_FAIL_AFTER === undefined ? Infinity : Number(env.PLUGIN_FAIL_AFTER);
const mode = runIndex >= failAfter ? 'exit' : (env.PLUGIN_MODE ?? 'ok');
if (env.PLUGIN_STDERR) process.stderr.write(env.PLUGIN_STDERR);

if (mode === 'exit') {
  process.exitCode = Number(env.PLUGIN_EXIT ?? '1');
} else if (mode === 'hang') {
  setInterval(() => {}, 1_000);
} else if (mode === 'huge') {
  // Far more than the 1 MiB bound, each chunk carrying the secret so a leak would show.
  const chunk = `{"token":"${env.PLUGIN_SECRET ?? 'x'}"}`.repeat(4096);
  const write = () => {
    while (process.stdout.write(chunk)) {}
    process.stdout.once('drain', write);
  };
  write();
} else if (mode === 'raw') {
  process.stdout.write(env.PLUGIN_STDOUT ?? '');
} else {
  const info = JSON.parse(env.KUBERNETES_EXEC_INFO ?? '{}');
  const tokens = (env.PLUGIN_TOKENS ?? '').split(',').filter(Boolean);
  const status = {};
  if (env.PLUGIN_EXPIRY) status.expirationTimestamp = env.PLUGIN_EXPIRY;
  if (tokens.length > 0) status.token = tokens[Math.min(runIndex, tokens.length - 1)];
  if (env.PLUGIN_CERT) status.clientCertificateData = env.PLUGIN_CERT;
  if (env.PLUGIN_KEY) status.clientKeyData = env.PLUGIN_KEY;
  process.stdout.write(
    JSON.stringify({ apiVersion: env.PLUGIN_API_VERSION ?? info.apiVersion, kind: 'ExecCredential', status }),
  );
}
