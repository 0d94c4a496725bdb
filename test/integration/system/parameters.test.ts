import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Parameter } from '../../../shared/contracts/system';
import { apiAs, apiRejection, areaUrl, documentClient, stack, tokenOf, uniqueId } from '../../support/stack';

const expectApiError = async (promise: Promise<unknown>, status: number, message?: string | RegExp) => {
  const error = await apiRejection(promise);
  expect(error.status).toBe(status);
  if (message) expect(error.message).toMatch(message);
  return error;
};

describe('system parameters through the local gateway', () => {
  let admin: ReturnType<typeof apiAs<'system'>>;
  let employee: ReturnType<typeof apiAs<'system'>>;

  beforeAll(async () => {
    admin = apiAs('system', await tokenOf('admin@example.com'));
    employee = apiAs('system', await tokenOf('employee@example.com'));
  });

  it('creates, reads, updates and deletes a parameter, stored in DynamoDB', async () => {
    const id = uniqueId('param');
    const before = Date.now();
    const created = await admin.createParameter({ body: { id, value: { on: true } } });
    expect(created).toMatchObject({ id, value: { on: true } });
    expect(created.updated).toBeGreaterThanOrEqual(before);

    const stored = await documentClient().send(new GetCommand({ TableName: stack().tables.parameters, Key: { id } }));
    expect(stored.Item).toEqual(created);

    expect(await employee.getParameter({ params: { id } })).toEqual(created);
    const updated = await admin.updateParameter({ params: { id }, body: { value: 'off' } });
    expect(updated.value).toBe('off');
    expect(updated.updated).toBeGreaterThanOrEqual(created.updated);

    await admin.deleteParameter({ params: { id } });
    await expectApiError(employee.getParameter({ params: { id } }), 404, `Parameter not found: ${id}`);
  });

  it('stamps the server clock, not the updated time a client sends', async () => {
    const id = uniqueId('clock');
    const created = await admin.createParameter({ body: { id, value: 1, updated: 42 } });
    expect(created.updated).toBeGreaterThan(42);
    await admin.deleteParameter({ params: { id } });
  });

  it('answers an unknown id with 404 and a clear message on read, update and delete', async () => {
    await expectApiError(
      admin.getParameter({ params: { id: 'no-such-parameter' } }),
      404,
      'Parameter not found: no-such-parameter',
    );
    await expectApiError(admin.updateParameter({ params: { id: 'no-such-parameter' }, body: { value: 1 } }), 404);
    await expectApiError(admin.deleteParameter({ params: { id: 'no-such-parameter' } }), 404);
  });

  it('takes the names of Object.prototype for ids like any other: unknown until made, 404, never a 500 (audit)', async () => {
    for (const id of ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty']) {
      await expectApiError(admin.getParameter({ params: { id } }), 404, `Parameter not found: ${id}`);
      await expectApiError(
        admin.updateParameter({ params: { id }, body: { value: 'fuzz' } }),
        404,
        `Parameter not found: ${id}`,
      );
    }
    // Made, it is a parameter as any other, with no shape to check.
    await expect(admin.createParameter({ body: { id: 'constructor', value: { a: 1 } } })).resolves.toMatchObject({
      id: 'constructor',
      value: { a: 1 },
    });
    await expect(
      admin.updateParameter({ params: { id: 'constructor' }, body: { value: 'fuzz' } }),
    ).resolves.toMatchObject({ id: 'constructor', value: 'fuzz' });
    await admin.deleteParameter({ params: { id: 'constructor' } });
    await expect(admin.createParameter({ body: { id: '__proto__', value: 'x' } })).resolves.toMatchObject({
      id: '__proto__',
      value: 'x',
    });
    await admin.deleteParameter({ params: { id: '__proto__' } });
  });

  it('stores any JSON value as written, objects with a key named constructor included (fuzz found a 500)', async () => {
    const id = uniqueId('json');
    const value: Parameter['value'] = {
      constructor: 'toString',
      nested: [{ constructor: { name: 'Set' } }, { valueOf: 265 }],
    };
    await expect(admin.createParameter({ body: { id, value } })).resolves.toMatchObject({ id, value });
    await expect(admin.getParameter({ params: { id } })).resolves.toMatchObject({ id, value });
    const changed: Parameter['value'] = { constructor: { name: 'Map' }, x: 'toString' };
    await expect(admin.updateParameter({ params: { id }, body: { value: changed } })).resolves.toMatchObject({
      value: changed,
    });
    await expect(admin.getParameter({ params: { id } })).resolves.toMatchObject({ value: changed });
    await admin.deleteParameter({ params: { id } });
  });

  it('refuses to create the same id twice and keeps the first value', async () => {
    const id = uniqueId('dup');
    await admin.createParameter({ body: { id, value: 'first' } });
    await expectApiError(
      admin.createParameter({ body: { id, value: 'second' } }),
      409,
      `Parameter already exists: ${id}`,
    );
    expect((await admin.getParameter({ params: { id } })).value).toBe('first');
    await admin.deleteParameter({ params: { id } });
  });

  const post = async (body: string, token?: string) =>
    fetch(`${areaUrl('system')}/parameter/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token ?? (await tokenOf('admin@example.com'))}`,
      },
      body,
    });

  it.each([
    ['a missing value', '{"id":"p-missing"}', 'body.value'],
    ['an unknown field', '{"id":"p-extra","value":1,"colour":"red"}', 'colour'],
    ['an id with a slash', '{"id":"a/b","value":1}', 'body.id'],
    ['an empty id', '{"id":"","value":1}', 'body.id'],
    ['a non-numeric updated', '{"id":"p-upd","value":1,"updated":"yesterday"}', 'body.updated'],
  ])('answers %s with a 400 naming the field', async (_label, body, field) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    const payload = (await response.json()) as { message: string; issues: { path: string }[] };
    expect(payload.message).toContain(field);
    expect(JSON.stringify(payload)).not.toMatch(/at .*\.ts:\d+/);
  });

  it('answers malformed JSON with a 400, not a 500', async () => {
    const response = await post('{"id": "x", value');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toBe('Request body is not valid JSON');
  });

  it('pages the list with an opaque cursor and rejects a forged one', async () => {
    const ids = await Promise.all([1, 2, 3].map(() => uniqueId('page')));
    for (const id of ids) await admin.createParameter({ body: { id, value: id } });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await employee.listParameters({ query: { limit: 2, cursor } });
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((p) => p.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(expect.arrayContaining(ids));
    expect(new Set(seen).size).toBe(seen.length);
    await expectApiError(employee.listParameters({ query: { cursor: 'forged' } }), 400, 'Invalid page cursor');
    await expectApiError(employee.listParameters({ query: { limit: 1000 } }), 400, 'query.limit');
    for (const id of ids) await admin.deleteParameter({ params: { id } });
  });

  it('lets only Administrators write: an Employee gets 403 and nothing changes', async () => {
    const id = uniqueId('guarded');
    await expectApiError(employee.createParameter({ body: { id, value: 1 } }), 403, 'Administrators');
    await expectApiError(employee.getParameter({ params: { id } }), 404);
  });

  it('rejects guests on signed-in routes with 401 and a bad token with 401', async () => {
    await expectApiError(apiAs('system').getParameter({ params: { id: 'maintenance-mode' } }), 401);
    await expectApiError(apiAs('system', 'not.a.token').getParameter({ params: { id: 'maintenance-mode' } }), 401);
    const [header, payload] = (await tokenOf('admin@example.com')).split('.');
    await expectApiError(apiAs('system', `${header}.${payload}.AAAA`).listParameters({}), 401);
  });

  it('answers CORS only for the web origin', async () => {
    const allowed = stack().endpoints.web ?? 'http://localhost:5173';
    const preflight = await fetch(`${areaUrl('system')}/parameters/x`, {
      method: 'OPTIONS',
      headers: { origin: allowed, 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(allowed);
    const foreign = await fetch(`${areaUrl('system')}/parameters/maintenance-mode`, {
      headers: { origin: 'http://evil.example', authorization: `Bearer ${await tokenOf('user@example.com')}` },
    });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers an unknown route with 404 and a wrong method with 405', async () => {
    expect((await fetch(`${areaUrl('system')}/nothing-here`)).status).toBe(404);
    expect((await fetch(`${areaUrl('system')}/parameters/x`, { method: 'PATCH' })).status).toBe(405);
  });
});

describe('the system OpenAPI document', () => {
  it('is served by the local gateway, derived from the contract', async () => {
    const response = await fetch(`${areaUrl('system')}/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as { paths: Record<string, Record<string, { operationId: string }>> };
    expect(document.paths['/parameters/{id}']?.get?.operationId).toBe('getParameter');
    expect(document.paths['/parameter']?.post?.operationId).toBe('createParameter');
  });
});
