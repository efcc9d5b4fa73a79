import { describe, expect, it, vi } from 'vitest';
import {
  parseWarningHeaders,
  withWarnings,
} from '../../../../templates/k8s-lease-client/src/runtime/middleware/warnings.js';
import type { ApiWarning } from '../../../../templates/k8s-lease-client/src/runtime/middleware/warnings.js';
import { createClient } from '../../../../templates/k8s-lease-client/src/runtime/transport.js';
import { jsonHandler } from '../../../helpers/loopback.js';
import { LEASE_PATH, lease, leaseLoopback } from '../helpers/lease-loopback.js';

const server = leaseLoopback();

describe('withWarnings', () => {
  it.each([
    { header: '299 - "simple"', warnings: [{ code: 299, agent: '-', text: 'simple' }] },
    {
      header: '299 - "with \\"quotes\\" and \\\\ backslash"',
      warnings: [{ code: 299, agent: '-', text: 'with "quotes" and \\ backslash' }],
    },
    {
      header: '299 - "one", 299 kube-apiserver "two, with comma" "Wed, 21 Oct 2015 07:28:00 GMT" ,199 - "three"',
      warnings: [
        { code: 299, agent: '-', text: 'one' },
        { code: 299, agent: 'kube-apiserver', text: 'two, with comma' },
        { code: 199, agent: '-', text: 'three' },
      ],
    },
    // At the first malformed value, the rest of that header is skipped (apimachinery).
    { header: '299 - "ok", 29 - "short code", 299 - "after"', warnings: [{ code: 299, agent: '-', text: 'ok' }] },
    // A value followed by neither a date nor a comma is itself invalid (apimachinery: "unexpected token after warn-date").
    { header: '299 - "ok" trailing, 299 - "after"', warnings: [] },
    {
      header: '299 - "first", 299 - "ok" trailing, 299 - "after"',
      warnings: [{ code: 299, agent: '-', text: 'first' }],
    },
    { header: '299 - "unterminated', warnings: [] },
    { header: '299 - unquoted', warnings: [] },
    { header: '299 - "ok", 299 - "bell\u0007"', warnings: [{ code: 299, agent: '-', text: 'ok' }] },
  ])('parses $header', ({ header, warnings }) => {
    expect(parseWarningHeaders(header)).toEqual(warnings);
  });

  it('hands every 299 warning of a response to the handler, with method and url without query', async () => {
    server.handler = (_request, res) => {
      // Two header lines: fetch joins them with ", ".
      res.setHeader('warning', [
        '299 - "first"',
        '199 - "not from the API server", 299 - "second \\"quoted\\""',
        '299 - ""',
      ]);
      jsonHandler(200, lease)(_request, res);
    };
    const warnings: ApiWarning[] = [];
    const client = createClient({ baseUrl: server.baseUrl, fetch: withWarnings(fetch, (w) => warnings.push(w)) });
    await client.request({ method: 'GET', path: LEASE_PATH, query: '?pretty=true' });
    const where = { method: 'GET', url: server.baseUrl + LEASE_PATH };
    expect(warnings).toEqual([
      { code: 299, agent: '-', text: 'first', ...where },
      { code: 299, agent: '-', text: 'second "quoted"', ...where },
    ]);
  });

  it('logs each distinct text once by default, sanitised', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const long = 'x'.repeat(2000);
      server.handler = (_request, res) => {
        res.setHeader(
          'warning',
          [`299 - "deprecated"`, `299 - "bidi \u202e override"`, `299 - "${long}"`].map((h) =>
            Buffer.from(h, 'utf8').toString('latin1'),
          ),
        );
        jsonHandler(200, lease)(_request, res);
      };
      const client = createClient({ baseUrl: server.baseUrl, fetch: withWarnings(fetch) });
      for (let i = 0; i < 3; i++) await client.request({ method: 'GET', path: LEASE_PATH });
      const logged = warn.mock.calls.map((call) => String(call[0]));
      expect(logged.slice(0, 2)).toEqual(['Warning: deprecated', 'Warning: bidi \\u202e override']);
      expect(logged).toHaveLength(3);
      expect(logged[2]?.length).toBeLessThan(600);
      expect(logged[2]?.endsWith('…')).toBe(true);
    } finally {
      warn.mockRestore();
    }
  });
});
