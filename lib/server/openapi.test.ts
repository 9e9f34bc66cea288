import { openApiDocument } from './openapi';
import { registry } from './registry';

describe('OpenAPI document', () => {
  it('describes every API path with its input schema', () => {
    const doc = openApiDocument() as { paths: Record<string, { post: { requestBody: { content: { 'application/json': { schema: { properties?: Record<string, unknown>; required?: string[] } } } } } }> };
    expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(registry).sort());
    const detail = doc.paths['/market/api/channel/detail']!.post.requestBody.content['application/json'].schema;
    expect(detail.required).toEqual(['key']);
    const paging = doc.paths['/market/api/channel/querySaleRecord']!.post.requestBody.content['application/json'].schema;
    expect(Object.keys(paging.properties ?? {})).toEqual(['pageCount', 'pageSize']);
  });
});
