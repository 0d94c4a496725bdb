import { z } from 'zod';
import { EpochMillis, PageQuery, page } from './common';
import { defineArea, defineRoute, minGroup, signedIn } from './define-route';

export const ParameterId = z
  .string()
  .trim()
  .min(1, 'Parameter id cannot be empty')
  .max(128, 'Parameter id is at most 128 characters')
  .regex(/^[A-Za-z0-9._:-]+$/, 'Parameter id may contain only letters, digits, ".", "_", ":" and "-"');

/** Any JSON value: parameters hold strings, numbers, flags or small documents. */
export const ParameterValue = z.json({
  error: (issue) => (issue.input === undefined ? 'Required' : 'Must be a JSON value'),
});

export const Parameter = z.object({ id: ParameterId, value: ParameterValue, updated: EpochMillis });
export type Parameter = z.infer<typeof Parameter>;

const IdParams = z.object({ id: ParameterId });

/**
 * `updated` is accepted as the spec lists it, but the server stamps its own clock: a client cannot
 * back- or forward-date a change.
 */
const ParameterWrite = z.object({ value: ParameterValue, updated: EpochMillis.optional() }).strict();

export const system = defineArea('system', {
  listParameters: defineRoute({
    method: 'GET',
    path: '/parameters',
    access: signedIn,
    summary: 'List system parameters, paged by id (not in the spec: the admin page needs it).',
    query: PageQuery,
    response: page(Parameter),
  }),
  getParameter: defineRoute({
    method: 'GET',
    path: '/parameters/{id}',
    access: signedIn,
    summary: 'Read one system parameter.',
    params: IdParams,
    response: Parameter,
  }),
  createParameter: defineRoute({
    method: 'POST',
    path: '/parameter/',
    access: minGroup('Administrators'),
    summary: 'Create a system parameter; 409 when the id exists.',
    body: ParameterWrite.extend({ id: ParameterId }).strict(),
    response: Parameter,
    status: 201,
  }),
  updateParameter: defineRoute({
    method: 'PUT',
    path: '/update-parameter/{id}',
    access: minGroup('Administrators'),
    summary: "Replace a system parameter's value; 404 when it does not exist.",
    params: IdParams,
    body: ParameterWrite,
    response: Parameter,
  }),
  deleteParameter: defineRoute({
    method: 'DELETE',
    path: '/delete-parameter/{id}',
    access: minGroup('Administrators'),
    summary: 'Delete a system parameter; 404 when it does not exist.',
    params: IdParams,
    response: z.void(),
  }),
});
