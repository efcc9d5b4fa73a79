// Preloaded into npm (NODE_OPTIONS=--require) by install-platforms.test.ts: npm checks a package's os and cpu
// against process.platform and process.arch (npm-install-checks), so setting them here makes `npm ci` behave as on
// the machine named by FAKE_PLATFORM (`darwin/arm64`, `linux/arm64` …) without that machine.
const [os, cpu] = (process.env.FAKE_PLATFORM ?? '').split('/');
if (os) Object.defineProperty(process, 'platform', { value: os, enumerable: true });
if (cpu) Object.defineProperty(process, 'arch', { value: cpu, enumerable: true });
