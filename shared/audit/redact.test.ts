import * as z from 'zod';
import { AREAS } from '../contracts/areas';
import { AUDITS } from '../contracts/audits';
import { type AnyAuditMap, isAudited } from '../contracts/define-audit';
import type { AnyRoute } from '../contracts/define-route';
import { isSecretName, MAX_STRING, REDACTED, redact } from './redact';

describe('what never reaches the audit log', () => {
  it('replaces the value of every field named as a secret, at any depth, and keeps the rest', () => {
    const value = {
      id: 'dev-1',
      claimCode: '7KQ2-M9XD-4RTP',
      credential: { credentialId: 'c1', secret: 's3cr3t', token: 'c1.s3cr3t' },
      people: [{ password: 'Local-Demo-Passw0rd', temporaryPassword: 'x', name: 'Ann' }],
      idToken: 'whatever',
      apiKey: 'k',
      headers: { Authorization: 'Bearer abc', Cookie: 'a=b' },
      code: '123456',
      keyId: 'key-1',
      key: 'exports/a.csv',
    };
    expect(redact(value)).toEqual({
      id: 'dev-1',
      claimCode: REDACTED,
      credential: { credentialId: 'c1', secret: REDACTED, token: REDACTED },
      people: [{ password: REDACTED, temporaryPassword: REDACTED, name: 'Ann' }],
      idToken: REDACTED,
      apiKey: REDACTED,
      headers: { Authorization: REDACTED, Cookie: REDACTED },
      code: REDACTED,
      keyId: 'key-1',
      key: 'exports/a.csv',
    });
  });

  it('replaces strings shaped like credentials wherever they are', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1In0.c2lnbmF0dXJl';
    expect(
      redact({
        note: 'dc_abcdefgh.ijklmnopqrstuvwxyz012345',
        list: [
          'ak_01234567.89abcdefghijklmnopqrstuv',
          'sk_test_51abcdefghij',
          'whsec_abcdefghijkl',
          jwt,
          'plain words',
        ],
        // The id of a credential or key alone names it: it stays.
        ids: ['dc_VIJdKmWNC4Njdf_U', 'ak_0123456789ab'],
      }),
    ).toEqual({
      note: REDACTED,
      list: [REDACTED, REDACTED, REDACTED, REDACTED, 'plain words'],
      ids: ['dc_VIJdKmWNC4Njdf_U', 'ak_0123456789ab'],
    });
  });

  it('cuts long strings and long lists, and drops what JSON cannot hold', () => {
    const out = redact({
      body: 'x'.repeat(MAX_STRING + 50),
      many: Array.from({ length: 250 }, (_, i) => i),
      gone: undefined,
    });
    expect((out as { body: string }).body).toBe(`${'x'.repeat(MAX_STRING)}… [50 more characters]`);
    expect((out as { many: unknown[] }).many).toHaveLength(201);
    expect((out as { many: unknown[] }).many.at(-1)).toBe('[50 more]');
    expect(out).not.toHaveProperty('gone');
  });

  /**
   * Every field of every audited route's path, query, body and response: a name that sounds like a secret is redacted
   * unless listed here as not one. A field added later that holds a secret under a new name fails this test until
   * it is redacted or explained.
   */
  const NOT_SECRETS: Record<string, string> = {
    credentialId: 'names a credential; its secret is `secret` and `token`',
    keyId: 'names an API key',
    key: 'an S3 object key (a logo, an export)',
    keys: 'S3 object keys of a backup',
    Keys: "DynamoDB items' key attributes (batchGetDdbItems): names items, proves nothing",
    UnprocessedKeys: 'the item keys DynamoDB left unread (batchGetDdbItems)',
  };
  const SOUNDS_SECRET = /pass|secret|token|code|key|credential|auth|cookie|otp|pin/i;

  const fieldsOf = (schema: z.ZodType | undefined, into: Set<string>, seen = new Set<unknown>()): Set<string> => {
    if (!schema || seen.has(schema)) return into;
    seen.add(schema);
    const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
    if (schema instanceof z.ZodObject) {
      for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
        into.add(name);
        fieldsOf(field, into, seen);
      }
      return into;
    }
    for (const inner of ['innerType', 'element', 'valueType', 'in', 'out', 'schema', 'type']) {
      const child = def[inner];
      if (child instanceof z.ZodType) fieldsOf(child, into, seen);
    }
    for (const option of (def.options as z.ZodType[] | undefined) ?? []) fieldsOf(option, into, seen);
    for (const side of ['left', 'right'] as const) {
      const child = def[side];
      if (child instanceof z.ZodType) fieldsOf(child, into, seen);
    }
    return into;
  };

  it('redacts every field of an audited route whose name sounds like a secret, or says why it is not one', () => {
    const names = new Set<string>();
    for (const [area, definition] of Object.entries(AREAS)) {
      const declarations = AUDITS[area as keyof typeof AUDITS] as AnyAuditMap;
      for (const [name, route] of Object.entries(definition.routes as Record<string, AnyRoute>)) {
        if (!isAudited(declarations[name])) continue;
        for (const part of [route.params, route.query, route.body, route.response]) fieldsOf(part, names);
      }
    }
    const suspicious = [...names].filter((name) => SOUNDS_SECRET.test(name));
    expect(suspicious.length).toBeGreaterThan(3);
    const unexplained = suspicious.filter((name) => !isSecretName(name) && !NOT_SECRETS[name]);
    expect(unexplained).toEqual([]);
    // The secrets the audited routes really answer: a device's claim code and a new credential's secret and token.
    for (const secret of ['claimCode', 'secret', 'token']) {
      expect([secret, names.has(secret), isSecretName(secret)]).toEqual([secret, true, true]);
    }
  });
});
