import { AREAS } from './areas';
import { normalizePath } from './define-route';
import { toOpenApi } from './openapi';
import { system } from './system';

describe('OpenAPI documents derived from the contracts', () => {
  it('lists every route of every area under its path and method', () => {
    for (const area of Object.values(AREAS)) {
      const document = toOpenApi(area);
      for (const [name, route] of Object.entries(area.routes)) {
        const operation = document.paths[normalizePath(route.path)]?.[route.method.toLowerCase()] as {
          operationId: string;
        };
        expect(operation?.operationId).toBe(name);
      }
    }
  });

  it('describes path parameters, the body schema, the success status and the access rule', () => {
    const document = toOpenApi(system, 'http://localhost:3000/system');
    const update = document.paths['/update-parameter/{id}']?.put as {
      parameters: { name: string; in: string; required: boolean }[];
      requestBody: { content: { 'application/json': { schema: { required?: string[] } } } };
      responses: Record<string, unknown>;
      'x-access': unknown;
    };
    expect(update.parameters).toContainEqual(expect.objectContaining({ name: 'id', in: 'path', required: true }));
    expect(update.requestBody.content['application/json'].schema.required).toEqual(['value']);
    expect(Object.keys(update.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404']));
    expect(update['x-access']).toEqual({ kind: 'group', group: 'Administrators' });
    const remove = document.paths['/delete-parameter/{id}']?.delete as { responses: Record<string, unknown> };
    expect(remove.responses).toHaveProperty('204');
    const list = document.paths['/parameters']?.get as {
      parameters: { name: string; in: string; required: boolean }[];
    };
    expect(list.parameters).toContainEqual(expect.objectContaining({ name: 'limit', in: 'query', required: false }));
  });
});
