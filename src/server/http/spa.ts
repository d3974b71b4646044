import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { LANGUAGES, type Language, languageFromAcceptLanguage } from '../../shared/languages.ts';
import { apiPaths, isAppPage, paths } from '../../shared/paths.ts';
import { HttpError } from './errors.ts';

/**
 * Serves the built web app and answers every other GET with index.html so that client
 * routes survive a reload (404 for a path that is no page of the app); unknown /api paths
 * stay a JSON 404.
 */
type Manifest = Record<string, { file: string; imports?: string[]; isEntry?: boolean }>;

/** The chunks a page's module needs that the entry (in index.html) does not already bring. */
function pageChunks(manifest: Manifest, page: string): string[] {
  const collect = (key: string, into: Set<string>) => {
    if (into.has(key)) return into;
    into.add(key);
    for (const imported of manifest[key]?.imports ?? []) collect(imported, into);
    return into;
  };
  const entry = new Set<string>();
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) collect(key, entry);
  if (!manifest[page]) return [];
  return [...collect(page, new Set())]
    .filter((key) => !entry.has(key))
    .map((key) => `/${manifest[key]?.file}`);
}

/**
 * Preload hints sent with index.html: the answers every page asks for at start (session,
 * settings) and, on the list pages, their code, so that all of it downloads while the app's
 * main script is still being read instead of one step after another.
 */
function preloadHints(webDistDir: string): (pathname: string) => string {
  const data = [apiPaths.session, apiPaths.settings].map(
    (url) => `<${url}>; rel=preload; as=fetch; crossorigin`,
  );
  const manifestFile = path.join(webDistDir, '.vite', 'manifest.json');
  const manifest: Manifest = existsSync(manifestFile)
    ? JSON.parse(readFileSync(manifestFile, 'utf8'))
    : {};
  const listPage = (module: string) => [
    ...data,
    ...pageChunks(manifest, module).map((file) => `<${file}>; rel=modulepreload`),
  ];
  const byPath = new Map<string, string[]>([
    [paths.home, listPage('pages/dashboard-page.tsx')],
    [paths.dashboard, listPage('pages/dashboard-page.tsx')],
    [paths.clients, listPage('features/clients/clients-page.tsx')],
  ]);
  return (pathname) => (byPath.get(pathname) ?? data).join(', ');
}

/**
 * index.html in each language: `<html lang>` says the language the browser prefers
 * (Accept-Language), which the app starts in on a first visit (i18n/language.ts).
 */
function indexPages(indexFile: string, hasBuild: boolean): (language: Language) => string {
  const html = hasBuild ? readFileSync(indexFile, 'utf8') : '';
  const pages = new Map(
    LANGUAGES.map((language) => [
      language,
      html.replace(/<html(\s[^>]*)?>/i, `<html lang="${language}">`),
    ]),
  );
  return (language) => pages.get(language) ?? html;
}

export async function registerSpa(app: FastifyInstance, webDistDir: string): Promise<void> {
  const indexFile = path.join(webDistDir, 'index.html');
  const hasBuild = existsSync(indexFile);
  const hintsFor = preloadHints(webDistDir);
  const indexIn = indexPages(indexFile, hasBuild);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each file (scripts/compress-build.mjs).
      preCompressed: true,
      // Cache headers are ours: immutable for fingerprinted assets, revalidate for the rest.
      cacheControl: false,
      setHeaders(res, filePath) {
        // Vite fingerprints everything under assets/, so those never change.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        } else {
          res.setHeader('cache-control', 'no-cache');
        }
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      throw new HttpError(404, 'no-api-route', {
        values: { method: request.method, path: pathname },
      });
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new HttpError(404, 'not-found');
    }
    if (!hasBuild) {
      return reply
        .status(404)
        .type('text/plain')
        .send('The web app is not built. Run `npm run build`, or `npm start`.');
    }
    // The app says "Page not found" itself; the status says it to crawlers and tools.
    return reply
      .status(isAppPage(pathname) ? 200 : 404)
      .header('cache-control', 'no-cache')
      .header('vary', 'Accept-Language')
      .header('link', hintsFor(pathname))
      .type('text/html; charset=utf-8')
      .send(indexIn(languageFromAcceptLanguage(request.headers['accept-language'])));
  });
}
