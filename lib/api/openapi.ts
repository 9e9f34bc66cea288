import { z } from 'zod';
import { registry } from './registry';
import { API_CODES } from './errors';

/** The API describes itself (DESIGN §5): an OpenAPI 3.1 document generated from the procedures' zod schemas. */
export function openApiDocument(): Record<string, unknown> {
  const envelope = {
    type: 'object',
    required: ['code', 'message', 'data'],
    properties: {
      code: { type: 'integer', enum: Object.values(API_CODES), description: 'Business code; see docs/api.md. Errors are HTTP 200 too.' },
      message: { type: 'string' },
      data: {},
    },
  };
  const paths: Record<string, unknown> = {};
  for (const [path, proc] of Object.entries(registry)) {
    paths[path] = {
      post: {
        summary: proc.summary,
        requestBody: { required: true, content: { 'application/json': { schema: z.toJSONSchema(proc.input, { io: 'input', unrepresentable: 'any' }) } } },
        responses: { '200': { description: 'Envelope', content: { 'application/json': { schema: envelope } } } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Collectibles storefront market API', version: '1' },
    servers: [{ url: '/api' }],
    paths,
  };
}
