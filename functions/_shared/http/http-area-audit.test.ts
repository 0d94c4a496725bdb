import { jest } from '@jest/globals';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import * as z from 'zod';
import { createTokenVerifier } from '../../../shared/auth/verify-token';
import { callerInPath, defineAudit, notAudited } from '../../../shared/contracts/define-audit';
import { defineArea, defineRoute, minGroup, signedIn } from '../../../shared/contracts/define-route';
import { MESSAGES } from '../../../shared/messages';
import type { UserSession } from '../access/access-version-store';
import type { AuditLog, AuditRecord } from '../audit/audit-trail';
import { Forbidden } from '../errors';
import type { KeyRead } from '../read-ahead';
import { httpArea } from './http-area';
import { createSessionGuard } from './session-guard';

/**
 * The chain's part of the audit log (docs/audit.md): which calls it records, the attempt before the handler and the
 * outcome after, what each holds, and what happens when the log cannot be written.
 */
const issuer = 'http://localhost/pool';
const clientId = 'client';

const area = defineArea('test', {
  rename: defineRoute({
    method: 'POST',
    path: '/things/{id}',
    access: minGroup('Employees'),
    summary: 'staff only',
    params: z.object({ id: z.string() }),
    body: z.object({ name: z.string(), password: z.string().optional() }).strict(),
    response: z.object({ id: z.string(), name: z.string() }),
    status: 201,
  }),
  mine: defineRoute({
    method: 'PUT',
    path: '/people/{id}',
    access: signedIn,
    summary: 'self or staff',
    params: z.object({ id: z.string() }),
    response: z.object({ id: z.string() }),
  }),
  refuse: defineRoute({
    method: 'DELETE',
    path: '/things/{id}',
    access: minGroup('Employees'),
    summary: 'refused by the use case',
    params: z.object({ id: z.string() }),
    response: z.void(),
  }),
  look: defineRoute({
    method: 'POST',
    path: '/look',
    access: minGroup('Employees'),
    summary: 'a read with a body',
    response: z.object({ ok: z.boolean() }),
  }),
});

const audit = defineAudit<typeof area>({
  rename: {
    action: 'thing.rename',
    label: 'Renamed a thing',
    target: { kind: 'thing', id: ({ params }) => params.id },
  },
  mine: {
    action: 'person.touch',
    label: 'Touched a person',
    target: { kind: 'user', id: ({ params }) => params.id },
    own: callerInPath,
  },
  refuse: {
    action: 'thing.delete',
    label: 'Deleted a thing',
    target: { kind: 'thing', id: ({ params }) => params.id },
  },
  look: notAudited('a read'),
});

let records: AuditRecord[] = [];
let failOn: AuditRecord['phase'] | undefined;
let handled: { recordsSeen: number }[] = [];
const reads: KeyRead[][] = [];
const usersRead = (id: string): KeyRead => ({ table: 'users', key: { id }, consistent: false, attributes: ['email'] });
const auditLog: AuditLog = {
  actorRead: usersRead,
  actorEmail: async (id, ahead) => ahead.item(usersRead(id))?.email as string | undefined,
  append: async (record) => {
    if (record.phase === failOn) throw new Error('ProvisionedThroughputExceededException');
    records.push(structuredClone(record));
  },
};

let sign: (claims: Record<string, unknown>, sub?: string) => Promise<string>;
const session: UserSession = { version: 0, changedAt: 0, disabled: false, signedOutAt: 0, groupsChangedAt: 0 };
let handler: ReturnType<typeof httpArea<typeof area, object>>;

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k', alg: 'RS256' };
  sign = (claims, sub = 'staff-1') =>
    new SignJWT({ token_use: 'access', client_id: clientId, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'k' })
      .setSubject(sub)
      .setIssuer(issuer)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
  handler = httpArea(
    area,
    {
      rename: ({ params, body, audit }) => {
        handled.push({ recordsSeen: records.length });
        audit.before({ id: params.id, name: 'old name' });
        audit.label('The thing');
        return { id: params.id, name: body.name };
      },
      mine: ({ params }) => {
        handled.push({ recordsSeen: records.length });
        return { id: params.id };
      },
      refuse: () => {
        throw new Forbidden('Not this one');
      },
      look: () => ({ ok: true }),
    },
    {
      audit,
      auditLog: () => auditLog,
      deps: () => ({}),
      verifier: () => createTokenVerifier({ issuer, clientIds: [clientId], keys: createLocalJWKSet({ keys: [jwk] }) }),
      session: () =>
        createSessionGuard(
          { keyRead: (userId) => ({ table: 'sessions', key: { userId }, consistent: true }), get: async () => session },
          async (together) => {
            reads.push([...together]);
            return {
              has: (read) => together.some((r) => r.table === read.table),
              item: (read) => (read.table === 'users' ? { id: read.key.id, email: 'staff@example.com' } : undefined),
            };
          },
        ),
    },
  );
});

beforeEach(() => {
  records = [];
  handled = [];
  failOn = undefined;
  reads.length = 0;
});

const call = async (method: string, resource: string, path: Record<string, string>, token: string, body?: unknown) => {
  const event = {
    httpMethod: method,
    resource,
    path: resource.replace(/\{(\w+)\}/g, (_m, name: string) => path[name]!),
    headers: {
      Authorization: `Bearer ${token}`,
      'User-Agent': 'jest',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    pathParameters: path,
    queryStringParameters: null,
    body: body === undefined ? null : JSON.stringify(body),
    isBase64Encoded: false,
    requestContext: { requestId: 'req-1', identity: { sourceIp: '203.0.113.9' } },
  } as unknown as APIGatewayProxyEvent;
  const result = await handler(event, {} as Context);
  return { status: result.statusCode, body: result.body ? JSON.parse(result.body) : undefined };
};

const employee = () => sign({ 'cognito:groups': ['Employees'] });

describe('the audit log in the http chain', () => {
  it('records a staff call before its handler runs and its outcome after, with who, what, on what and the change', async () => {
    const answer = await call('POST', '/things/{id}', { id: 't-1' }, await employee(), {
      name: 'new name',
      password: 'hunter2',
    });
    expect(answer).toEqual({ status: 201, body: { id: 't-1', name: 'new name' } });
    expect(handled).toEqual([{ recordsSeen: 1 }]);
    expect(records.map((r) => r.phase)).toEqual(['attempt', 'outcome']);
    const [attempt, outcome] = records as [AuditRecord, AuditRecord];
    expect(attempt).toMatchObject({
      id: 'req-1',
      action: 'thing.rename',
      area: 'test',
      route: 'rename',
      method: 'POST',
      path: '/things/t-1',
      actor: { id: 'staff-1', email: 'staff@example.com', groups: ['Employees'] },
      target: { kind: 'thing', id: 't-1' },
      change: { params: { id: 't-1' }, query: {}, body: { name: 'new name', password: '[redacted]' } },
      sourceIp: '203.0.113.9',
      userAgent: 'jest',
    });
    expect(attempt.outcome).toBeUndefined();
    expect(outcome).toMatchObject({
      ...attempt,
      phase: 'outcome',
      outcome: 'succeeded',
      status: 201,
      target: { kind: 'thing', id: 't-1', label: 'The thing' },
      before: { id: 't-1', name: 'old name' },
      after: { id: 't-1', name: 'new name' },
    });
    expect(outcome.finishedAt).toBeGreaterThanOrEqual(attempt.time);
    expect(JSON.stringify(records)).not.toContain('hunter2');
  });

  it("reads the actor's e-mail with the session record, in the same round trip, only for a staff call it audits", async () => {
    await call('POST', '/things/{id}', { id: 't-2' }, await employee(), { name: 'n' });
    expect(reads).toHaveLength(1);
    expect(reads[0]!.map((read) => read.table)).toEqual(['sessions', 'users']);
    reads.length = 0;
    await call('POST', '/look', {}, await employee());
    expect(reads[0]!.map((read) => read.table)).toEqual(['sessions']);
  });

  it('takes the e-mail from the token when it carries one', async () => {
    await call(
      'POST',
      '/things/{id}',
      { id: 't-3' },
      // Bearer tokens are access tokens (decision 016); one that carries an e-mail claim spares the read.
      await sign({ 'cognito:groups': ['Administrators'], email: 'a@x.org' }),
      {
        name: 'n',
      },
    );
    expect(records[0]!.actor).toEqual({ id: 'staff-1', email: 'a@x.org', groups: ['Administrators'] });
    expect(reads[0]!.map((read) => read.table)).toEqual(['sessions']);
  });

  it("records a staff member's call on someone else's things through a route open to all, and nothing of a person's own", async () => {
    await call('PUT', '/people/{id}', { id: 'someone-else' }, await employee());
    expect(records.map((r) => [r.phase, r.target.id])).toEqual([
      ['attempt', 'someone-else'],
      ['outcome', 'someone-else'],
    ]);
    records = [];
    await call('PUT', '/people/{id}', { id: 'staff-1' }, await employee());
    expect(records).toEqual([]);
    await call(
      'PUT',
      '/people/{id}',
      { id: 'someone-else' },
      await sign({ 'cognito:groups': ['Distributors'] }, 'user-9'),
    );
    expect(records).toEqual([]);
    expect(handled).toHaveLength(3);
  });

  it('records nothing of a route declared as not audited', async () => {
    expect((await call('POST', '/look', {}, await employee())).status).toBe(200);
    expect(records).toEqual([]);
  });

  it('records a refused call as failed, with the status and the message the caller got', async () => {
    const answer = await call('DELETE', '/things/{id}', { id: 't-4' }, await employee());
    expect(answer).toMatchObject({ status: 403, body: { message: 'Not this one' } });
    expect(records.at(-1)).toMatchObject({ phase: 'outcome', outcome: 'failed', status: 403, error: 'Not this one' });
    expect(records.at(-1)!.after).toBeUndefined();
  });

  it('refuses the call with 503, before anything changed, when the attempt cannot be written', async () => {
    failOn = 'attempt';
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const answer = await call('POST', '/things/{id}', { id: 't-5' }, await employee(), { name: 'n' });
    error.mockRestore();
    expect(answer).toEqual({ status: 503, body: expect.objectContaining({ message: MESSAGES.auditUnavailable }) });
    expect(handled).toEqual([]);
  });

  it('answers the change it made, and logs the whole outcome loudly, when only the outcome cannot be written', async () => {
    failOn = 'outcome';
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const answer = await call('POST', '/things/{id}', { id: 't-6' }, await employee(), { name: 'kept' });
    const lines = error.mock.calls.map((args) => JSON.parse(String(args[0])) as Record<string, unknown>);
    error.mockRestore();
    expect(answer).toEqual({ status: 201, body: { id: 't-6', name: 'kept' } });
    expect(records.map((r) => r.phase)).toEqual(['attempt']);
    const loud = lines.find((line) => String(line.message).startsWith('AUDIT OUTCOME NOT RECORDED'));
    expect(loud).toMatchObject({
      level: 'ERROR',
      // The API Gateway request's id, so the line can be found from the request and followed into the queues.
      correlation_id: 'req-1',
      audit: { phase: 'outcome', outcome: 'succeeded', after: { name: 'kept' } },
    });
  });

  it('refuses at start an audit that names a route the area does not have', () => {
    expect(() =>
      httpArea(area, {} as never, {
        audit: { nope: notAudited('x') } as never,
        deps: () => ({}),
        session: () => async () => ({ caller: undefined, ahead: { has: () => false, item: () => undefined } }),
      }),
    ).toThrow("The test area's audit names routes it does not have: nope");
  });
});
