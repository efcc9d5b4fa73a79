// The runtime matrix: the same scenario (scenario.ts) against one Lease API server from Node 20, 22 and 24,
// Deno, Bun and headless Chromium (cross-origin, through the server's CORS), one test per runtime. After a
// full run it records matrix.json, the README's compatibility table and the browser's screenshot (under .tmp/engines/,
// or over the committed copies in results/ and README.md with UPDATE_RESULTS=1).
import { mkdir, readFile, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '../helpers/external-tools.js';
import { describeWithTool, itWithTool } from '../helpers/needs-tool.js';
import { startLeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import type { InjectedWatchFault, LeaseApiServer } from '../../templates/k8s-lease-api-server/src/index.js';
import type { LeaseScenarioGlobal } from './browser.js';
import { buildScenario } from './build.js';
import type { ScenarioBuild } from './build.js';
import type { Matrix, MatrixRow } from './matrix.js';
import { matrixRow, writeMatrix } from './matrix.js';
import { PROCESS_RUNTIMES, run, stepsOf, versionOf } from './runtimes.js';
import {
  REDIRECTED_LEASE,
  STEP_NAMES,
  THROTTLE_RETRY_AFTER_SECONDS,
  THROTTLED_LEASE,
  WATCH_SELECTOR,
} from './scenario.js';
import type { StepResult } from './scenario.js';

const path = (p: string): string => fileURLToPath(new URL(p, import.meta.url));
// Tests leave the tree as they found it: a run records under .tmp/engines/ unless UPDATE_RESULTS=1 asks it to
// rewrite the committed record (results/matrix.json, browser.png and the README's table), as UPDATE_GOLDEN does.
const RECORD = process.env['UPDATE_RESULTS'] === '1';
const RESULTS = RECORD ? path('./results/') : path('../../.tmp/engines/');
const README = path('../../README.md');
const README_OUT = RECORD ? README : join(RESULTS, 'README.md');
const BROWSER_ID = 'chromium';
const RUNTIME_IDS = [...PROCESS_RUNTIMES.map((r) => r.id), BROWSER_ID];
const LEASES = '/apis/coordination.k8s.io/v1';

let server: LeaseApiServer;
let pages: Server;
let pageOrigin: string;
/** An origin where nothing listens: the scenario's serverDown step. */
let downUrl: string;
let built: ScenarioBuild;
const injected: InjectedWatchFault[] = [];
/** Namespaces in which the server answered a read with the injected 429. */
const throttled: string[] = [];
const rows = new Map<string, MatrixRow>();

/** Per run (the pid): builds and Deno's cache, removed afterwards. */
const scratch = join(path('../../.tmp/engines/'), String(process.pid));
const namespaceOf = (id: string): string => `rt-${id}`;

/**
 * The scenario's first watch connection in `namespace` is cut inside its second event's line; its redirected read
 * gets a 307; its first read of the throttled Lease a 429.
 */
function arrangeFaults(namespace: string): void {
  const nsPath = `${LEASES}/namespaces/${namespace}/leases`;
  server.setFaults({
    httpError: [
      {
        status: 307,
        reason: 'TemporaryRedirect',
        headers: { Location: `${server.url}${nsPath}/alpha` },
        when: (r) => r.path === `${nsPath}/${REDIRECTED_LEASE}`,
      },
      {
        // What kube-apiserver's max-in-flight and APF filters send (filters/maxinflight.go tooManyRequests):
        // Retry-After and http.Error's plain text, no Status.
        status: 429,
        count: 1,
        body: 'Too many requests, please try again later.\n',
        headers: {
          'Content-Type': 'text/plain; charset=utf-8',
          'X-Content-Type-Options': 'nosniff',
          'Retry-After': String(THROTTLE_RETRY_AFTER_SECONDS),
        },
        when: (r) => {
          const hit = r.verb === 'get' && r.path === `${nsPath}/${THROTTLED_LEASE}`;
          if (hit) throttled.push(namespace);
          return hit;
        },
      },
    ],
    watch: [
      {
        kind: 'cut',
        afterEvents: 1,
        midLine: true,
        when: (r) =>
          r.path === `${LEASES}/namespaces/${namespace}/leases` && r.query.get('labelSelector') === WATCH_SELECTOR,
      },
    ],
    onWatchFault: (fault) => injected.push(fault),
  });
}

function throttlesIn(namespace: string): number {
  return throttled.filter((ns) => ns === namespace).length;
}

function cutsIn(namespace: string): number {
  return injected.filter((f) => f.kind === 'cut' && f.request.path.includes(`/namespaces/${namespace}/`)).length;
}

/** One line per step, so a failure says which step and why. */
function report(steps: readonly StepResult[]): string {
  return STEP_NAMES.map((name) => {
    const step = steps.find((s) => s.name === name);
    return `${name}: ${step === undefined ? 'never reported' : `${step.passed ? 'ok' : 'FAILED'} (${step.detail})`}`;
  }).join('\n');
}

function expectAllPassed(label: string, steps: readonly StepResult[], extra = ''): void {
  const failed = STEP_NAMES.filter((name) => steps.find((s) => s.name === name)?.passed !== true);
  expect(failed, `${label}\n${report(steps)}${extra}`).toEqual([]);
}

async function startPageServer(browserScript: string): Promise<Server> {
  const script = await readFile(browserScript);
  const html = await readFile(path('./page.html'));
  const s = createServer((req, res) => {
    const body = req.url === '/scenario.js' ? script : req.url === '/' ? html : undefined;
    if (body === undefined) return void res.writeHead(404).end();
    res
      .writeHead(200, {
        'Content-Type': req.url === '/' ? 'text/html; charset=utf-8' : 'text/javascript; charset=utf-8',
      })
      .end(body);
  });
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return s;
}

/** A loopback port that was free a moment ago: listened on, then closed. */
async function downOrigin(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}`;
}

beforeAll(async () => {
  await mkdir(RESULTS, { recursive: true });
  built = await buildScenario(scratch);
  downUrl = await downOrigin();
  pages = await startPageServer(built.browser);
  pageOrigin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  // The page is another origin (another port): the browser preflights every write and reads only exposed headers.
  server = await startLeaseApiServer({
    namespaces: RUNTIME_IDS.map(namespaceOf),
    corsAllowedOrigins: [`^${pageOrigin.replace(/\./g, '\\.')}$`],
  });
});

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => pages?.close(resolve));
  await rm(scratch, { recursive: true, force: true });
  // Recorded only from a complete run: a filtered run must not shrink the README's table.
  if (rows.size === RUNTIME_IDS.length) {
    const matrix: Matrix = { steps: STEP_NAMES, runtimes: RUNTIME_IDS.flatMap((id) => rows.get(id) ?? []) };
    await writeMatrix(matrix, join(RESULTS, 'matrix.json'), README, README_OUT);
  }
});

describe('the client runs the same scenario in every runtime', () => {
  for (const runtime of PROCESS_RUNTIMES) {
    const name = `${runtime.label}: create, read, stale-replace conflict, apply, paged list, watch across a cut, informer, abort, timeout, no redirect, warning, Retry-After, server down`;
    const scenario = async (binary: string): Promise<void> => {
      const version = await versionOf(runtime, binary);
      expect(version, `${binary} is not ${runtime.label}`).toMatch(runtime.expectVersion);
      const namespace = namespaceOf(runtime.id);
      arrangeFaults(namespace);
      const out = await run(binary, [...runtime.args, built.entry, server.url, namespace, downUrl], {
        DENO_DIR: join(scratch, 'deno'),
      });
      const steps = stepsOf(out.stdout);
      rows.set(runtime.id, matrixRow(runtime.label, version, steps));
      expectAllPassed(
        `${runtime.label} ${version}`,
        steps,
        out.stderr === '' ? '' : `\nstderr: ${out.stderr.slice(0, 2000)}`,
      );
      expect(cutsIn(namespace), 'the server cut the watch connection').toBe(1);
      expect(throttlesIn(namespace), 'the server throttled one read').toBe(1);
      expect(out.code).toBe(0);
    };
    if (runtime.tool !== undefined) itWithTool(runtime.tool, runtime.binary, name, scenario);
    else it(name, () => scenario(runtime.binary ?? runtime.label));
  }

  describeWithTool('chromium', findChromium(), 'Chromium (headless), cross-origin', (executablePath) => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
    });
    afterAll(async () => {
      await browser?.close();
    });

    it('Chromium: the same scenario from a page on another origin, then a live Lease list from a watch (screenshot)', async () => {
      const namespace = namespaceOf(BROWSER_ID);
      arrangeFaults(namespace);
      const page = await browser.newPage({ viewport: { width: 640, height: 360 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${pageOrigin}/`);
      const steps = await page.evaluate(
        ({ baseUrl, ns, down }) =>
          (globalThis as unknown as { leaseScenario: LeaseScenarioGlobal }).leaseScenario.runScenario({
            baseUrl,
            namespace: ns,
            downUrl: down,
          }),
        { baseUrl: server.url, ns: namespace, down: downUrl },
      );
      rows.set(BROWSER_ID, matrixRow('Chromium (headless)', browser.version(), steps));
      expectAllPassed(
        `Chromium ${browser.version()}`,
        steps,
        errors.length === 0 ? '' : `\npage errors: ${errors.join('; ')}`,
      );
      expect(cutsIn(namespace), 'the server cut the watch connection').toBe(1);
      expect(throttlesIn(namespace), 'the server throttled one read').toBe(1);

      // The dashboard: Leases labelled dashboard=live in any namespace, listed and then kept current by the watch.
      const write = (result: { ok: boolean; error?: { message: string } }): void => {
        if (!result.ok) throw new Error(result.error?.message);
      };
      write(
        server.store.create({
          metadata: { name: 'kube-scheduler', namespace, labels: { dashboard: 'live' } },
          spec: { holderIdentity: 'node-a_1f2e' },
        }),
      );
      await page.evaluate(
        (baseUrl) => (globalThis as unknown as { startDashboard(url: string): Promise<void> }).startDashboard(baseUrl),
        server.url,
      );
      await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'synced');
      write(
        server.store.create({
          metadata: { name: 'kube-controller-manager', namespace, labels: { dashboard: 'live' } },
          spec: { holderIdentity: 'node-b_9c3d' },
        }),
      );
      const scheduler = server.store.get(namespace, 'kube-scheduler');
      if (scheduler === undefined) throw new Error('kube-scheduler vanished');
      write(server.store.update({ ...scheduler, spec: { ...scheduler.spec, holderIdentity: 'node-c_4b7a' } }));
      await page.waitForFunction(
        () =>
          document.querySelectorAll('#leases li').length === 2 &&
          document.querySelector('#leases')?.textContent?.includes('node-c_4b7a') === true,
      );
      const items = await page.locator('#leases li').allTextContents();
      expect(items).toEqual([
        `${namespace}/kube-controller-manager held by node-b_9c3d`,
        `${namespace}/kube-scheduler held by node-c_4b7a`,
      ]);
      await page.screenshot({ path: join(RESULTS, 'browser.png') });
      expect(errors).toEqual([]);
    });
  });
});
