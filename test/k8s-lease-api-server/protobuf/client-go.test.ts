// Leader election through client-go ≥ 1.32's LeaseLock speaks protobuf: the bodies below are built byte for
// byte as its typed client marshals them (gogo's generated Marshal: ObjectMeta's value fields always written,
// LeaseSpec's pointer fields only when set; runtime.Unknown.NestedMarshalTo's envelope with the typed client's
// TypeMeta), with the independent encoder in test/k8s-lease-api-server/helpers/protobuf-wire.ts. Sources:
// k8s.io/client-go/tools/leaderelection/resourcelock/leaselock.go (Create, Update, LeaderElectionRecordToLeaseSpec),
// k8s.io/client-go/gentype/type.go (Delete sends Body(&opts)), k8s.io/client-go/rest/request.go
// (UseProtobufAsDefault: Accept "application/vnd.kubernetes.protobuf,application/json").
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import {
  bytes,
  concat,
  envelope,
  fieldsOf,
  int,
  msg,
  num,
  openEnvelope,
  order,
  readStatus,
  readTimestamp,
  str,
  sub,
  subs,
  text,
  timestamp,
} from '../helpers/protobuf-wire.js';
import { NS_BASE, api, start } from '../helpers.js';

const NOW = Date.parse('2026-03-01T10:00:00.250Z');
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const HEADERS = {
  'Content-Type': PROTOBUF,
  Accept: `${PROTOBUF},application/json`,
  'User-Agent': 'leader-elector/v0.0.0 (linux/amd64) kubernetes/$Format',
};
const EMPTY = new Uint8Array(0);

interface Meta {
  name: string;
  namespace: string;
  uid?: string;
  resourceVersion?: string;
  creationSeconds?: number;
  managedFields?: Uint8Array[];
}

/** ObjectMeta as gogo marshals it: fields 1-8 always (creationTimestamp empty when zero), managedFields (17). */
function objectMeta(m: Meta): Uint8Array {
  return concat(
    str(1, m.name),
    str(2, ''),
    str(3, m.namespace),
    str(4, ''),
    str(5, m.uid ?? ''),
    str(6, m.resourceVersion ?? ''),
    int(7, 0),
    m.creationSeconds === undefined ? bytes(8, EMPTY) : timestamp(8, m.creationSeconds, 0),
    ...(m.managedFields ?? []).map((entry) => bytes(17, entry)),
  );
}

interface Record {
  holder: string;
  durationSeconds: number;
  acquire: { seconds: number; nanos: number };
  renew: { seconds: number; nanos: number };
  transitions: number;
}

/** LeaderElectionRecordToLeaseSpec: holder, duration, both times (MicroTime: nanos cut to µs), transitions. */
function leaseSpec(r: Record): Uint8Array {
  return concat(
    str(1, r.holder),
    int(2, r.durationSeconds),
    timestamp(3, r.acquire.seconds, r.acquire.nanos),
    timestamp(4, r.renew.seconds, r.renew.nanos),
    int(5, r.transitions),
  );
}

function leaseBody(meta: Meta, record: Record): Uint8Array {
  return envelope('coordination.k8s.io/v1', 'Lease', concat(msg(1, objectMeta(meta)), msg(2, leaseSpec(record))));
}

async function send(
  server: LeaseApiServer,
  method: string,
  path: string,
  body?: Uint8Array,
): Promise<{ status: number; type: string | null; body: Uint8Array }> {
  const res = await fetch(server.url + path, {
    method,
    headers: HEADERS,
    body: body === undefined ? undefined : Buffer.from(body),
  });
  return { status: res.status, type: res.headers.get('content-type'), body: new Uint8Array(await res.arrayBuffer()) };
}

const record = (holder: string, renewSeconds: number, transitions = 0): Record => ({
  holder,
  durationSeconds: 15,
  acquire: { seconds: 1772359200, nanos: 123456000 },
  renew: { seconds: renewSeconds, nanos: 654321000 },
  transitions,
});

describe('client-go LeaseLock over protobuf', () => {
  let server: LeaseApiServer;
  beforeEach(async () => {
    server = await start({ clock: () => NOW });
  });
  afterEach(() => server.close());

  it('creates, renews and deletes its Lease, each answer in protobuf', async () => {
    // Create: ObjectMeta{Name, Namespace} and the record's spec.
    const created = await send(
      server,
      'POST',
      NS_BASE,
      leaseBody({ name: 'lock', namespace: 'default' }, record('node-a', 1772359200)),
    );
    expect(created.status).toBe(201);
    expect(created.type).toBe(PROTOBUF);
    const opened = openEnvelope(created.body);
    expect([opened.apiVersion, opened.kind, opened.order]).toEqual(['coordination.k8s.io/v1', 'Lease', [1, 2, 3, 4]]);
    expect(order(opened.raw)).toEqual([1, 2]);
    const meta = sub(opened.raw, 1) ?? EMPTY;
    expect(order(meta)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 17]);
    expect(text(meta, 1)).toBe('lock');
    expect(text(meta, 3)).toBe('default');
    const uid = text(meta, 5) ?? '';
    const rv = text(meta, 6) ?? '';
    expect(uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(rv).toMatch(/^\d+$/);
    expect(readTimestamp(sub(meta, 8))).toEqual({ seconds: Math.floor(NOW / 1000), nanos: 0 });
    const [managed] = subs(meta, 17);
    expect(text(managed ?? EMPTY, 1)).toBe('leader-elector');
    expect(text(managed ?? EMPTY, 2)).toBe('Update');
    expect(JSON.parse(text(sub(managed ?? EMPTY, 7) ?? EMPTY, 1) ?? '')).toEqual({
      'f:spec': {
        'f:acquireTime': {},
        'f:holderIdentity': {},
        'f:leaseDurationSeconds': {},
        'f:leaseTransitions': {},
        'f:renewTime': {},
      },
    });
    const spec = sub(opened.raw, 2) ?? EMPTY;
    expect(order(spec)).toEqual([1, 2, 3, 4, 5]);
    expect(text(spec, 1)).toBe('node-a');
    expect(num(spec, 2)).toBe(15);
    expect(readTimestamp(sub(spec, 3))).toEqual({ seconds: 1772359200, nanos: 123456000 });
    expect(readTimestamp(sub(spec, 4))).toEqual({ seconds: 1772359200, nanos: 654321000 });
    expect(num(spec, 5)).toBe(0);

    // The JSON view of the same Lease agrees (MicroTime with six digits).
    const json = await api(server, 'GET', `${NS_BASE}/lock`);
    expect(json.body.spec).toEqual({
      holderIdentity: 'node-a',
      leaseDurationSeconds: 15,
      acquireTime: '2026-03-01T10:00:00.123456Z',
      renewTime: '2026-03-01T10:00:00.654321Z',
      leaseTransitions: 0,
    });

    // Renew: the Lease as read back (uid, resourceVersion, creationTimestamp, managedFields) with a new record.
    const renewMeta: Meta = {
      name: 'lock',
      namespace: 'default',
      uid,
      resourceVersion: rv,
      creationSeconds: Math.floor(NOW / 1000),
      managedFields: subs(meta, 17),
    };
    const renewed = await send(server, 'PUT', `${NS_BASE}/lock`, leaseBody(renewMeta, record('node-a', 1772359202)));
    expect(renewed.status).toBe(200);
    const renewedRaw = openEnvelope(renewed.body).raw;
    expect(readTimestamp(sub(sub(renewedRaw, 2) ?? EMPTY, 4))).toEqual({ seconds: 1772359202, nanos: 654321000 });
    const newRv = text(sub(renewedRaw, 1) ?? EMPTY, 6);
    expect(Number(newRv)).toBeGreaterThan(Number(rv));

    // The same renewal again carries a stale resourceVersion: 409 Conflict, as a protobuf Status.
    const stale = await send(server, 'PUT', `${NS_BASE}/lock`, leaseBody(renewMeta, record('node-b', 1772359203)));
    expect(stale.status).toBe(409);
    expect(stale.type).toBe(PROTOBUF);
    expect(readStatus(stale.body)).toMatchObject({
      apiVersion: 'v1',
      kind: 'Status',
      status: 'Failure',
      reason: 'Conflict',
      code: 409,
      message:
        'Operation cannot be fulfilled on leases.coordination.k8s.io "lock": the object has been modified; please apply your changes to the latest version and try again',
    });

    // Delete with DeleteOptions{Preconditions{UID, ResourceVersion}, PropagationPolicy} in the typed
    // client's group version (runtime.WithVersionEncoder picks coordination.k8s.io/v1 for DeleteOptions).
    const options = concat(msg(2, str(1, uid), str(2, newRv ?? '')), str(4, 'Background'));
    const deleted = await send(
      server,
      'DELETE',
      `${NS_BASE}/lock`,
      envelope('coordination.k8s.io/v1', 'DeleteOptions', options),
    );
    expect(deleted.status).toBe(200);
    const status = readStatus(deleted.body);
    expect(status).toMatchObject({ apiVersion: 'v1', kind: 'Status', status: 'Success' });
    const details = status.details ?? EMPTY;
    expect([text(details, 1), text(details, 2), text(details, 3), text(details, 6)]).toEqual([
      'lock',
      'coordination.k8s.io',
      'leases',
      uid,
    ]);
    const gone = await send(server, 'GET', `${NS_BASE}/lock`);
    expect(gone.status).toBe(404);
    expect(readStatus(gone.body)).toMatchObject({
      reason: 'NotFound',
      code: 404,
      message: 'leases.coordination.k8s.io "lock" not found',
    });
  });

  it('refuses a delete whose preconditions no longer hold, and takes empty DeleteOptions', async () => {
    await send(server, 'POST', NS_BASE, leaseBody({ name: 'lock', namespace: 'default' }, record('a', 1772359200)));
    const wrongUid = concat(msg(2, str(1, 'not-the-uid')));
    const refused = await send(
      server,
      'DELETE',
      `${NS_BASE}/lock`,
      envelope('coordination.k8s.io/v1', 'DeleteOptions', wrongUid),
    );
    expect(refused.status).toBe(409);
    expect(readStatus(refused.body).reason).toBe('Conflict');
    // metav1.DeleteOptions{} marshals to nothing: the envelope carries an empty raw.
    const plain = await send(
      server,
      'DELETE',
      `${NS_BASE}/lock`,
      envelope('coordination.k8s.io/v1', 'DeleteOptions', EMPTY),
    );
    expect(plain.status).toBe(200);
    expect(readStatus(plain.body).status).toBe('Success');
  });

  it('answers GET and LIST in protobuf byte for byte as gogo marshals what JSON shows', async () => {
    await send(server, 'POST', NS_BASE, leaseBody({ name: 'one', namespace: 'default' }, record('a', 1772359200)));
    const json = await api(server, 'GET', `${NS_BASE}/one`);
    const m = json.body.metadata ?? {};
    const entry = m.managedFields?.[0] ?? {};
    const managed = concat(
      str(1, entry.manager ?? ''),
      str(2, entry.operation ?? ''),
      str(3, entry.apiVersion ?? ''),
      timestamp(4, Date.parse(entry.time ?? '') / 1000, 0),
      str(6, entry.fieldsType ?? ''),
      msg(7, str(1, JSON.stringify(entry.fieldsV1))),
      str(8, ''),
    );
    const expectedRaw = concat(
      msg(
        1,
        objectMeta({
          name: 'one',
          namespace: 'default',
          uid: m.uid ?? '',
          resourceVersion: m.resourceVersion ?? '',
          creationSeconds: Date.parse(m.creationTimestamp ?? '') / 1000,
          managedFields: [managed],
        }),
      ),
      msg(2, leaseSpec(record('a', 1772359200))),
    );
    const got = await send(server, 'GET', `${NS_BASE}/one`);
    expect(Buffer.from(got.body).toString('hex')).toBe(
      Buffer.from(envelope('coordination.k8s.io/v1', 'Lease', expectedRaw)).toString('hex'),
    );
    const list = await send(server, 'GET', NS_BASE);
    const listed = openEnvelope(list.body);
    expect([listed.apiVersion, listed.kind]).toEqual(['coordination.k8s.io/v1', 'LeaseList']);
    // ListMeta: selfLink, resourceVersion and continue are value fields, written even when empty.
    expect(fieldsOf(sub(listed.raw, 1) ?? EMPTY).map((f) => f.field)).toEqual([1, 2, 3]);
    expect(Buffer.from(subs(listed.raw, 2)[0] ?? EMPTY).toString('hex')).toBe(Buffer.from(expectedRaw).toString('hex'));
  });

  it("takes kubectl 1.33's own protobuf Namespace create (captured with -v=9) and answers in protobuf", async () => {
    // `kubectl.1.33 create namespace pbtest2 -v=9`, request body as logged.
    const captured = Buffer.from(
      '6b3873000a0f0a0276311209' +
        '4e616d657370616365121f0a170a077062746573743212001a0022002a00320038004200' +
        '12001a020a001a002200',
      'hex',
    );
    // The same bytes from the independent encoder: gogo writes every ObjectMeta value field, NamespaceSpec
    // and NamespaceStatus (phase "") even when empty.
    const built = envelope(
      'v1',
      'Namespace',
      concat(
        msg(
          1,
          str(1, 'pbtest2'),
          str(2, ''),
          str(3, ''),
          str(4, ''),
          str(5, ''),
          str(6, ''),
          int(7, 0),
          bytes(8, EMPTY),
        ),
        msg(2),
        msg(3, str(1, '')),
      ),
    );
    expect(Buffer.from(built).equals(captured)).toBe(true);
    const res = await fetch(`${server.url}/api/v1/namespaces?fieldManager=kubectl-create&fieldValidation=Strict`, {
      method: 'POST',
      headers: { 'Content-Type': PROTOBUF, Accept: `${PROTOBUF},application/json` },
      body: captured,
    });
    expect(res.status).toBe(201);
    const opened = openEnvelope(new Uint8Array(await res.arrayBuffer()));
    expect([opened.apiVersion, opened.kind]).toEqual(['v1', 'Namespace']);
    expect(order(opened.raw)).toEqual([1, 2, 3]);
    const meta = sub(opened.raw, 1) ?? EMPTY;
    expect(text(meta, 1)).toBe('pbtest2');
    const [label] = subs(meta, 11);
    expect([text(label ?? EMPTY, 1), text(label ?? EMPTY, 2)]).toEqual(['kubernetes.io/metadata.name', 'pbtest2']);
    expect(subs(sub(opened.raw, 2) ?? EMPTY, 1).map((b) => Buffer.from(b).toString())).toEqual(['kubernetes']);
    expect(text(sub(opened.raw, 3) ?? EMPTY, 1)).toBe('Active');
  });
});
