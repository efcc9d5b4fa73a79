import { describe, expect, it } from 'vitest';
import {
  matchesLabels,
  parseLabelSelector,
} from '../../../templates/k8s-lease-api-server/src/selectors/label-selector.js';

describe('label selector grammar', () => {
  const labels = { app: 'web', tier: 'front', n: '5' };
  const cases: [string, boolean][] = [
    ['app=web', true],
    ['app==web', true],
    ['app!=web', false],
    ['app!=db', true],
    ['missing!=x', true],
    ['app in (web, db)', true],
    ['app notin (web,db)', false],
    ['missing notin (a)', true],
    ['tier', true],
    ['!tier', false],
    ['!missing', true],
    ['app=web,tier=back', false],
    ['app=web, tier in (front)', true],
    ['n>3', true],
    ['n<3', false],
    ['', true],
  ];
  it.each(cases)('%s → %s', (text, expected) => {
    const parsed = parseLabelSelector(text, 'json');
    expect(parsed.ok && matchesLabels(parsed.value, labels)).toBe(expected);
  });

  it('reports syntax errors', () => {
    expect(parseLabelSelector('app in web', 'json').ok).toBe(false);
    expect(parseLabelSelector('app in (a', 'json').ok).toBe(false);
    expect(parseLabelSelector('=x', 'json').ok).toBe(false);
  });
});
