// Query values as kube-apiserver decodes them (apimachinery's url.Values conversions, labels.Parse,
// fields.ParseSelector): each hostile value gets the real server's status and message, and leaves the
// stored Leases untouched and the server serving.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  parseListRequest,
  parseQueryBool,
  watchTimeoutMs,
} from '../../../templates/k8s-lease-api-server/src/http/request-options.js';
import { startLeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import type { LeaseApiServer } from '../../../templates/k8s-lease-api-server/src/index.js';
import type { JsonBody } from '../helpers.js';
import { BASE, NS_BASE, api, create, start, watch } from '../helpers.js';

const QUALIFIED_NAME_RULE =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_RULE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const UNKNOWN_FIELD = (field: string): string =>
  `"${field}" is not a known field selector: only "metadata.name", "metadata.namespace"`;

let server: LeaseApiServer;
let sentinel: JsonBody;

beforeAll(async () => {
  server = await start();
  sentinel = await create(
    server,
    'sentinel',
    { holderIdentity: 'keep', leaseDurationSeconds: 15 },
    { labels: { app: 'web', n: '5' } },
  );
  await create(server, 'empty-a', {}, { labels: { a: '' } });
  await create(server, 'ctor', {}, { labels: { constructor: 'x' } });
  await create(server, 'big', {}, { labels: { n: '9223372036854775807' } });
});
afterAll(() => server.close());

function names(body: JsonBody): string[] {
  return (body.items ?? []).map((i) => i.metadata?.name ?? '');
}

/** The sentinel reads back byte-for-byte as stored, so the server is up and nothing was changed. */
async function expectIntact(): Promise<void> {
  const res = await api(server, 'GET', `${NS_BASE}/sentinel`);
  expect(res.status).toBe(200);
  expect(res.body).toEqual(sentinel);
}

async function expectBadRequest(query: string, message: string): Promise<void> {
  const res = await api(server, 'GET', `${NS_BASE}?${query}`);
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400, message });
  await expectIntact();
}

async function isWatch(query: string): Promise<boolean> {
  const controller = new AbortController();
  const res = await fetch(`${server.url}${NS_BASE}?${query}`, { signal: controller.signal });
  expect(res.status).toBe(200);
  // A list answers a LeaseList; a watch answers newline-delimited events, the first an ADDED.
  const reader = res.body?.getReader();
  const first = reader === undefined ? undefined : await reader.read();
  controller.abort();
  const text = new TextDecoder().decode(first?.value);
  return text.startsWith('{"type":"ADDED"');
}

describe('boolean query values (Convert_Slice_string_To_bool: only 0 and false, any case, are false)', () => {
  const cases: [string, boolean][] = [
    ['watch=true', true],
    ['watch=True', true], // the official Python client's spelling
    ['watch=1', true],
    ['watch=', true],
    ['watch=yes', true],
    ['watch=no', true],
    ['watch=false', false],
    ['watch=False', false],
    ['watch=FALSE', false],
    ['watch=fal%C5%BFe', false], // "falſe": strings.EqualFold folds ſ to s
    ['watch=0', false],
    ['watch=00', true],
    ['watch=false&watch=true', false], // the first value counts
    ['', false],
  ];
  it.each(cases)('%s → watch %s', async (query, expected) => {
    expect(await isWatch(query)).toBe(expected);
    await expectIntact();
  });

  it('reads sendInitialEvents= as a set true (a *bool), which a list forbids', async () => {
    const res = await api(server, 'GET', `${NS_BASE}?sendInitialEvents=`);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list',
    );
    await expectIntact();
  });

  it('reads force=false as set, which a non-apply patch forbids', async () => {
    const res = await api(server, 'PATCH', `${NS_BASE}/sentinel?force=false`, {
      body: { spec: { holderIdentity: 'changed' } },
      contentType: 'application/merge-patch+json',
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    );
    await expectIntact();
  });
});

describe('integer query values (strconv.ParseInt(s, 10, 64))', () => {
  const accepted: [string, number][] = [
    ['limit=%2B1', 1],
    ['limit=1', 1],
    ['limit=001', 1],
    ['limit=-1', 4],
    ['limit=0', 4],
    ['limit=-0', 4],
    ['limit=9223372036854775807', 4],
    ['limit=-9223372036854775808', 4],
  ];
  it.each(accepted)('%s → 200 with %i items', async (query, count) => {
    const res = await api(server, 'GET', `${NS_BASE}?${query}`);
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(count);
  });

  const rejected: [string, string][] = [
    ['limit=', 'strconv.ParseInt: parsing "": invalid syntax'],
    ['limit=%2B', 'strconv.ParseInt: parsing "+": invalid syntax'],
    ['limit=1.5', 'strconv.ParseInt: parsing "1.5": invalid syntax'],
    ['limit=1e3', 'strconv.ParseInt: parsing "1e3": invalid syntax'],
    ['limit=%201', 'strconv.ParseInt: parsing " 1": invalid syntax'],
    ['limit=0x10', 'strconv.ParseInt: parsing "0x10": invalid syntax'],
    ['limit=1_000', 'strconv.ParseInt: parsing "1_000": invalid syntax'],
    ['limit=--1', 'strconv.ParseInt: parsing "--1": invalid syntax'],
    ['limit=9223372036854775808', 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
    ['limit=-9223372036854775809', 'strconv.ParseInt: parsing "-9223372036854775809": value out of range'],
    ['limit=99999999999999999999x', 'strconv.ParseInt: parsing "99999999999999999999x": value out of range'],
    ['limit=%00', 'strconv.ParseInt: parsing "\\x00": invalid syntax'],
    ['limit=%C3%A9', 'strconv.ParseInt: parsing "é": invalid syntax'],
    ['limit=%22%5C', 'strconv.ParseInt: parsing "\\"\\\\": invalid syntax'],
    ['timeoutSeconds=', 'strconv.ParseInt: parsing "": invalid syntax'],
    ['timeoutSeconds=1s', 'strconv.ParseInt: parsing "1s": invalid syntax'],
    ['watch=1&timeoutSeconds=1e3', 'strconv.ParseInt: parsing "1e3": invalid syntax'],
    // ListOptions' fields convert in declaration order: timeoutSeconds, then limit, then the selectors.
    ['limit=x&timeoutSeconds=y', 'strconv.ParseInt: parsing "y": invalid syntax'],
    ['labelSelector=%40%40%40&limit=x', 'strconv.ParseInt: parsing "x": invalid syntax'],
  ];
  it.each(rejected)('%s → 400 %s', async (query, message) => {
    await expectBadRequest(query, message);
  });

  it('rejects a bad gracePeriodSeconds on delete with the same message, deleting nothing', async () => {
    const res = await api(server, 'DELETE', `${NS_BASE}/sentinel?gracePeriodSeconds=1.0`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      reason: 'BadRequest',
      message: 'strconv.ParseInt: parsing "1.0": invalid syntax',
    });
    await expectIntact();
  });
});

describe('delete options', () => {
  it('reads the query only when the body is empty (DeleteResource), so a bad query beside a body is ignored', async () => {
    await create(server, 'victim');
    const body = { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] };
    const res = await api(server, 'DELETE', `${NS_BASE}/victim?gracePeriodSeconds=x&dryRun=bogus`, { body });
    expect(res.status).toBe(200);
    expect((await api(server, 'GET', `${NS_BASE}/victim`)).status).toBe(200);
    expect((await api(server, 'DELETE', `${NS_BASE}/victim`)).status).toBe(200);
    await expectIntact();
  });
});

describe('watch timeoutSeconds (time.Duration(timeoutSeconds) * time.Second)', () => {
  it('keeps a watch with a timeout beyond setTimeout range open', async () => {
    const w = await watch(server, `${NS_BASE}?watch=true&timeoutSeconds=2147484`);
    expect(w.status).toBe(200);
    expect((await w.next()).type).toBe('ADDED');
    const outcome = await Promise.race([
      w.ended,
      new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), 500)),
    ]);
    expect(outcome).toBe('open');
    w.close();
    await expectIntact();
  });

  it('ends a watch with timeoutSeconds=1', async () => {
    const w = await watch(server, `${NS_BASE}?watch=true&timeoutSeconds=1`);
    expect(await w.ended).toBe('end');
  });

  const expired: string[] = ['-1', '9223372036854775807'];
  it.each(expired)('ends at once when the duration is negative (timeoutSeconds=%s wraps as Go does)', async (value) => {
    const w = await watch(server, `${NS_BASE}?watch=true&timeoutSeconds=${value}`);
    expect(w.status).toBe(200);
    expect(await w.ended).toBe('end');
    await expectIntact();
  });
});

describe('label selectors (labels.Parse)', () => {
  const matching: [string, string[]][] = [
    ['a in ()', ['empty-a']], // "()" is the set {""}
    ['a in (x,,y)', ['empty-a']],
    ['a=', ['empty-a']],
    ['constructor', ['ctor']],
    ['!constructor', ['big', 'empty-a', 'sentinel']],
    ['constructor=x', ['ctor']],
    ['toString', []],
    ['hasOwnProperty!=x', ['big', 'ctor', 'empty-a', 'sentinel']],
    ['n>4', ['big', 'sentinel']],
    ['n<9223372036854775807', ['sentinel']],
    ['n>9223372036854775806', ['big']],
    ['in=in', []],
    ['app in (in, notin)', []],
    ['app=\u0000web', ['sentinel']], // the lexer reads a NUL as a 0 byte: here a separator
    ['\u0000garbage', ['big', 'ctor', 'empty-a', 'sentinel']], // and at a token's start, the end
    [' app = web ', ['sentinel']],
  ];
  it.each(matching)('%j → %j', async (selector, expected) => {
    const res = await api(server, 'GET', `${NS_BASE}?labelSelector=${encodeURIComponent(selector)}`);
    expect(res.status).toBe(200);
    expect(names(res.body).sort()).toEqual(expected);
  });

  const rejected: [string, string][] = [
    ['@@@', `unable to parse requirement: <nil>: Invalid value: "@@@": ${QUALIFIED_NAME_RULE}`],
    ['__proto__', `unable to parse requirement: <nil>: Invalid value: "__proto__": ${QUALIFIED_NAME_RULE}`],
    ['__proto__=x', `unable to parse requirement: <nil>: Invalid value: "__proto__": ${QUALIFIED_NAME_RULE}`],
    [
      `a=${'v'.repeat(64)}`,
      `unable to parse requirement: values[0][a]: Invalid value: "${'v'.repeat(64)}": must be no more than 63 characters`,
    ],
    [
      `${'k'.repeat(64)}`,
      `unable to parse requirement: <nil>: Invalid value: "${'k'.repeat(64)}": name part must be no more than 63 characters`,
    ],
    [
      'a/',
      `unable to parse requirement: <nil>: Invalid value: "a/": name part must be non-empty; ${QUALIFIED_NAME_RULE}`,
    ],
    [
      'a/b/c',
      `unable to parse requirement: <nil>: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ],
    ['a=b\u0001', `unable to parse requirement: values[0][a]: Invalid value: "b\\x01": ${LABEL_VALUE_RULE}`],
    ['a in (zz$, b)', `unable to parse requirement: values[1][a]: Invalid value: "zz$": ${LABEL_VALUE_RULE}`],
    [
      'n>x',
      `unable to parse requirement: values[0]: Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    [
      'n>99999999999999999999',
      `unable to parse requirement: values[0]: Invalid value: "99999999999999999999": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    [
      'n<-x$',
      `unable to parse requirement: [values[0]: Invalid value: "-x$": for 'Gt', 'Lt' operators, the value must be an integer, values[0][n]: Invalid value: "-x$": ${LABEL_VALUE_RULE}]`,
    ],
    ['a in (x', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['a in x', "unable to parse requirement: found 'x' expected: '('"],
    ['a in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['a in (,=)', "unable to parse requirement: found '=', expected: ',', or identifier"],
    ['a b', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    ['a!', "unable to parse requirement: found '!', expected: in, notin, =, ==, !=, gt, lt"],
    ['a==(', "unable to parse requirement: found '(', expected: identifier"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['a,', "found '', expected: identifier after ','"],
    ['a,,b', "found ',', expected: identifier after ','"],
    ['=x', "found '=', expected: !, identifier, or 'end of string'"],
    ['a=b c', "found 'c', expected: ',' or 'end of string'"],
    ['!a=b', "found '=', expected: ',' or 'end of string'"],
    ['a=b)', "found ')', expected: ',' or 'end of string'"],
  ];
  it.each(rejected)('%j → 400', async (selector, message) => {
    await expectBadRequest(`labelSelector=${encodeURIComponent(selector)}`, message);
  });
});

describe('field selectors (fields.ParseSelector, then the default field-label conversion)', () => {
  const matching: [string, string[]][] = [
    ['metadata.name=sentinel', ['sentinel']],
    ['metadata.name==sentinel', ['sentinel']],
    ['metadata.name!=sentinel,metadata.namespace=default', ['big', 'ctor', 'empty-a']],
    ['metadata.name=', []],
    [',metadata.name=ctor,', ['ctor']],
  ];
  it.each(matching)('%j → %j', async (selector, expected) => {
    const res = await api(server, 'GET', `${NS_BASE}?fieldSelector=${encodeURIComponent(selector)}`);
    expect(res.status).toBe(200);
    expect(names(res.body).sort()).toEqual(expected);
  });

  const rejected: [string, string][] = [
    ['metadata.name', "invalid selector: 'metadata.name'; can't understand 'metadata.name'"],
    // terms are sorted before parsing: the first bad term in byte order is reported
    ['z=1,metadata.name', "invalid selector: 'z=1,metadata.name'; can't understand 'metadata.name'"],
    ['metadata.name=a=b', 'invalid field selector: unescapedRune character in value: 61'],
    ['metadata.name=a\\x', 'invalid field selector: invalid escape sequence: \\x'],
    ['metadata.name=a\\', 'invalid field selector: invalid escape sequence: \\'],
    ['spec.holderIdentity=keep', UNKNOWN_FIELD('spec.holderIdentity')],
    [' metadata.name=sentinel', UNKNOWN_FIELD(' metadata.name')],
    ['__proto__=x', UNKNOWN_FIELD('__proto__')],
    ['constructor!=x', UNKNOWN_FIELD('constructor')],
    ['z=1,a=2', UNKNOWN_FIELD('a')],
    ['bad\u0001=1', UNKNOWN_FIELD('bad\\x01')],
  ];
  it.each(rejected)('%j → 400', async (selector, message) => {
    await expectBadRequest(`fieldSelector=${encodeURIComponent(selector)}`, message);
  });

  it('takes the name of a single-object watch path as a literal, not as selector syntax', async () => {
    const w = await watch(server, `${BASE}/watch/namespaces/default/leases/a%3Db%2Cc%5C?timeoutSeconds=1`);
    expect(w.status).toBe(200);
    expect(await w.ended).toBe('end');
    await expectIntact();
  });

  it('reports ListOptions validation (422) before the field-label conversion (400), as ListResource does', async () => {
    const res = await api(server, 'GET', `${NS_BASE}?fieldSelector=spec.x%3D1&resourceVersionMatch=Exact`);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    );
    await expectIntact();
  });

  it('reports a label-selector error before a field-selector one', async () => {
    await expectBadRequest(
      `labelSelector=%40&fieldSelector=x`,
      `unable to parse requirement: <nil>: Invalid value: "@": ${QUALIFIED_NAME_RULE}`,
    );
  });
});

describe('boolean query values', () => {
  const cases: [string | null, boolean | undefined][] = [
    [null, undefined],
    ['', true],
    ['true', true],
    ['True', true],
    ['1', true],
    ['no', true],
    ['0', false],
    ['false', false],
    ['FaLsE', false],
    ['falſe', false],
    ['false ', true],
  ];
  it.each(cases)('%j → %s', (value, expected) => {
    expect(parseQueryBool(value)).toBe(expected);
  });
});

describe('watch lifetime from timeoutSeconds', () => {
  const cases: [bigint | undefined, number, number][] = [
    [undefined, 0, 1_800_000],
    [undefined, 0.5, 2_700_000],
    [0n, 0.999, 3_598_200],
    [1n, 0, 1000],
    [2147484n, 0, 2_147_484_000],
    [9223372036n, 0, 9_223_372_036_000],
    [-1n, 0, 0],
    [9223372037n, 0, 0],
    [18446744074n, 0, 290],
  ];
  it.each(cases)('%s s (random %s) → %i ms', (seconds, random, expected) => {
    expect(watchTimeoutMs(seconds, random)).toBe(expected);
  });
});

// apimachinery pkg/apis/meta/internalversion/validation/validation_test.go TestValidateListOptions, its watch cases:
// ValidateListOptions is given the WatchList gate (handlers/get.go ListResource), so a release with the gate off
// (1.27–1.31, 1.33) refuses sendInitialEvents outright, and a test that streams initial events against such a
// server fails here as it fails on that cluster.
describe('watch ListOptions validation with the WatchList gate (validateWatchOptions)', () => {
  const GATE_OFF =
    'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled';
  const NEEDS_NOT_OLDER_THAN =
    'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan';
  const message = (errors: string[]): string | undefined =>
    errors.length === 0
      ? undefined
      : `ListOptions.meta.k8s.io "" is invalid: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}`;
  it.each<[string, string, boolean, string[]]>([
    ['valid-watch-default', 'watch=true', false, []],
    [
      'valid-watch-sendInitialEvents-on',
      'watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true',
      true,
      [],
    ],
    [
      'valid-watch-sendInitialEvents-off',
      'watch=true&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true',
      true,
      [],
    ],
    [
      'watch-sendInitialEvents-without-resourceversionmatch-forbidden',
      'watch=true&sendInitialEvents=true',
      false,
      [NEEDS_NOT_OLDER_THAN, GATE_OFF],
    ],
    [
      'watch-sendInitialEvents-off-with-empty-resourceversionmatch-forbidden',
      'watch=true&sendInitialEvents=false&resourceVersionMatch=',
      false,
      [NEEDS_NOT_OLDER_THAN, GATE_OFF],
    ],
    [
      'watch-sendInitialEvents-no-allowWatchBookmark',
      'watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan',
      true,
      [],
    ],
    [
      'watch-sendInitialEvents-no-watchlist-fg-disabled',
      'watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true',
      false,
      [GATE_OFF],
    ],
    [
      'watch-sendInitialEvents-no-watchlist-fg-disabled (continue)',
      'watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&continue=123',
      true,
      ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided'],
    ],
  ])('%s', (_name, query, gate, errors) => {
    const parsed = parseListRequest(new URLSearchParams(query), 'default', false, gate, 'json');
    expect(parsed.ok ? undefined : parsed.error.message).toBe(message(errors));
  });

  it('a 1.33 server (gate off) answers a sendInitialEvents watch 422; a 1.34 server, or 1.33 with the gate on, streams it', async () => {
    const query = '?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true';
    const off = await startLeaseApiServer({ release: '1.33', namespaces: ['default'] });
    try {
      const res = await api(off, 'GET', `${NS_BASE}${query}`);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422, message: message([GATE_OFF]) });
    } finally {
      await off.close();
    }
    // The gate as a 1.34 cluster has it by default, and as a 1.33 cluster started with --feature-gates WatchList=true.
    await expectStreams(await startLeaseApiServer({ release: '1.34', namespaces: ['default'] }));
    await expectStreams(await startLeaseApiServer({ release: '1.33', watchList: true, namespaces: ['default'] }));
    const gateOff = await startLeaseApiServer({ release: '1.34', watchList: false, namespaces: ['default'] });
    try {
      expect((await api(gateOff, 'GET', `${NS_BASE}${query}`)).status).toBe(422);
    } finally {
      await gateOff.close();
    }
  });

  async function expectStreams(on: LeaseApiServer): Promise<void> {
    const query = '?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true';
    try {
      const controller = new AbortController();
      const res = await fetch(`${on.url}${NS_BASE}${query}`, { signal: controller.signal });
      expect(res.status).toBe(200);
      controller.abort();
    } finally {
      await on.close();
    }
  }
});
