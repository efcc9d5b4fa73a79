import { describe, expect, it, vi } from 'vitest';
import { defaultUserAgent } from '../../../../templates/k8s-lease-client/src/runtime/middleware/user-agent.js';
import { createClient } from '../../../../templates/k8s-lease-client/src/runtime/transport.js';
import { NS_BASE, start } from '../../../k8s-lease-api-server/helpers.js';

describe('defaultUserAgent', () => {
  it('is shaped like client-go’s and names this client as the field manager', async () => {
    const userAgent = defaultUserAgent({ version: '0.1.0', release: '1.35.0' });
    expect(userAgent).toMatch(/^k8s-lease-client\/0\.1\.0 \([a-z0-9]+\/[a-z0-9]+\) kubernetes\/1\.35\.0$/);
    expect(userAgent).toContain(
      `(${process.platform === 'win32' ? 'windows' : process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch})`,
    );
    expect(defaultUserAgent()).toMatch(/^k8s-lease-client\/unknown \(.+\) kubernetes\/unknown$/);
    expect(defaultUserAgent({ version: '1.2.3-rc.1', product: 'my ctl\r\nX-Evil: 1' })).toMatch(
      /^my_ctl__X-Evil__1\/1\.2\.3 \(/,
    );

    const api = await start();
    try {
      const client = createClient({ baseUrl: api.url, headers: { 'user-agent': userAgent } });
      const created = await client.request<{ metadata: { managedFields?: Array<{ manager?: string }> } }>({
        method: 'POST',
        path: NS_BASE,
        body: JSON.stringify({ metadata: { name: 'ua' }, spec: { holderIdentity: 'a' } }),
      });
      expect(created.metadata.managedFields?.map((entry) => entry.manager)).toEqual(['k8s-lease-client']);
    } finally {
      await api.close();
    }
  });

  it('leaves the platform out where there is no process (browsers)', () => {
    vi.stubGlobal('process', undefined);
    let userAgent: string;
    try {
      userAgent = defaultUserAgent({ version: '0.1.0', release: '1.35.0' });
    } finally {
      vi.unstubAllGlobals();
    }
    expect(userAgent).toBe('k8s-lease-client/0.1.0 kubernetes/1.35.0');
  });
});
