import { describe, expect, test } from 'vitest';
import { isAppPage, pages, paths } from './paths.ts';

/** An href for a page, with `x` for every parameter (`/client/x/statement`). */
function sampleHref(href: string | ((...values: string[]) => string)): string {
  return typeof href === 'string' ? href : href('x', 'x', 'x');
}

describe('pages', () => {
  test('every page pattern matches its own href, so the server serves every link the app makes', () => {
    for (const [name, { href }] of Object.entries(pages)) {
      expect(isAppPage(sampleHref(href)), name).toBe(true);
    }
  });

  test('paths are the pages’ hrefs, with each parameter encoded as one segment', () => {
    expect(paths.login).toBe('/login');
    expect(paths.clientDetails('a/b c')).toBe('/client/a%2Fb%20c');
    expect(paths.editClient('7')).toBe('/client/edit/7');
    expect(paths.clientStatement('7')).toBe('/client/7/statement');
    expect(isAppPage(paths.clientDetails('a/b c'))).toBe(true);
  });

  test('isAppPage refuses every path that is no page', () => {
    for (const pathname of [
      '/client/a/b',
      '/clients/x',
      '/client',
      '/client/',
      '/client//statement',
      '/dashboardx',
      '/login/code/more',
      '/some/unknown/page',
      '',
    ]) {
      expect(isAppPage(pathname), pathname).toBe(false);
    }
  });
});
