import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

// The README is a new developer's first hour: what it names must exist and be tested.

const readme = readFileSync('README.md', 'utf8');

/** Scripts the README names that a test runs elsewhere than scripts/npm-scripts.test.ts. */
const RUN_ELSEWHERE: Record<string, string> = {
  dev: 'scripts/dev.test.ts',
  'dev:web': 'scripts/dev.test.ts (npm run dev runs it)',
  'dev:server': 'scripts/dev.test.ts (npm run dev runs it)',
  serve: 'the end-to-end tests serve the build with the same command (playwright.config.ts)',
  build: 'npm run test:e2e builds first',
  test: '.ci/run',
  'test:scripts': '.ci/run (npm test runs it)',
  typecheck: '.ci/run',
  lint: '.ci/run',
  format: 'npm run lint checks the same formatting',
};

test('every npm script the README names exists and is run by a test', () => {
  const scripts = Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).scripts);
  const named = new Set(
    [...readme.matchAll(/`npm (?:run )?([\w:-]+)/g)].map((match) => match[1] ?? ''),
  );
  named.delete('install');
  named.delete('ci');
  // The tests of scripts/npm-scripts.test.ts are named "npm run NAME …" or "npm NAME …".
  const smokeTests = readFileSync('scripts/npm-scripts.test.ts', 'utf8');
  const smoked = new Set(
    [...smokeTests.matchAll(/['"]npm (?:run )?([\w:-]+) /g)].map((match) => match[1]),
  );
  expect(named.size).toBeGreaterThan(10);
  for (const name of named) {
    expect(scripts, `the README names npm run ${name}, which is no script`).toContain(name);
    expect(
      smoked.has(name) || Object.hasOwn(RUN_ELSEWHERE, name),
      `the README names npm run ${name}, which no test runs`,
    ).toBe(true);
  }
});

test("the README's map of the code names every folder of the server and of the web app's features", () => {
  const map = readme.slice(readme.indexOf('## Map of the code'), readme.indexOf('## Benchmarks'));
  const folders = (root: string): string[] =>
    readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => {
        const folder = path.join(root, entry.name);
        return [folder, ...folders(folder)];
      });
  const expected = [
    ...folders('src/server').map((folder) => `${path.relative('src/server', folder)}/`),
    ...folders('src/web/features').map((folder) => `${path.relative('src/web', folder)}/`),
  ];
  expect(expected).toContain('ledger/');
  for (const folder of expected) {
    expect(map, `the map does not name ${folder}`).toMatch(new RegExp(`^ {15}${folder} `, 'm'));
  }
});
