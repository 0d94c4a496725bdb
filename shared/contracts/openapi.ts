import { z } from 'zod';
import { type AnyRoute, type Area, normalizePath, pathParamNames, successStatus } from './define-route';
import { ErrorBody } from './errors';

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
};

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: jsonSchema(ErrorBody, 'output') } },
});

const operation = (name: string, route: AnyRoute) => {
  const status = successStatus(route);
  const paramsSchema = route.params
    ? (jsonSchema(route.params, 'input') as { properties?: Record<string, unknown> })
    : {};
  const querySchema = route.query
    ? (jsonSchema(route.query, 'input') as { properties?: Record<string, unknown>; required?: string[] })
    : {};
  return {
    operationId: name,
    summary: route.summary,
    // Our own extension: the access rule the API enforces (spec §6 groups and precedence).
    'x-access': route.access,
    security:
      route.access.kind === 'guest'
        ? [{}, { bearer: [] }]
        : route.access.kind === 'device'
          ? [{ deviceCredential: [] }]
          : route.access.kind === 'apiKey'
            ? [{ apiKey: [] }]
            : [{ bearer: [] }],
    parameters: [
      ...pathParamNames(route.path).map((param) => ({
        name: param,
        in: 'path',
        required: true,
        schema: paramsSchema.properties?.[param] ?? { type: 'string' },
      })),
      ...Object.entries(querySchema.properties ?? {}).map(([param, schema]) => ({
        name: param,
        in: 'query',
        required: querySchema.required?.includes(param) ?? false,
        schema,
      })),
    ],
    ...(route.body
      ? {
          requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(route.body, 'input') } } },
        }
      : {}),
    responses: {
      [status]:
        status === 204
          ? { description: 'Done' }
          : {
              description: 'Success',
              content: { 'application/json': { schema: jsonSchema(route.response, 'output') } },
            },
      400: errorResponse('Invalid input; `issues` names each bad field'),
      401: errorResponse('No valid token (or a bad one)'),
      ...(route.access.kind === 'group' ? { 403: errorResponse(`Requires the ${route.access.group} role`) } : {}),
      ...(route.params ? { 404: errorResponse('Not found') } : {}),
    },
  };
};

/** The OpenAPI 3.1 document of one service area, derived from its contract. */
export const toOpenApi = (area: Area, serverUrl?: string) => {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, route] of Object.entries(area.routes)) {
    const path = normalizePath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(name, route) };
  }
  return {
    openapi: '3.1.0',
    info: { title: `${area.name} API`, version: '1.0.0' },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        deviceCredential: { type: 'http', scheme: 'bearer', bearerFormat: 'dc_{credentialId}.{secret}' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      },
    },
    paths,
  };
};
