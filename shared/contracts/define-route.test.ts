import * as z from 'zod';
import {
  createRouteMatcher,
  defineRoute,
  fillPath,
  normalizePath,
  pathParamNames,
  signedIn,
  successStatus,
} from './define-route';

const routes = {
  get: defineRoute({
    method: 'GET',
    path: '/parameters/{id}',
    access: signedIn,
    summary: '',
    params: z.object({ id: z.string() }),
    response: z.object({}),
  }),
  create: defineRoute({
    method: 'POST',
    path: '/parameter/',
    access: signedIn,
    summary: '',
    response: z.object({}),
    status: 201,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/parameters/{id}',
    access: signedIn,
    summary: '',
    response: z.void(),
  }),
  pair: defineRoute({
    method: 'GET',
    path: '/listByReferrerId/{id}/{x}',
    access: signedIn,
    summary: '',
    response: z.object({}),
  }),
};

describe('route paths', () => {
  it('names the path parameters in order', () => {
    expect(pathParamNames('/listByReferrerId/{id}/{x}')).toEqual(['id', 'x']);
  });

  it('treats a trailing slash as the same resource', () => {
    expect(normalizePath('/parameter/')).toBe('/parameter');
    expect(normalizePath('/')).toBe('/');
  });

  it('fills and encodes path parameters, refusing empty ones', () => {
    expect(fillPath('/parameters/{id}', { id: 'a b/c' })).toBe('/parameters/a%20b%2Fc');
    expect(() => fillPath('/parameters/{id}', { id: '' })).toThrow('Missing path parameter "id"');
  });

  it('defaults the success status to 200, or 204 for a void response', () => {
    expect(successStatus(routes.get)).toBe(200);
    expect(successStatus(routes.create)).toBe(201);
    expect(successStatus(routes.remove)).toBe(204);
  });
});

describe('the route matcher', () => {
  const match = createRouteMatcher(routes);

  it('matches method and path and decodes the parameters', () => {
    expect(match('GET', '/parameters/a%20b')).toMatchObject({ name: 'get', params: { id: 'a b' } });
    expect(match('delete', '/parameters/x')).toMatchObject({ name: 'remove' });
    expect(match('GET', '/listByReferrerId/u1/25')).toMatchObject({ name: 'pair', params: { id: 'u1', x: '25' } });
  });

  it('matches with or without the trailing slash the spec writes', () => {
    expect(match('POST', '/parameter/')).toMatchObject({ name: 'create' });
    expect(match('POST', '/parameter')).toMatchObject({ name: 'create' });
  });

  it('names the parameter that is not valid percent-encoding instead of throwing', () => {
    for (const bad of ['%ZZ', 'a%', '%E2%82', '%C0%AF', '%ED%A0%80']) {
      expect(match('GET', `/parameters/${bad}`)).toEqual({ badEncoding: 'id' });
    }
    expect(match('GET', '/listByReferrerId/u1/2%')).toEqual({ badEncoding: 'x' });
    expect(match('GET', '/parameters/%E2%82%AC')).toMatchObject({ params: { id: '€' } });
  });

  it('tells a wrong method from an unknown path', () => {
    expect(match('PUT', '/parameters/x')).toBe('method-not-allowed');
    expect(match('GET', '/parameters/x/y')).toBeUndefined();
    expect(match('GET', '/nothing')).toBeUndefined();
  });
});
