import { describe, expect, test } from 'vitest';
import { describeSchema, type OpenApiDocument, renderDocsPage } from './openapi-page.ts';

const hostile = '<script>alert("x")</script>';

const document: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: `API ${hostile}`, version: '1 & 2', description: `Uses \`${hostile}\`` },
  tags: [{ name: 'Things', description: hostile }],
  security: [{ cookie: [] }],
  components: {
    securitySchemes: { cookie: { type: 'apiKey', in: 'cookie', name: `sid${hostile}` } },
  },
  paths: {
    '/api/things/{id}': {
      get: {
        tags: ['Things'],
        summary: hostile,
        description: `"quoted" & ${hostile}`,
        parameters: [
          { name: `id${hostile}`, in: 'path', required: true, schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            description: hostile,
            content: {
              'application/json': {
                schema: { type: 'object', properties: { [hostile]: { const: hostile } } },
              },
            },
          },
        },
      },
    },
  },
};

describe('the reference page', () => {
  test('text from the description is escaped everywhere on the page', () => {
    const html = renderDocsPage(document, {
      jsonPath: '/api/openapi.json',
      stylesheetPath: '/x.css',
    });
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('1 &amp; 2');
    // A code span of the prose is shown as code, still escaped.
    expect(html).toContain('<code>&lt;script&gt;');
    expect(html).toContain('id="get-api-things-id"');
  });

  test('schemas read like types: optional keys, unions, arrays, maps and rules', () => {
    expect(
      describeSchema({
        type: 'object',
        properties: {
          id: { type: 'string', minLength: 1 },
          kind: { enum: ['charge', 'payment'] },
          note: { type: ['string', 'null'] },
          tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
          counts: { type: 'object', additionalProperties: { type: 'integer' } },
        },
        required: ['id', 'kind'],
        additionalProperties: false,
      }),
    ).toBe(
      [
        '{',
        '  id: string (≥ 1 characters)',
        '  kind: "charge" | "payment"',
        '  note?: string | null',
        '  tags?: string[] (≤ 3 items)',
        '  counts?: {',
        '    [key: string]: integer',
        '  }',
        '}',
      ].join('\n'),
    );
    expect(describeSchema({ $ref: '#/components/schemas/ApiError' })).toBe('ApiError');
    expect(describeSchema({})).toBe('any');
  });
});
