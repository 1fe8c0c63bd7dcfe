import { describe, expect, it } from 'vitest';
import { isRefusedSpelling, servedPathOf } from './request-path';

/**
 * The edge's reading of a request target: the path Next.js serves for it (WHATWG URL's normal
 * form), and the spellings refused before routing because they name another path than they seem.
 */
describe('the path Next.js will serve', () => {
  it.each([
    ['/how-adoption-works', '/how-adoption-works'],
    ['/_next/static/chunks/a.js', '/_next/static/chunks/a.js'],
    ['/_next/../how-adoption-works', '/how-adoption-works'],
    ['/_next/%2e%2e/how-adoption-works', '/how-adoption-works'],
    ['/_next/%2E%2E/how-adoption-works', '/how-adoption-works'],
    ['/_next/.%2E/how-adoption-works', '/how-adoption-works'],
    ['/_next/%2e./how-adoption-works', '/how-adoption-works'],
    ['/_next/static/../../staff/sign-in', '/staff/sign-in'],
    ['/_next\\..\\how-adoption-works', '/how-adoption-works'],
    ['/_next/./static/x.js', '/_next/static/x.js'],
    ['/pets/1?next=/_next/x', '/pets/1'],
    // Read as a path under the site: never another host's path.
    ['//evil.example/_next/static/x.js', '//evil.example/_next/static/x.js'],
  ])('%s is %s', (target, served) => {
    expect(servedPathOf(target)).toBe(served);
  });
});

describe('spellings refused before routing', () => {
  it.each([
    '/_next/../how-adoption-works',
    '/_next/%2e%2e/how-adoption-works',
    '/_next/%2E%2E/how-adoption-works',
    '/_next/%2e%2E/how-adoption-works',
    '/_next/.%2e/how-adoption-works',
    '/_next/%2E./how-adoption-works',
    '/_next/static/%2e/x.js',
    '/pets/1%2ejson',
    '/_next/./static/x.js',
    '/staff/..',
    '/..',
    '/_next\\..\\how-adoption-works',
    '/_next\\.\\x',
    'http://evil.example/_next/../x',
    '*',
  ])('%s', (target) => {
    expect(isRefusedSpelling(target)).toBe(true);
  });

  it.each([
    '/',
    '/how-adoption-works',
    '/_next/static/chunks/app/page-0a1b.js',
    '/pets/12?from=%2e%2e',
    '/applications/status/1.abc_DEF-2',
    '/staff/applications/3?next=/staff/../x',
    '/saved-searches/confirm/abc...def',
    '/icon.svg',
  ])('%s is accepted', (target) => {
    expect(isRefusedSpelling(target)).toBe(false);
  });
});
