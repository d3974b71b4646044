// Reads the web build and checks what each budgeted route downloads before it can show
// anything: the entry chunk, the route's own chunk, every chunk they import, and the CSS,
// each gzipped at the level the build ships (-9). Prints a table; fails past a budget.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const root = process.argv[2] ?? path.join('dist', 'web');
const manifest = JSON.parse(readFileSync(path.join(root, '.vite', 'manifest.json'), 'utf8'));

// Route: [the modules it loads before it shows (its page, and for a signed-in page the
// signed-in part: query cache, live channel), JavaScript budget in KB, CSS budget in KB],
// gzipped (docs/decisions/0013-bundle-budgets.md).
const SIGNED_IN = 'app/signed-in.tsx';
const BUDGETS = {
  '/login': [['features/auth/login-page.tsx'], 110, 25, 'public'],
  '/dashboard': [[SIGNED_IN, 'pages/dashboard-page.tsx'], 145, 25, 'app'],
};
// The texts a page waits for, in one language (src/web/i18n/catalogues.ts; refusals' and field
// messages' texts come after the first paint). The budget holds in the language whose
// catalogues weigh most.
const CATALOGUE_AREAS = {
  public: ['shell', 'auth'],
  app: ['shell', 'clients', 'ledger', 'collect'],
};
const LANGUAGES = ['en', 'hi'];

const gzipped = (file) => gzipSync(readFileSync(path.join(root, file)), { level: 9 }).length;

function closure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) closure(imported, seen);
  return seen;
}

const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
// What a page fetches once it shows (its lazy parts: the dashboard's totals and chart), for
// the record; the budget is what comes before anything shows.
function lazyClosure(key, counted, later = new Set()) {
  for (const lazyKey of manifest[key]?.dynamicImports ?? []) {
    if (later.has(lazyKey) || counted.has(lazyKey)) continue;
    for (const chunk of closure(lazyKey, new Set(counted))) {
      if (counted.has(chunk) || later.has(chunk)) continue;
      later.add(chunk);
      lazyClosure(chunk, counted, later);
    }
  }
  return later;
}

let failed = false;
console.log(
  '| route | JavaScript KB (budget) | CSS KB (budget) | then, lazily, KB |\n|---|---:|---:|---:|',
);
/** The heaviest language's catalogues for a part, gzipped, and that language. */
function catalogues(part) {
  const sizes = LANGUAGES.map((language) => {
    const pattern = new RegExp(
      `/locales/${language}/(${CATALOGUE_AREAS[part].join('|')})\\.json\\.catalogue\\.js$`,
    );
    const keys = Object.keys(manifest).filter((key) => pattern.test(key));
    if (keys.length !== CATALOGUE_AREAS[part].length) {
      throw new Error(`the build has ${keys.length} ${language} catalogues for ${part}`);
    }
    return { language, bytes: keys.reduce((sum, key) => sum + gzipped(manifest[key].file), 0) };
  });
  return sizes.reduce((most, size) => (size.bytes > most.bytes ? size : most));
}

for (const [route, [modules, jsBudget, cssBudget, part]] of Object.entries(BUDGETS)) {
  const chunks = closure(entry);
  for (const module of modules) {
    if (!manifest[module]) throw new Error(`no chunk for ${module} in the build`);
    closure(module, chunks);
  }
  const texts = catalogues(part);
  let js = texts.bytes;
  const css = new Set();
  for (const key of chunks) {
    js += gzipped(manifest[key].file);
    for (const file of manifest[key].css ?? []) css.add(file);
  }
  const cssSize = [...css].reduce((sum, file) => sum + gzipped(file), 0);
  const later = [...lazyClosure(modules.at(-1), chunks)].reduce(
    (sum, key) =>
      sum +
      gzipped(manifest[key].file) +
      (manifest[key].css ?? []).reduce((total, file) => total + gzipped(file), 0),
    0,
  );
  const over = js / 1024 > jsBudget || cssSize / 1024 > cssBudget;
  failed ||= over;
  console.log(
    `| ${route} (${texts.language}) | ${(js / 1024).toFixed(1)} (${jsBudget}) | ${(cssSize / 1024).toFixed(1)} (${cssBudget}) | ${(later / 1024).toFixed(1)} |${over ? ' OVER BUDGET' : ''}`,
  );
}
if (failed) {
  console.error('A route is over its size budget (scripts/check-bundle-budget.mjs).');
  process.exit(1);
}
