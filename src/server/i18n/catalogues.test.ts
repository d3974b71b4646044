import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, type Token } from '@messageformat/parser';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { LANGUAGES } from '../../shared/languages.ts';

/*
 * The catalogues are complete and agree with each other, and the components say nothing that
 * bypasses them (docs/decisions/0037-i18n-library.md). These checks run in `npm test`.
 */

const ROOT = path.resolve(__dirname, '../../..');
const TREES = ['src/web/locales', 'src/shared/locales'];
// Ids built from what the server answers (a refusal's code, a field's code) rather than
// written out in a component.
const DYNAMIC_PREFIXES = ['errors.', 'validation.'];
// Catalogues that only the server reads (the statement page, the reminder templates).
const SERVER_AREAS = new Set(['statement', 'reminders']);

type Catalogue = Record<string, string>;

function catalogue(tree: string, language: string, area: string): Catalogue {
  return JSON.parse(readFileSync(path.join(ROOT, tree, language, `${area}.json`), 'utf8'));
}

function areasOf(tree: string): string[] {
  return readdirSync(path.join(ROOT, tree, 'en'))
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.replace(/\.json$/, ''));
}

/** The placeholders a message uses, with how it uses each ("name", "count:plural"). */
function placeholders(message: string): string[] {
  const found = new Set<string>();
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'argument') found.add(token.arg);
      if (token.type === 'function') found.add(`${token.arg}:${token.key}`);
      if (token.type === 'plural' || token.type === 'select' || token.type === 'selectordinal') {
        found.add(`${token.arg}:${token.type}`);
        for (const option of token.cases) walk(option.tokens);
      }
    }
  };
  walk(parse(message));
  return [...found].sort();
}

/** Tag names used as `<0>…</0>` in a message (Lingui's markup for components). */
function markup(message: string): string[] {
  return [...message.matchAll(/<(\d+)>/g)].map((match) => match[1] ?? '').sort();
}

const everyCatalogue = TREES.flatMap((tree) =>
  areasOf(tree).map((area) => ({ tree, area, en: catalogue(tree, 'en', area) })),
);

describe('the catalogues', () => {
  test.each(everyCatalogue)(
    '$tree/$area has every key in every language, and no other',
    ({ tree, area, en }) => {
      for (const language of LANGUAGES) {
        const other = catalogue(tree, language, area);
        expect(Object.keys(other).sort(), `${language}/${area}.json`).toEqual(
          Object.keys(en).sort(),
        );
        for (const [id, message] of Object.entries(other)) {
          expect(message.trim(), `${language} ${id} is empty`).not.toBe('');
        }
      }
    },
  );

  test.each(everyCatalogue)(
    '$tree/$area: each message uses the same placeholders and markup in every language',
    ({ tree, area, en }) => {
      for (const language of LANGUAGES) {
        const other = catalogue(tree, language, area);
        for (const [id, english] of Object.entries(en)) {
          const translated = other[id] ?? '';
          expect(placeholders(translated), `${language} ${id}`).toEqual(placeholders(english));
          expect(markup(translated), `${language} ${id}`).toEqual(markup(english));
        }
      }
    },
  );

  test('ids are unique across areas and each starts with its area', () => {
    const seen = new Map<string, string>();
    for (const { tree, area, en } of everyCatalogue) {
      for (const id of Object.keys(en)) {
        expect(id.startsWith(`${area}.`), `${id} in ${tree}/${area}.json`).toBe(true);
        expect(seen.get(id), `${id} twice`).toBeUndefined();
        seen.set(id, area);
      }
    }
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|tsx)$/.test(file) && !/\.test\.(ts|tsx)$/.test(file))
    .filter(
      (file) => !file.endsWith('.d.ts') && file !== 'test-utils.tsx' && file !== 'test-setup.ts',
    )
    .map((file) => path.join(dir, file));
}

const webFiles = sourceFiles('src/web');

describe('the components', () => {
  test('every id in a catalogue of the web app is used, and every id used is in one', () => {
    const source = webFiles.map((file) => readFileSync(path.join(ROOT, file), 'utf8')).join('\n');
    // Any literal that looks like an id counts as a use (a table of ids, say); an id passed to
    // t(), translate() or <T id> must exist (a live event's name looks like an id too).
    const mentioned = new Set(
      [...source.matchAll(/['"`]([a-z]+(?:\.[A-Za-z0-9-]+)+)['"`]/g)].map((m) => m[1]),
    );
    const used = new Set(
      [
        ...source.matchAll(
          /(?:\bt\(|\btranslate\(|\bid: |\bid=)\s*['"`]([a-z]+(?:\.[A-Za-z0-9-]+)+)['"`]/g,
        ),
      ].map((m) => m[1]),
    );
    const known = new Set(everyCatalogue.flatMap(({ en }) => Object.keys(en)));
    for (const { area, en } of everyCatalogue) {
      if (SERVER_AREAS.has(area)) continue;
      for (const id of Object.keys(en)) {
        if (DYNAMIC_PREFIXES.some((prefix) => id.startsWith(prefix))) continue;
        expect(mentioned.has(id), `${id} is in ${area}.json but no component uses it`).toBe(true);
      }
    }
    const areas = new Set(everyCatalogue.map(({ area }) => area));
    for (const id of used) {
      if (!id || !areas.has(id.split('.')[0] ?? '')) continue;
      expect(known.has(id), `${id} is used but in no catalogue`).toBe(true);
    }
  });

  test('no component shows text that bypasses the catalogues', () => {
    const problems = webFiles.flatMap((file) => untranslatedTexts(file));
    expect(problems).toEqual([]);
  });
});

// Attributes a person reads or hears.
const READ_ATTRIBUTES = new Set([
  'aria-label',
  'title',
  'placeholder',
  'alt',
  'label',
  'aria-description',
  'aria-valuetext',
]);
// Words in a string literal: a capital, lower-case letters, a space and more (a sentence), or
// the original's shouting ("Logged Out !!").
const PROSE = /[A-Z][a-z]+[ ,:!?.'’]+\S|^[A-Z][a-z]+ ?!!$/;

/** Texts a person would read, written in a component instead of looked up in a catalogue. */
function untranslatedTexts(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const problems: string[] = [];
  const where = (node: ts.Node) =>
    `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const exempt = (node: ts.Node) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart()).line;
    const lines = text.split('\n');
    return /i18n-exempt/.test(lines[line] ?? '') || /i18n-exempt/.test(lines[line - 1] ?? '');
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    if (ts.isCallExpression(node)) {
      const callee = node.expression.getText(source);
      // Messages for developers (logs, thrown programming errors) stay in English.
      if (/^console\.|^new Error|^Error$/.test(callee)) return;
    }
    if (ts.isNewExpression(node) && /Error$/.test(node.expression.getText(source))) return;
    if (ts.isJsxText(node) && /[A-Za-z]/.test(node.getText(source)) && !exempt(node)) {
      problems.push(`${where(node)} text "${node.getText(source).trim()}"`);
    }
    if (ts.isJsxAttribute(node) && READ_ATTRIBUTES.has(node.name.getText(source))) {
      const value = node.initializer;
      if (value && ts.isStringLiteral(value) && /[A-Za-z]/.test(value.text) && !exempt(node)) {
        problems.push(`${where(node)} ${node.name.getText(source)}="${value.text}"`);
      }
    }
    if (
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
      PROSE.test(node.text) &&
      !exempt(node)
    ) {
      problems.push(`${where(node)} "${node.text}"`);
    }
    if (ts.isTemplateExpression(node) && !exempt(node)) {
      const parts = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
      if (parts.some((part) => PROSE.test(part)))
        problems.push(`${where(node)} \`${parts.join('…')}\``);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return problems;
}
