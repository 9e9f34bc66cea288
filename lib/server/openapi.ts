import { z } from 'zod';
import { registry } from './registry';
import { API_CODES } from '../procedure/errors';
import { REASONS } from '../procedure/reasons';
import { REASON_MEANINGS } from './refusal-reasons';
import type { ProcedureAuth } from '../procedure/procedure';

/** How a buyer proves who they are (docs/api.md "Who is calling"): the API token, or the storefront's session cookie. */
const SECURITY_SCHEMES = {
  apiToken: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'The token authCodeLoginV2 returned in its authorization header (a `Bearer ` prefix is accepted).',
  },
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'next-auth.session-token',
    description: "The storefront's web session (`__Secure-next-auth.session-token` on HTTPS); same-origin JSON calls only.",
  },
  operatorSession: {
    type: 'apiKey',
    in: 'cookie',
    name: '__Host-ops',
    description: "An operator's console session on the operator host (issue 31); same-origin JSON calls only.",
  },
} as const;

/** Per procedure (OpenAPI `security`): a buyer's token or cookie, either or nothing, or no session read at all. */
const SECURITY: Record<ProcedureAuth, Record<string, string[]>[]> = {
  buyer: [{ apiToken: [] }, { sessionCookie: [] }],
  optional: [{}, { apiToken: [] }, { sessionCookie: [] }],
  none: [],
  operator: [{ operatorSession: [] }],
  operatorGuest: [],
};

const ANSWER: Record<ProcedureAuth, string> = {
  buyer: "Envelope. Needs a logged-in buyer of the host's channel: anyone else gets code 401, before the input is read.",
  optional:
    'Envelope. Open to visitors; a logged-in buyer of the channel also sees their own state (an invalid session reads as a visitor).',
  none: 'Envelope. Open to anyone; no session is read.',
  operator:
    'Envelope. The operator console (issue 31), on the operator host only: a signed-in operator of a role the call allows (code 401 without a session, before the input is read; 403 for another role; 404 for a channel they do not work on).',
  operatorGuest: "Envelope. The operator console's enrolment and sign-in, on the operator host only; no session is read.",
};

/** A procedure's answer as JSON Schema: what the handler sends (`io: 'output'`), without the draft's `$schema` line. */
function outputSchema(output: z.ZodType): Record<string, unknown> {
  const schema = z.toJSONSchema(output, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

/** A refusal's `data` (code other than 200): why, for a client to branch on, and the input field it is about. */
const REFUSAL = {
  type: 'object',
  properties: {
    reason: {
      type: 'string',
      enum: [...REASONS],
      description: REASONS.map((reason) => `${reason}: ${REASON_MEANINGS[reason]}`).join('; '),
    },
    field: { type: 'string', description: 'The input field the refusal is about; the message is a sentence for the buyer.' },
  },
  additionalProperties: true,
};

/** The API describes itself (DESIGN §5): an OpenAPI 3.1 document generated from the procedures' zod schemas. */
export function openApiDocument(): Record<string, unknown> {
  /** The answer of one procedure: the envelope, with `data` its output schema (code 200; a refusal's `data` is null or its detail, such as `{reason}`). */
  const envelope = (data: Record<string, unknown>) => ({
    type: 'object',
    required: ['code', 'message', 'data'],
    properties: {
      code: {
        type: 'integer',
        enum: Object.values(API_CODES),
        description:
          "Business code; see docs/api.md. Errors are HTTP 200 too, with data null or the refusal's detail (#/components/schemas/Refusal).",
      },
      message: { type: 'string' },
      data,
    },
  });
  const paths: Record<string, unknown> = {};
  for (const [path, proc] of Object.entries(registry)) {
    paths[path] = {
      post: {
        summary: proc.summary,
        'x-auth': proc.auth,
        security: SECURITY[proc.auth],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: z.toJSONSchema(proc.input, { io: 'input', unrepresentable: 'any' }) } },
        },
        responses: {
          '200': { description: ANSWER[proc.auth], content: { 'application/json': { schema: envelope(outputSchema(proc.output)) } } },
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Collectibles storefront market API', version: '1' },
    servers: [{ url: '/api' }],
    components: { securitySchemes: SECURITY_SCHEMES, schemas: { Refusal: REFUSAL } },
    paths,
  };
}
