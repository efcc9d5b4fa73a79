import { describe, expect, it } from 'vitest';
import { warningHeaders } from '../../../templates/k8s-lease-api-server/src/http/respond.js';

describe('warningHeaders', () => {
  it('words Warning headers like apimachinery NewWarningHeader: escapes quotes, drops control characters and bad UTF-8', () => {
    expect(warningHeaders(['a "q" \\ b', 'bell\u0007', 'lone \ud800', 'ok', 'ok'])).toEqual({
      Warning: ['299 - "a \\"q\\" \\\\ b"', '299 - "ok"'],
    });
  });
});
