// kubectl's move from client-side to server-side apply: conflicts on fields the last-applied annotation
// still holds as they are live are forgiven for the "kubectl" manager, and the annotation follows its
// applies (apimachinery managedfields/internal lastappliedmanager.go, lastappliedupdater.go).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { NS_BASE, api, lease, start } from '../helpers.js';

const APPLY = 'application/apply-patch+yaml';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

describe('last-applied configuration and server-side apply', () => {
  let server: LeaseApiServer;
  beforeEach(async () => {
    server = await start({ clock: () => Date.parse('2024-05-01T10:00:00Z') });
  });
  afterEach(() => server.close());

  const apply = (manager: string, body: unknown, force = false) =>
    api(server, 'PATCH', `${NS_BASE}/d?fieldManager=${manager}${force ? '&force=true' : ''}`, {
      contentType: APPLY,
      body,
    });

  /** The object a client-side apply left: created by an Update manager, with the annotation. */
  const createOriginal = (live: ReturnType<typeof lease>, lastApplied: ReturnType<typeof lease>) =>
    api(server, 'POST', `${NS_BASE}?fieldManager=test_client_side_apply`, {
      body: {
        ...live,
        metadata: { ...live.metadata, annotations: { [LAST_APPLIED]: JSON.stringify(lastApplied) } },
      },
    });

  it('forgives only conflicts on fields whose last-applied value is live, then force resolves the rest', async () => {
    // lastappliedmanager_test.go TestApplyUsingLastAppliedAnnotation, first case: a label missing from
    // the last-applied configuration and a value that no longer matches it still conflict.
    await createOriginal(
      lease('d', { holderIdentity: 'h', leaseDurationSeconds: 100 }, { labels: { app: 'my-app' } }),
      lease('d', { holderIdentity: 'h', leaseDurationSeconds: 3 }),
    );
    const applied = lease(
      'd',
      { holderIdentity: 'new', leaseDurationSeconds: 333 },
      { labels: { app: 'my-new-label' } },
    );
    const res = await apply('kubectl', applied);
    expect(res.status).toBe(409);
    expect(res.body.details?.causes?.map((c) => c.field)).toEqual([
      '.metadata.labels.app',
      '.spec.leaseDurationSeconds',
    ]);
    expect((await apply('kubectl', applied, true)).status).toBe(200);
  });

  it('applies without conflict when every conflicting field is as last applied', async () => {
    // lastappliedmanager_test.go TestApplyUsingLastAppliedAnnotation: the conflict set is empty.
    await createOriginal(
      lease('d', { holderIdentity: 'h', leaseDurationSeconds: 3 }, { labels: { app: 'my-app' } }),
      lease('d', { holderIdentity: 'h', leaseDurationSeconds: 3 }, { labels: { app: 'my-app' } }),
    );
    const res = await apply(
      'kubectl',
      lease('d', { holderIdentity: 'new', leaseDurationSeconds: 4 }, { labels: { app: 'x' } }),
    );
    expect(res.status).toBe(200);
    expect(res.body.spec).toEqual({ holderIdentity: 'new', leaseDurationSeconds: 4 });
  });

  it('still conflicts for another manager', async () => {
    // lastappliedmanager.go Apply: only the "kubectl" manager is forgiven.
    await createOriginal(lease('d', { holderIdentity: 'h' }), lease('d', { holderIdentity: 'h' }));
    expect((await apply('not-kubectl', lease('d', { holderIdentity: 'new' }))).status).toBe(409);
  });

  it('updates an existing annotation on kubectl applies only', async () => {
    // lastappliedupdater_test.go TestLastAppliedUpdater.
    const body = lease(
      'd',
      { holderIdentity: 'h' },
      { annotations: { [LAST_APPLIED]: 'nonempty' }, labels: { app: 'my-app' } },
    );
    const other = await apply('NOT-KUBECTL', body);
    expect(other.body.metadata?.annotations?.[LAST_APPLIED]).toBe('nonempty');
    const kubectl = await apply('kubectl', body);
    expect(kubectl.status).toBe(200);
    // buildLastApplied: the applied object without its own annotation, as Go's JSON encoder writes it.
    expect(kubectl.body.metadata?.annotations?.[LAST_APPLIED]).toBe(
      '{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"annotations":{},"labels":{"app":"my-app"},"name":"d"},"spec":{"holderIdentity":"h"}}\n',
    );
  });
});
