import { openApiDocument } from './openapi';
import { registry } from './registry';
import { REASONS } from '../procedure/reasons';

type JsonSchema = {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};
type Operation = {
  'x-auth': string;
  security: Record<string, string[]>[];
  responses: { '200': { description: string; content: { 'application/json': { schema: JsonSchema } } } };
  requestBody: { content: { 'application/json': { schema: JsonSchema } } };
};

const doc = openApiDocument() as { paths: Record<string, { post: Operation }>; components: { schemas: Record<string, JsonSchema> } };
const answerOf = (path: string) => doc.paths[path]!.post.responses['200'].content['application/json'].schema;
const dataOf = (path: string) => answerOf(path).properties!.data!;

describe('OpenAPI document', () => {
  it('describes every API path with its input schema', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(registry).sort());
    const detail = doc.paths['/market/api/channel/detail']!.post.requestBody.content['application/json'].schema;
    expect(detail.required).toEqual(['key']);
    const paging = doc.paths['/market/api/channel/querySaleRecord']!.post.requestBody.content['application/json'].schema;
    expect(Object.keys(paging.properties ?? {})).toEqual(['pageCount', 'pageSize']);
  });

  it("describes every answer as the envelope whose data is the procedure's output schema", () => {
    for (const path of Object.keys(registry)) {
      const answer = answerOf(path);
      expect(answer.required).toEqual(['code', 'message', 'data']);
      // Not the old `data: {}`: every answer says what it carries.
      expect(Object.keys(dataOf(path)).length).toBeGreaterThan(0);
    }
    const order = dataOf('/market/api/order/create');
    expect(order.type).toBe('object');
    expect(order.required).toEqual(expect.arrayContaining(['orderNo', 'price', 'pricePay', 'statusTrade', 'createTime', 'editions']));
    expect(order.properties!.statusTrade!.enum).toEqual([0, 1, 2, 3]);
    expect(order.properties!.price!.type).toBe('integer');
    const page = dataOf('/market/api/channel/querySaleRecord');
    expect(Object.keys(page.properties ?? {})).toEqual(['records', 'total', 'current', 'pages', 'size']);
    expect(page.properties!.records!.items!.properties!.id!.type).toBe('string');
    const gifts = dataOf('/market/api/channel/queryGiftConfig');
    expect(gifts.type).toBe('array');
  });

  it('says who may call each procedure', () => {
    for (const [path, proc] of Object.entries(registry)) {
      const op = doc.paths[path]!.post;
      expect(op['x-auth']).toBe(proc.auth);
      if (proc.auth === 'buyer') expect(op.security).toEqual([{ apiToken: [] }, { sessionCookie: [] }]);
      if (proc.auth === 'none') expect(op.security).toEqual([]);
    }
    expect(doc.paths['/market/api/order/create']!.post.responses['200'].description).toMatch(/logged-in buyer/);
  });

  it("lists the reasons a refusal's data may give, from the one typed list the services throw with (issue 30)", () => {
    expect(doc.components.schemas.Refusal!.properties!.reason!.enum).toEqual([...REASONS]);
    expect(REASONS).toEqual(expect.arrayContaining(['notOpen', 'soldOut', 'limit', 'badCode', 'openid', 'alreadyChainedUp']));
  });
});
