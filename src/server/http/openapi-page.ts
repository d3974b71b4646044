/**
 * The API reference page, rendered on the server from the OpenAPI description: plain HTML
 * and one stylesheet, no script and no inline style, so it works under the app's strict
 * Content-Security-Policy (see docs/decisions/0015-openapi.md).
 */

type JsonSchema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

interface MediaTypes {
  [contentType: string]: { schema?: JsonSchema };
}

interface Operation {
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: MediaTypes };
  responses?: Record<string, { description?: string; content?: MediaTypes }>;
  security?: Record<string, string[]>[];
}

interface SecurityScheme {
  type?: string;
  in?: string;
  name?: string;
  description?: string;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  security?: Record<string, string[]>[];
  components?: {
    schemas?: Record<string, JsonSchema>;
    securitySchemes?: Record<string, SecurityScheme>;
  };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace'];

/** Prose of the description: escaped, with its `code spans` shown as code. */
function prose(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** `Auth`, `/api/clients/{id}`: a fragment id made of letters, digits and dashes only. */
function anchor(...parts: string[]): string {
  return parts
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

const LONGEST_SHOWN_PATTERN = 60;

/** The rules of a scalar, in words: `email, 1–254 characters`. */
function constraints(schema: JsonSchema): string[] {
  const notes: string[] = [];
  if (typeof schema.format === 'string') notes.push(schema.format);
  const range = (min: unknown, max: unknown, unit: string) => {
    if (typeof min === 'number' && typeof max === 'number') notes.push(`${min}–${max}${unit}`);
    else if (typeof min === 'number') notes.push(`≥ ${min}${unit}`);
    else if (typeof max === 'number') notes.push(`≤ ${max}${unit}`);
  };
  range(schema.minLength, schema.maxLength, ' characters');
  range(schema.minimum, schema.maximum, '');
  range(schema.minItems, schema.maxItems, ' items');
  if (typeof schema.exclusiveMinimum === 'number') notes.push(`> ${schema.exclusiveMinimum}`);
  if (typeof schema.exclusiveMaximum === 'number') notes.push(`< ${schema.exclusiveMaximum}`);
  if (typeof schema.pattern === 'string' && schema.pattern.length <= LONGEST_SHOWN_PATTERN) {
    notes.push(`matching /${schema.pattern}/`);
  }
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  if (typeof schema.description === 'string') notes.push(schema.description);
  return notes;
}

function withNotes(type: string, schema: JsonSchema): string {
  const notes = constraints(schema);
  return notes.length > 0 ? `${type} (${notes.join(', ')})` : type;
}

/**
 * A schema written the way a TypeScript type reads (`{ email: string (email), name?: string }`):
 * shorter than its JSON Schema, which the page shows beside it.
 */
export function describeSchema(schema: JsonSchema | undefined, indent = ''): string {
  if (!schema || Object.keys(schema).length === 0) return 'any';
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').pop() ?? schema.$ref;
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(alternatives)) {
    return alternatives.map((option) => describeSchema(option, indent)).join(' | ');
  }
  if (Array.isArray(schema.allOf)) {
    return (schema.allOf as JsonSchema[]).map((part) => describeSchema(part, indent)).join(' & ');
  }
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (Array.isArray(schema.type)) {
    return (schema.type as string[])
      .map((type) => describeSchema({ ...schema, type }, indent))
      .join(' | ');
  }
  switch (schema.type) {
    case 'object':
      return describeObject(schema, indent);
    case 'array': {
      const items = describeSchema(schema.items as JsonSchema | undefined, indent);
      const type = /[ |&]/.test(items) && !items.startsWith('{') ? `(${items})[]` : `${items}[]`;
      return withNotes(type, { ...schema, items: undefined });
    }
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
    case 'null':
      return withNotes(String(schema.type), schema);
    default:
      return withNotes('any', schema);
  }
}

function describeObject(schema: JsonSchema, indent: string): string {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const inner = `${indent}  `;
  const lines = Object.entries(properties).map(
    ([name, property]) =>
      `${inner}${name}${required.has(name) ? '' : '?'}: ${describeSchema(property, inner)}`,
  );
  const extra = schema.additionalProperties;
  if (extra && typeof extra === 'object') {
    lines.push(`${inner}[key: string]: ${describeSchema(extra as JsonSchema, inner)}`);
  }
  if (lines.length === 0) return extra === false ? '{}' : 'object';
  return `{\n${lines.join('\n')}\n${indent}}`;
}

function schemaBlock(schema: JsonSchema | undefined): string {
  return [
    `<pre class="type">${escapeHtml(describeSchema(schema))}</pre>`,
    '<details><summary>JSON Schema</summary>',
    `<pre>${escapeHtml(JSON.stringify(schema ?? {}, null, 2))}</pre>`,
    '</details>',
  ].join('\n');
}

function contentBlocks(content: MediaTypes | undefined): string {
  return Object.entries(content ?? {})
    .map(
      ([type, media]) =>
        `<p class="media-type">${escapeHtml(type)}</p>\n${schemaBlock(media.schema)}`,
    )
    .join('\n');
}

function parametersBlock(parameters: Parameter[] | undefined): string {
  if (!parameters || parameters.length === 0) return '';
  const rows = parameters.map(
    (parameter) =>
      `<tr><td><code>${escapeHtml(parameter.name)}</code></td>` +
      `<td>${escapeHtml(parameter.in)}</td>` +
      `<td>${parameter.required ? 'yes' : 'no'}</td>` +
      `<td><code>${escapeHtml(describeSchema(parameter.schema))}</code>` +
      `${parameter.description ? ` ${escapeHtml(parameter.description)}` : ''}</td></tr>`,
  );
  return [
    '<h4>Parameters</h4>',
    '<table><thead><tr><th scope="col">Name</th><th scope="col">In</th>',
    '<th scope="col">Required</th><th scope="col">Schema</th></tr></thead>',
    `<tbody>${rows.join('\n')}</tbody></table>`,
  ].join('\n');
}

function responsesBlock(responses: Operation['responses']): string {
  const items = Object.entries(responses ?? {}).map(
    ([status, response]) =>
      `<li><p><span class="status">${escapeHtml(status)}</span> ` +
      `${escapeHtml(response.description ?? '')}</p>\n${contentBlocks(response.content)}</li>`,
  );
  return `<h4>Responses</h4>\n<ul class="responses">${items.join('\n')}</ul>`;
}

function accessLine(operation: Operation, document: OpenApiDocument): string {
  const requirements = operation.security ?? document.security ?? [];
  if (requirements.length === 0) return '<p class="access">Public: no sign-in needed.</p>';
  const schemes = document.components?.securitySchemes ?? {};
  const names = requirements.flatMap((requirement) =>
    Object.keys(requirement).map((key) => schemes[key]?.name ?? key),
  );
  return `<p class="access">Signed in: needs the <code>${escapeHtml(names.join(', '))}</code> cookie.</p>`;
}

function operationBlock(
  method: string,
  url: string,
  operation: Operation,
  document: OpenApiDocument,
): string {
  const body = operation.requestBody;
  return [
    `<article class="operation" id="${anchor(method, url)}">`,
    `<h3><span class="method method-${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span> ` +
      `<code>${escapeHtml(url)}</code></h3>`,
    operation.summary ? `<p class="summary">${escapeHtml(operation.summary)}</p>` : '',
    operation.description ? `<p>${prose(operation.description)}</p>` : '',
    accessLine(operation, document),
    parametersBlock(operation.parameters),
    body
      ? `<h4>Request body${body.required ? '' : ' (optional)'}</h4>\n${contentBlocks(body.content)}`
      : '',
    responsesBlock(operation.responses),
    '</article>',
  ]
    .filter((part) => part !== '')
    .join('\n');
}

interface PageOptions {
  /** Where the description itself is served, linked from the page. */
  jsonPath: string;
  stylesheetPath: string;
}

/** The whole reference: every operation of the description, grouped by its first tag. */
export function renderDocsPage(document: OpenApiDocument, options: PageOptions): string {
  const declared = document.tags ?? [];
  const groups = new Map<string, string[]>(declared.map((tag) => [tag.name, []]));
  for (const [url, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'Other';
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag)?.push(operationBlock(method, url, operation, document));
    }
  }
  const sections = [...groups].filter(([, operations]) => operations.length > 0);
  const descriptionOf = (name: string) => declared.find((tag) => tag.name === name)?.description;
  const { title, version, description } = document.info;
  const schemas = Object.entries(document.components?.schemas ?? {});

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} ${escapeHtml(version)}</title>
<link rel="stylesheet" href="${escapeHtml(options.stylesheetPath)}">
</head>
<body>
<header>
<h1>${escapeHtml(title)} <span class="version">${escapeHtml(version)}</span></h1>
${description ? `<p>${prose(description)}</p>` : ''}
<p>The same description as OpenAPI ${escapeHtml(document.openapi)}: <a href="${escapeHtml(options.jsonPath)}">${escapeHtml(options.jsonPath)}</a>.</p>
<nav aria-label="Sections"><ul>
${sections.map(([name]) => `<li><a href="#${anchor('tag', name)}">${escapeHtml(name)}</a></li>`).join('\n')}
${schemas.length > 0 ? '<li><a href="#schemas">Schemas</a></li>' : ''}
</ul></nav>
</header>
<main>
${sections
  .map(([name, operations]) => {
    const about = descriptionOf(name);
    return `<section id="${anchor('tag', name)}">
<h2>${escapeHtml(name)}</h2>
${about ? `<p>${prose(about)}</p>` : ''}
${operations.join('\n')}
</section>`;
  })
  .join('\n')}
${
  schemas.length > 0
    ? `<section id="schemas">
<h2>Schemas</h2>
${schemas
  .map(
    ([name, schema]) =>
      `<article class="schema" id="${anchor('schema', name)}"><h3><code>${escapeHtml(name)}</code></h3>\n${schemaBlock(schema)}</article>`,
  )
  .join('\n')}
</section>`
    : ''
}
</main>
</body>
</html>
`;
}

export const DOCS_STYLESHEET = `:root { --muted: #5c636a; --line: #dee2e6; }
body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0 auto; max-width: 64rem; padding: 1rem 1.5rem 4rem; }
h1 { margin-bottom: 0.25rem; }
h1 .version { color: var(--muted); font-size: 1rem; font-weight: normal; }
h2 { border-bottom: 2px solid var(--line); margin-top: 2.5rem; padding-bottom: 0.25rem; }
h3 { font-size: 1.1rem; margin: 0 0 0.5rem; }
h4 { font-size: 0.95rem; margin: 1rem 0 0.25rem; }
nav ul { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; list-style: none; padding: 0; }
.operation, .schema { border: 1px solid var(--line); border-radius: 0.375rem; margin: 1rem 0; padding: 1rem; }
.method { border-radius: 0.25rem; color: #fff; display: inline-block; font-size: 0.8rem; margin-right: 0.5rem; min-width: 4.5rem; padding: 0.1rem 0.4rem; text-align: center; }
.method-get { background: #0a6ebd; }
.method-post { background: #187a3a; }
.method-put, .method-patch { background: #9a5b00; }
.method-delete { background: #b02a37; }
.summary { font-weight: 600; margin: 0.25rem 0; }
.access { color: var(--muted); font-size: 0.9rem; }
.status { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-weight: 600; }
.media-type { color: var(--muted); font-size: 0.85rem; margin: 0.25rem 0; }
.responses { list-style: none; padding: 0; }
.responses li { border-top: 1px solid var(--line); padding: 0.25rem 0; }
pre { background: rgba(127, 127, 127, 0.1); border-radius: 0.25rem; font-size: 0.85rem; margin: 0.25rem 0; overflow-x: auto; padding: 0.5rem; }
details summary { color: var(--muted); cursor: pointer; font-size: 0.85rem; }
table { border-collapse: collapse; font-size: 0.9rem; width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
`;
