import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeFailures, runInterleaved, writeChart } from '../../bench/harness.js';

/** A contender's round in a child process, as the benchmarks run them: resolves with its stdout, rejects if it exits non-zero. */
function childRound(script: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(out.trim()) : reject(new Error(`client exited (code ${String(code)})`)),
    );
  });
}

describe('interleaved benchmark rounds', () => {
  it('alternates the order every other round', async () => {
    const calls: string[] = [];
    await runInterleaved(['a', 'b', 'c'] as const, 3, async (contender, round) => {
      calls.push(`${contender}${round}`);
    });
    expect(calls).toEqual(['a0', 'b0', 'c0', 'c1', 'b1', 'a1', 'a2', 'b2', 'c2']);
  });

  it('records a contender whose child dies as failed and keeps every other figure', async () => {
    const calls: string[] = [];
    const { results, failed } = await runInterleaved(
      ['floor', 'ours', 'client-node 2.0.1'] as const,
      4,
      async (contender, round) => {
        calls.push(`${contender}${round}`);
        // The per-request-connection client's child dies in the second round, as one at its open-file limit did.
        const dies = contender === 'client-node 2.0.1' && round === 1;
        return Number(await childRound(dies ? 'process.exit(3)' : `console.log(${round + 1})`));
      },
    );
    expect(failed).toEqual([{ contender: 'client-node 2.0.1', round: 1, error: 'client exited (code 3)' }]);
    expect(results.has('client-node 2.0.1')).toBe(false);
    expect(results.get('floor')).toEqual([1, 2, 3, 4]);
    expect(results.get('ours')).toEqual([1, 2, 3, 4]);
    // Sits out the rounds after its failure.
    expect(calls.filter((c) => c.startsWith('client-node'))).toEqual(['client-node 2.0.10', 'client-node 2.0.11']);
    expect(describeFailures(failed)).toBe('client-node 2.0.1 (round 2): client exited (code 3)');
  });

  it('names the failed contender on the chart, whose bars are gone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-chart-'));
    try {
      writeChart(dir, {
        name: 'reads',
        environment: 'node test',
        figures: { 'ours (Node 22): median req/s': 2000, 'fetch floor (Node 22): median req/s': 2100 },
        failed: [{ contender: 'client-node 2.0.1 (Node 22)', round: 0, error: 'other side closed' }],
        measuredAt: '2026-11-26T00:00:00.000Z',
        quick: true,
      });
      const svg = readFileSync(join(dir, 'reads.svg'), 'utf8');
      expect(svg).toContain('FAILED: client-node 2.0.1 (Node 22)');
      expect(svg).toContain('2,000 req/s');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
