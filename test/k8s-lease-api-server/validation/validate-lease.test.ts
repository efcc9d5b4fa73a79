import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { startLeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import { NS_BASE, api, lease, openApi130, start } from '../helpers.js';

const QUALIFIED_NAME_RULE =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_RULE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

const SUBDOMAIN_MESSAGE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('semantic validation of the CoordinatedLeaderElection fields (gate on, else they are dropped)', () => {
  let gated: LeaseApiServer;
  beforeAll(async () => {
    gated = await start({ coordinatedLeaderElection: { resyncMs: 0 } });
  });
  afterAll(() => gated.close());

  it('forbids preferredHolder without strategy (1.31+ schema)', async () => {
    const res = await api(gated, 'POST', NS_BASE, { body: lease('ph', { preferredHolder: 'b' }) });
    expect(res.status).toBe(422);
    expect(res.body.details?.causes).toEqual([
      {
        reason: 'FieldValueForbidden',
        message: 'Forbidden: may only be specified if `strategy` is defined',
        field: 'spec.preferredHolder',
      },
    ]);
    const ok = await api(gated, 'POST', NS_BASE, {
      body: lease('ph', { preferredHolder: 'b', strategy: 'OldestEmulationVersion' }),
    });
    expect(ok.status).toBe(201);
  });

  // pkg/apis/coordination/validation ValidateLeaseSpec passes fldPath.Child("strategy") to
  // ValidateCoordinatedLeaseStrategy, which adds Child("strategy") again: the path is spec.strategy.strategy.
  it('only supports known strategies, at the path spec.strategy.strategy', async () => {
    const res = await api(gated, 'POST', NS_BASE, { body: lease('st', { strategy: 'Random' }) });
    expect(res.body.details?.causes?.[0]).toEqual({
      reason: 'FieldValueNotSupported',
      message: 'Unsupported value: "Random": supported values: "OldestEmulationVersion"',
      field: 'spec.strategy.strategy',
    });
    const custom = await api(gated, 'POST', NS_BASE, { body: lease('st', { strategy: 'a/b/c' }) });
    expect(custom.body.details?.causes?.map((c) => c.field)).toEqual(['spec.strategy.strategy']);
  });
});

describe('semantic validation (422 Invalid)', () => {
  let server: LeaseApiServer;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(() => server.close());

  // apimachinery pkg/api/validation/objectmeta.go validateObjectMetaAccessorWithOptsCommon: generation,
  // ValidateFinalizers, ValidateOwnerReferences/validateOwnerReference and ValidateAnnotations, as of v0.36.0.
  it.each<[string, Record<string, unknown>, string[], (string | RegExp)[]]>([
    [
      'a negative generation (ValidateNonnegativeField)',
      { generation: -3 },
      ['metadata.generation'],
      ['metadata.generation: Invalid value: -3: must be greater than or equal to 0'],
    ],
    [
      'orphan with foregroundDeletion',
      { finalizers: ['orphan', 'foregroundDeletion'] },
      ['metadata.finalizers'],
      // The value's rendering is not compared: this server prints a string list as Go's %#v (up to 1.33) in
      // every release (README, "Where it still differs").
      [/^metadata\.finalizers: Invalid value: .*: finalizer orphan and foregroundDeletion cannot be both set$/],
    ],
    [
      'a finalizer name, at the list path with no index',
      { finalizers: ['ok', 'bad finalizer'] },
      ['metadata.finalizers'],
      [`metadata.finalizers: Invalid value: "bad finalizer": ${QUALIFIED_NAME_RULE}`],
    ],
    [
      'a core v1 Event as owner (BannedOwners)',
      { ownerReferences: [{ apiVersion: 'v1', kind: 'Event', name: 'e', uid: 'u' }] },
      ['metadata.ownerReferences'],
      [
        'metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"u"}: /v1, Kind=Event is disallowed from being an owner',
      ],
    ],
    [
      'an apiVersion with two slashes (ParseGroupVersion fails: no version)',
      { ownerReferences: [{ apiVersion: 'a/b/c', kind: 'K', name: 'n', uid: 'u' }] },
      ['metadata.ownerReferences.apiVersion'],
      ['metadata.ownerReferences.apiVersion: Invalid value: "a/b/c": version must not be empty'],
    ],
    [
      'an annotation key, quoted as sent (checked lowercased)',
      { annotations: { 'Bad Key': 'v' } },
      ['metadata.annotations'],
      [`metadata.annotations: Invalid value: "Bad Key": ${QUALIFIED_NAME_RULE}`],
    ],
  ])('refuses %s', async (_what, meta, fields, messages) => {
    const res = await api(server, 'POST', NS_BASE, { body: lease('meta', {}, meta) });
    expect(res.status).toBe(422);
    expect(res.body.details?.causes?.map((c) => c.field)).toEqual(fields);
    const prefix = 'Lease.coordination.k8s.io "meta" is invalid: ';
    expect(res.body.message?.startsWith(prefix)).toBe(true);
    const [message] = messages;
    if (message instanceof RegExp) expect(res.body.message?.slice(prefix.length)).toMatch(message);
    else expect(res.body.message).toBe(`${prefix}${messages.join(', ')}`);
  });

  // meta/v1/validation ValidateManagedFields (ValidateFieldManager: at most 128 bytes, an Invalid per unprintable
  // rune as %#U at its byte offset; a subresource of at most 256 bytes), run by ValidateObjectMeta after the field
  // manager kept the decodable entries a create sent.
  it('refuses a managedFields entry whose manager is too long or unprintable, or whose subresource is too long', async () => {
    const manager = `${'é'.repeat(65)}\u0007`;
    const entry = {
      manager,
      operation: 'Update',
      apiVersion: 'coordination.k8s.io/v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:holderIdentity': {} } },
      subresource: 's'.repeat(257),
    };
    const res = await api(server, 'POST', NS_BASE, { body: lease('mf', {}, { managedFields: [entry] }) });
    expect(res.status).toBe(422);
    expect(res.body.details?.causes).toEqual([
      {
        reason: 'FieldValueTooLong',
        message: 'Too long: may not be more than 128 bytes',
        field: 'metadata.managedFields[0].manager',
      },
      {
        reason: 'FieldValueInvalid',
        // The value's rendering is not compared (Go's %q says "\a"; see the README's differences on values).
        message: expect.stringMatching(/^Invalid value: ".*": invalid character U\+0007 \(at position 130\)$/),
        field: 'metadata.managedFields[0].manager',
      },
      {
        reason: 'FieldValueTooLong',
        message: 'Too long: may not be more than 256 bytes',
        field: 'metadata.managedFields[0].subresource',
      },
    ]);
  });

  it("names both controllers in the one-controller error, after the references' own errors", async () => {
    const owners = [
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: 'u1', controller: true },
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'y', uid: '', controller: true },
    ];
    const res = await api(server, 'POST', NS_BASE, { body: lease('ctl', {}, { ownerReferences: owners }) });
    expect(res.status).toBe(422);
    expect(res.body.details?.causes?.map((c) => c.message)).toEqual([
      'Invalid value: "": must not be empty',
      `Invalid value: ${JSON.stringify(owners)}: Only one reference can have Controller set to true. Found "true" in references for ConfigMap/x and ConfigMap/y`,
    ]);
  });

  // field.ErrorList.ToAggregate skips a message already said; NewInvalid's causes keep every error.
  it('says a repeated message once and keeps every cause', async () => {
    const owners = [
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: '' },
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'y', uid: '' },
    ];
    const res = await api(server, 'POST', NS_BASE, { body: lease('dup', {}, { ownerReferences: owners }) });
    expect(res.body.message).toBe(
      'Lease.coordination.k8s.io "dup" is invalid: metadata.ownerReferences.uid: Invalid value: "": must not be empty',
    );
    expect(res.body.details?.causes).toHaveLength(2);
  });

  // objectmeta.go validateOwnerReference up to v0.33.0 named the field in its detail ("kind must not be empty");
  // v0.34.0 dropped it (commit 5937fdff).
  it.each([
    ['1.33', 'uid must not be empty'],
    ['1.34', 'must not be empty'],
  ])('words an empty owner uid as release %s does', async (release, detail) => {
    const old = await startLeaseApiServer({ release, namespaces: ['default'] });
    try {
      const owners = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: '' }];
      const res = await api(old, 'POST', NS_BASE, { body: lease('w', {}, { ownerReferences: owners }) });
      expect(res.body.details?.causes?.map((c) => c.message)).toEqual([`Invalid value: "": ${detail}`]);
    } finally {
      await old.close();
    }
  });

  it('rejects a name that is not a DNS-1123 subdomain', async () => {
    const res = await api(server, 'POST', NS_BASE, { body: lease('Bad_Name') });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `Lease.coordination.k8s.io "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": ${SUBDOMAIN_MESSAGE}`,
      reason: 'Invalid',
      details: {
        name: 'Bad_Name',
        group: 'coordination.k8s.io',
        kind: 'Lease',
        causes: [
          {
            reason: 'FieldValueInvalid',
            message: `Invalid value: "Bad_Name": ${SUBDOMAIN_MESSAGE}`,
            field: 'metadata.name',
          },
        ],
      },
      code: 422,
    });
  });

  it('requires a name or generateName', async () => {
    const res = await api(server, 'POST', NS_BASE, { body: { spec: {} } });
    expect(res.status).toBe(422);
    expect(res.body.details?.causes).toEqual([
      {
        reason: 'FieldValueRequired',
        message: 'Required value: name or generateName is required',
        field: 'metadata.name',
      },
    ]);
  });

  it('rejects non-positive leaseDurationSeconds and negative leaseTransitions, aggregating causes', async () => {
    const res = await api(server, 'POST', NS_BASE, {
      body: lease('spec', { leaseDurationSeconds: 0, leaseTransitions: -1 }),
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'Lease.coordination.k8s.io "spec" is invalid: [spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0, spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0]',
    );
    expect(res.body.details?.causes?.map((c) => c.field)).toEqual([
      'spec.leaseDurationSeconds',
      'spec.leaseTransitions',
    ]);
  });

  it('validates label keys and values', async () => {
    const res = await api(server, 'POST', NS_BASE, {
      body: lease('lbl', {}, { labels: { 'bad key': 'v', ok: 'bad value!' } }),
    });
    expect(res.status).toBe(422);
    expect(res.body.details?.causes?.map((c) => c.field)).toEqual(['metadata.labels', 'metadata.labels']);
  });

  // IsQualifiedName and IsValidLabelValue as apimachinery words them: every '/' splits, an empty name
  // also fails the regex, and lengths count UTF-8 bytes.
  const labelCases: [Record<string, string>, string[]][] = [
    [
      { 'a/': 'v' },
      ['Invalid value: "a/": name part must be non-empty', `Invalid value: "a/": ${QUALIFIED_NAME_RULE}`],
    ],
    [{ '/a': 'v' }, ['Invalid value: "/a": prefix part must be non-empty']],
    [
      { 'a/b/c': 'v' },
      [
        `Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
      ],
    ],
    [
      { ok: 'é'.repeat(32) },
      [
        `Invalid value: "${'é'.repeat(32)}": must be no more than 63 characters`,
        `Invalid value: "${'é'.repeat(32)}": ${LABEL_VALUE_RULE}`,
      ],
    ],
    [{ ok: 'v'.repeat(63) }, []],
  ];
  it.each(labelCases)('validates labels %j like IsQualifiedName/IsValidLabelValue', async (labels, messages) => {
    const res = await api(server, 'POST', NS_BASE, { body: lease('lbl-table', {}, { labels }) });
    if (messages.length === 0) {
      expect(res.status).toBe(201);
      await api(server, 'DELETE', `${NS_BASE}/lbl-table`);
      return;
    }
    expect(res.status).toBe(422);
    expect(res.body.details?.causes?.map((c) => c.message)).toEqual(messages);
    expect(res.body.details?.causes?.every((c) => c.field === 'metadata.labels')).toBe(true);
  });

  it('validates updates too', async () => {
    await api(server, 'POST', NS_BASE, { body: lease('upd') });
    const res = await api(server, 'PUT', `${NS_BASE}/upd`, { body: lease('upd', { leaseDurationSeconds: -5 }) });
    expect(res.status).toBe(422);
  });

  it('treats 1.31 fields as unknown for an older release', async () => {
    const old = await startLeaseApiServer({ openapi: openApi130(), release: '1.30.0' });
    try {
      const strict = await api(old, 'POST', `${NS_BASE}?fieldValidation=Strict`, {
        body: lease('old', { preferredHolder: 'b' }),
      });
      expect(strict.status).toBe(400);
      expect(strict.body.message).toBe(
        'Lease in version "v1" cannot be handled as a Lease: strict decoding error: unknown field "spec.preferredHolder"',
      );
      const warn = await api(old, 'POST', NS_BASE, {
        body: lease('old', { preferredHolder: 'b', holderIdentity: 'a' }),
      });
      expect(warn.status).toBe(201);
      expect(warn.body.spec).toEqual({ holderIdentity: 'a' });
    } finally {
      await old.close();
    }
  });
});
