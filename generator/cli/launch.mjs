// Starts a generator command from its TypeScript source: esbuild bundles the
// command into .build/ and this process runs it, so `npm run generate` pays
// neither a TypeScript loader nor a second process. The bundle is rebuilt
// only when a generator source is newer than it. Usage: launch.mjs <command> [args…]
//
// Most of a run's start-up is V8 compiling the CommonJS dependencies (ts-morph's 9 MB
// typescript.js above all) and Node's lexer scanning them for ESM named exports. So the
// bundle `require`s its npm dependencies (no lexer), and their compiled code is kept in
// V8's code cache under .build/: module.enableCompileCache where Node has it (≥ 22.1), else
// a Module.prototype._compile hook in the manner of the v8-compile-cache package.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { readdir, rename, stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import vm from 'node:vm';

const root = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const [command, ...args] = process.argv.slice(2);
const commands = new Set(['generate', 'spec-update', 'fixtures-update']);
if (!commands.has(command)) {
  process.stderr.write(`error: unknown command ${JSON.stringify(command)} (known: ${[...commands].join(', ')})\n`);
  process.exit(2);
}

async function newestSourceMtime(dir) {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, await newestSourceMtime(path));
    else if (/\.(ts|mjs)$/.test(entry.name)) newest = Math.max(newest, (await stat(path)).mtimeMs);
  }
  return newest;
}

const codeCacheDir = join(root, '.build', 'v8-code-cache');
enableCodeCache();

// Bare package imports become require() calls (the banner defines `require`): the CommonJS packages load
// without the ESM lexer pass, and through the code cache above.
const requireExternals = {
  name: 'require-externals',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, (resolved) => {
      if (resolved.path.startsWith('node:')) return undefined;
      return resolved.namespace === 'require-external'
        ? { path: resolved.path, external: true }
        : { path: resolved.path, namespace: 'require-external' };
    });
    pluginBuild.onLoad({ filter: /.*/, namespace: 'require-external' }, (loaded) => ({
      contents: `module.exports = require(${JSON.stringify(loaded.path)});`,
      loader: 'js',
    }));
  },
};

const bundle = join(root, '.build', `${command}.mjs`);
const built = await stat(bundle).then(
  (s) => s.mtimeMs,
  () => 0,
);
if (
  built <= Math.max(await newestSourceMtime(join(root, 'generator')), statSync(fileURLToPath(import.meta.url)).mtimeMs)
) {
  // Built under a name of its own, then renamed: concurrent runs never see a half-written bundle.
  const staging = `${bundle}.${process.pid}.tmp.mjs`;
  // Loaded only to rebuild: importing esbuild as ESM costs ~45 ms of lexing on every run.
  const { build } = createRequire(import.meta.url)('esbuild');
  await build({
    entryPoints: [join(root, 'generator', 'cli', `${command}.ts`)],
    outfile: staging,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    plugins: [requireExternals],
    banner: {
      js: "import { createRequire as __launchCreateRequire } from 'node:module'; const require = __launchCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  await rename(staging, bundle);
}
// The bundle sits one level below the root, as generator/config.ts does, so PROJECT_ROOT stays right.
process.argv = [process.argv[0], bundle, ...args];
await import(pathToFileURL(bundle).href);

function enableCodeCache() {
  if (process.env.LAUNCH_NO_CODE_CACHE === '1') return;
  if (typeof Module.enableCompileCache === 'function') {
    Module.enableCompileCache(codeCacheDir);
    return;
  }
  installCompileHook();
}

/**
 * Node 20 has no compile cache: compile node_modules' CommonJS through vm.Script with V8 cached data,
 * keyed by file, size, mtime and V8 version. The data is taken at exit, so it also holds the functions
 * V8 compiled lazily during the run. Any failure falls back to Node's own compile: the cache can only
 * save time, never change behaviour.
 */
function installCompileHook() {
  const original = Module.prototype._compile;
  const produced = [];
  Module.prototype._compile = function compileWithCodeCache(content, filename) {
    if (!filename.includes(`${'/'}node_modules${'/'}`) || content.length < 100_000)
      return original.call(this, content, filename);
    let file;
    let cachedData;
    try {
      const info = statSync(filename);
      file = join(
        codeCacheDir,
        `${createHash('sha256').update(`${process.versions.v8}\0${filename}\0${info.size}\0${info.mtimeMs}`).digest('hex').slice(0, 32)}.bin`,
      );
      cachedData = readFileSync(file);
    } catch {
      cachedData = undefined;
    }
    const script = new vm.Script(Module.wrap(content), {
      filename,
      cachedData,
      importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    if (file !== undefined && (cachedData === undefined || script.cachedDataRejected === true))
      produced.push([file, script]);
    const wrapper = script.runInThisContext({ displayErrors: true });
    const require = createRequire(filename);
    return wrapper.call(this.exports, this.exports, require, this, filename, dirname(filename));
  };
  process.once('exit', () => {
    for (const [file, script] of produced) {
      try {
        mkdirSync(codeCacheDir, { recursive: true });
        writeFileSync(`${file}.${process.pid}.tmp`, script.createCachedData());
        renameSync(`${file}.${process.pid}.tmp`, file);
      } catch {
        // An unwritable .build/ only means the next run compiles again.
      }
    }
  });
}
