import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { encodeCursor } from '../../../functions/_shared/cursor';
import { queryPage } from '../../../functions/_shared/dynamodb';
import { BadRequest } from '../../../functions/_shared/errors';
import { createHourlyCounter } from '../../../functions/_shared/hourly-counter';
import { cursorPage, readAll } from '../../../functions/_shared/paging';
import { attachmentOf, createS3Files } from '../../../functions/_shared/s3-files';
import { MESSAGES } from '../../../shared/messages';
import { documentClient, s3Client, stack, uniqueId } from '../../support/stack';

/**
 * The shared adapters against the emulators: a table read a page at a time (functions/_shared/dynamodb.ts, paging.ts),
 * the hourly limit counter (hourly-counter.ts) and a bucket's files (s3-files.ts). Each store builds on them, so what
 * DynamoDB and S3 really answer is checked here once.
 */

// 2026-06-10 10:00 UTC: a fixed hour, away from any edge of today.
const HOUR_START = Date.UTC(2026, 5, 10, 10);
const HOUR = 3_600_000;

describe('a table read a page at a time', () => {
  const db = documentClient();
  const tableName = () => stack().tables.authEvents!;
  const userId = uniqueId('paging');
  const keys = Array.from({ length: 23 }, (_, i) => `k-${String(i).padStart(2, '0')}`);
  const query = (extra: { FilterExpression?: string } = {}) => ({
    TableName: tableName(),
    KeyConditionExpression: 'userId = :user',
    ExpressionAttributeValues: { ':user': userId, ...(extra.FilterExpression ? { ':three': 0 } : {}) },
    ...extra,
  });

  beforeAll(async () => {
    for (const [i, eventKey] of keys.entries()) {
      await db.send(new PutCommand({ TableName: tableName(), Item: { userId, eventKey, third: i % 3 } }));
    }
  });

  it('reads every item once, in key order, whatever the page size', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 30 }), async (limit) => {
        const items = await readAll((startKey) => queryPage(db, query(), { limit, startKey }, (item) => item.eventKey));
        expect(items).toEqual(keys);
      }),
      { numRuns: 6 },
    );
  });

  it('walked by its cursors, with a filter DynamoDB applies after the limit, shows each match once, in order', async () => {
    const matching = keys.filter((_, i) => i % 3 === 0);
    for (const limit of [1, 4, 7]) {
      const seen: unknown[] = [];
      let cursor: string | undefined;
      do {
        const page = await cursorPage(
          (startKey, max) =>
            queryPage(db, query({ FilterExpression: 'third = :three' }), { limit: max, startKey }, (i) => i.eventKey),
          { limit, ...(cursor ? { cursor } : {}) },
        );
        seen.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen).toEqual(matching);
    }
  });

  it('refuses a cursor naming a key the table does not have as the client’s error, not a server fault', async () => {
    const wrongShape = encodeCursor({ id: 'not-this-table' })!;
    const error = await cursorPage((startKey, limit) => queryPage(db, query(), { limit, startKey }), {
      limit: 5,
      cursor: wrongShape,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequest);
    expect((error as BadRequest).message).toBe(MESSAGES.invalidCursor);
  });
});

describe('the hourly limit counter', () => {
  const db = documentClient();
  const tableName = () => stack().tables.exports!;

  it('lets exactly the limit through however many ask at once, and keeps one short-lived item per subject and hour', async () => {
    const count = createHourlyCounter({ db, tableName: tableName(), kind: 'starts' });
    const subject = uniqueId('person:counter');
    const answers = await Promise.all(Array.from({ length: 8 }, () => count(subject, HOUR_START, 3)));
    expect(answers.filter(Boolean)).toHaveLength(3);
    const { Item } = await db.send(
      new GetCommand({ TableName: tableName(), Key: { id: `starts#${subject}#${HOUR_START}` }, ConsistentRead: true }),
    );
    // The item the two stores wrote by hand before, unchanged: counters in flight at a deploy go on counting.
    expect(Item).toEqual({ id: `starts#${subject}#${HOUR_START}`, count: 3, expiresAt: HOUR_START / 1000 + 7200 });
    expect(await count(subject, HOUR_START + HOUR, 3)).toBe(true);
    expect(await count(uniqueId('person:other'), HOUR_START, 3)).toBe(true);
  });
});

describe("a bucket's files", () => {
  const files = () => createS3Files({ s3: s3Client(), bucket: stack().buckets.exports! });
  const prefix = `${uniqueId('files')}/`;

  it('answers a missing object as undefined, and one written with its size, type and bytes', async () => {
    expect(await files().head(`${prefix}none.csv`)).toBeUndefined();
    expect(await files().get(`${prefix}none.csv`)).toBeUndefined();
    await files().put(`${prefix}a.csv`, 'a,b\r\n1,2\r\n', { ContentType: 'text/csv' });
    expect(await files().head(`${prefix}a.csv`)).toEqual({ size: 10, contentType: 'text/csv' });
    expect(await (await files().get(`${prefix}a.csv`, { range: 'bytes=0-2' }))?.transformToString()).toBe('a,b');
  });

  it('signs a download the browser saves under the name given, whatever characters it holds', async () => {
    await files().put(`${prefix}b.csv`, 'x\r\n', { ContentType: 'text/csv' });
    const fileName = 'Messung "Süd" 2026.csv';
    const response = await fetch(await files().downloadUrl(`${prefix}b.csv`, 60, { fileName }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(attachmentOf(fileName));
    expect(await response.text()).toBe('x\r\n');
  });

  it('lists and removes every object under a prefix, and nothing beside it', async () => {
    const under = `${prefix}list/`;
    const beside = `${prefix}list-beside/kept.csv`;
    for (const key of [beside, `${under}1.csv`, `${under}2.csv`, `${under}deeper/3.csv`]) {
      await files().put(key, 'k', { ContentType: 'text/csv' });
    }
    expect((await files().list(under)).map((object) => object.key).sort()).toEqual([
      `${under}1.csv`,
      `${under}2.csv`,
      `${under}deeper/3.csv`,
    ]);
    expect(await files().removeAll(under)).toBe(3);
    expect(await files().list(under)).toEqual([]);
    expect(await files().head(beside)).toEqual({ size: 1, contentType: 'text/csv' });
  });
});
