// Why: this registry mirror serves only the linux-x64 builds of deno and biome, and npm 11 then
// writes a lock without their other platforms' optional packages, which `npm ci` refuses as out
// of sync. Run after `npm install` changes deno or @biomejs/biome: it adds the missing entries
// (with integrity where the registry has them; os/cpu only otherwise, so npm skips them here).
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));
const guess = (name) => {
  const os = ['win32', 'darwin', 'linux', 'android', 'freebsd'].find((o) => name.includes(o)) ?? 'unknown';
  const cpu = name.includes('arm64') || name.includes('aarch64') ? 'arm64' : 'x64';
  return { os: [os], cpu: [cpu] };
};
for (const parent of ['deno', '@biomejs/biome', 'bun']) {
  const p = lock.packages[`node_modules/${parent}`];
  for (const [name, ver] of Object.entries(p.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (lock.packages[key]) continue;
    let e;
    try {
      const info = JSON.parse(
        execFileSync('npm', ['view', `${name}@${ver}`, '--json', 'dist.integrity', 'os', 'cpu', 'libc', 'license'], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
        }),
      );
      e = {
        version: ver,
        integrity: info['dist.integrity'],
        cpu: info.cpu,
        dev: true,
        libc: info.libc,
        license: info.license,
        optional: true,
        os: info.os,
      };
    } catch {
      const g = guess(name);
      e = { version: ver, cpu: g.cpu, dev: true, optional: true, os: g.os };
    }
    lock.packages[key] = JSON.parse(JSON.stringify(e));
    console.log('added', key, e.integrity ? '' : '(not on this registry)');
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
fs.writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
