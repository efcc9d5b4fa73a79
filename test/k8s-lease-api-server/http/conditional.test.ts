// Entity tags and conditional GETs of the discovery and OpenAPI documents: kube-openapi handler.go
// computeETag is fmt.Sprintf("%X", sha512.Sum512(data)) sent through strconv.Quote; net/http fs.go
// checkIfNoneMatch (weak comparison, "*", a comma-separated list) takes precedence over
// checkIfModifiedSince (whole seconds); http.TimeFormat and time.RFC1123 render the dates.
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  clientCopyIsCurrent,
  documentHash,
  httpDate,
  quoted,
  rfc1123,
} from '../../../templates/k8s-lease-api-server/src/http/conditional.js';

function request(headers: Record<string, string>): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.headers = headers;
  return req;
}

const TAG = quoted(documentHash('{"paths":{}}'));
const MODIFIED = new Date('2026-01-02T03:04:05.678Z');

describe('documentHash and quoted', () => {
  it('is the upper-case hex SHA-512 of the bytes, quoted', () => {
    expect(documentHash('')).toBe(
      'CF83E1357EEFB8BDF1542850D66D8007D620E4050B5715DC83F4A921D36CE9CE47D0D13C5D85F2B0FF8318D2877EEC2F63B931BD47417A81A538327AF927DA3E',
    );
    expect(documentHash(Buffer.from('abc'))).toBe(documentHash('abc'));
    expect(quoted('AB')).toBe('"AB"');
  });
});

describe('clientCopyIsCurrent (checkIfNoneMatch, then checkIfModifiedSince)', () => {
  it.each<[string, Record<string, string>, boolean]>([
    ['no conditions', {}, false],
    ['the same tag', { 'if-none-match': TAG }, true],
    ['the tag in a list', { 'if-none-match': `"OTHER", ${TAG}` }, true],
    ['the weak form of the tag', { 'if-none-match': `W/${TAG}` }, true],
    ['a star', { 'if-none-match': '*' }, true],
    ['another tag', { 'if-none-match': '"OTHER"' }, false],
    ['the tag unquoted', { 'if-none-match': TAG.slice(1, -1) }, false],
    ['a date in the same second', { 'if-modified-since': 'Fri, 02 Jan 2026 03:04:05 GMT' }, true],
    ['a later date', { 'if-modified-since': 'Sat, 03 Jan 2026 00:00:00 GMT' }, true],
    ['a second earlier', { 'if-modified-since': 'Fri, 02 Jan 2026 03:04:04 GMT' }, false],
    ['a date that does not parse', { 'if-modified-since': 'yesterday' }, false],
    [
      'another tag with a later date (If-None-Match decides)',
      { 'if-none-match': '"OTHER"', 'if-modified-since': 'Sat, 03 Jan 2026 00:00:00 GMT' },
      false,
    ],
  ])('%s → %s', (_what, headers, current) => {
    expect(clientCopyIsCurrent(request(headers), TAG, MODIFIED)).toBe(current);
  });
});

describe('httpDate and rfc1123', () => {
  it('write http.TimeFormat (GMT) and Go time.RFC1123 of a UTC time (UTC)', () => {
    expect(httpDate(MODIFIED)).toBe('Fri, 02 Jan 2026 03:04:05 GMT');
    expect(rfc1123(MODIFIED)).toBe('Fri, 02 Jan 2026 03:04:05 UTC');
  });
});
