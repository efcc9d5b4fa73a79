import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordGoals } from '../../../bench/lib/goal.js';
import { goalsOf } from '../../../bench/lib/goals.js';
import { describeFailures, runInterleaved, writeChart } from '../../../bench/lib/harness.js';
import { writeSummary } from '../../../bench/lib/summary.js';

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

  it('names the failed contender on the chart and in SUMMARY.md; the goals that need its figures are not measured', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-chart-'));
    try {
      // client-node failed: its figures, and so the ours ÷ client-node ratio, were never recorded.
      const figures = {
        'ours: median req/s': 2000,
        'fetch floor: median req/s': 2050,
        'ratio ours / fetch floor (median of per-round ratios)': 0.976,
        'ours: TCP connections used per round (max)': 1,
      };
      const recorded = {
        name: 'reads',
        command: 'npm run bench -- reads',
        environment: 'node test',
        figures,
        goals: recordGoals(goalsOf('reads'), figures, {}),
        failed: [{ contender: 'client-node', round: 1, error: 'other side closed' }],
        measuredAt: '2026-11-26T00:00:00.000Z',
        quick: true,
      };
      expect(recorded.goals.map((g) => [g.id, g.met])).toEqual([
        ['vs-fetch-floor', true],
        ['vs-client-node', false],
        ['keep-alive', true],
      ]);
      writeFileSync(join(dir, 'reads.json'), JSON.stringify(recorded));
      writeChart(dir, recorded);
      const svg = readFileSync(join(dir, 'reads.svg'), 'utf8');
      expect(svg).toContain('FAILED: client-node');
      expect(svg).toContain('2,000 req/s');
      expect(svg).toContain('– not measured — ours ≥ 1.3 × @kubernetes/client-node');
      expect(svg).not.toContain('client-node 1.4.0</text>');

      const summary = readFileSync(writeSummary(dir), 'utf8');
      const row = summary.split('\n').find((line) => line.startsWith('| [reads]'))!;
      // met | missed | not measured: the failure heads the not-measured cell, beside the goal it left unjudged.
      const cells = row.split(' | ');
      expect(cells[1]).toBe('2 of 3');
      expect(cells[2]).toBe('—');
      expect(cells[3]).toBe(
        'FAILED: client-node (round 2): other side closed; ours ≥ 1.3 × @kubernetes/client-node 1.4.0 (req/s, median of per-round ratios)',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
