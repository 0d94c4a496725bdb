import { AUDIT_RETENTION_MS } from '../../../shared/audit/audit-entry';
import { boundedForLog, MAX_JSON } from './audit-bounds';
import { toAuditEntry, toAuditItem } from './audit-item';
import type { AuditRecord } from './audit-trail';

/** 2026-11-18T10:00:00.123Z: away from month boundaries. */
const TIME = Date.UTC(2026, 10, 18, 10, 0, 0, 123);

const record = (fields: Partial<AuditRecord> = {}): AuditRecord => ({
  phase: 'outcome',
  id: 'req-1',
  time: TIME,
  action: 'parameter.update',
  label: 'Changed a system parameter',
  area: 'system',
  route: 'updateParameter',
  method: 'PUT',
  path: '/update-parameter/banner',
  actor: { id: 'admin-1', email: 'admin@example.com', groups: ['Administrators'] },
  target: { kind: 'parameter', id: 'banner' },
  change: { params: { id: 'banner' }, body: { value: 2 } },
  before: { value: 1 },
  after: { value: 2 },
  outcome: 'succeeded',
  status: 200,
  finishedAt: TIME + 40,
  ...fields,
});

describe('an audit record as stored', () => {
  it('is keyed by its month and by time, request and phase, so a call’s two records sort together, outcome first', () => {
    const outcome = toAuditItem(record());
    const attempt = toAuditItem(record({ phase: 'attempt' }));
    expect(outcome).toMatchObject({ month: '2026-11', at: `${TIME}#req-1#o`, actorId: 'admin-1', targetId: 'banner' });
    expect(attempt.at).toBe(`${TIME}#req-1#a`);
    expect(outcome.at > attempt.at).toBe(true);
    expect(outcome.expiresAt).toBe(Math.floor((TIME + AUDIT_RETENTION_MS) / 1000));
  });

  it('reads back as the entry the search answers; an attempt alone has outcome unknown', () => {
    expect(toAuditEntry(toAuditItem(record()))).toEqual({
      id: 'req-1',
      time: TIME,
      action: 'parameter.update',
      label: 'Changed a system parameter',
      area: 'system',
      route: 'updateParameter',
      method: 'PUT',
      path: '/update-parameter/banner',
      actor: { id: 'admin-1', email: 'admin@example.com', groups: ['Administrators'] },
      target: { kind: 'parameter', id: 'banner' },
      change: { params: { id: 'banner' }, body: { value: 2 } },
      before: { value: 1 },
      after: { value: 2 },
      outcome: 'succeeded',
      status: 200,
      finishedAt: TIME + 40,
    });
    const attempt = toAuditEntry(toAuditItem(record({ phase: 'attempt', outcome: undefined, before: undefined })));
    expect(attempt.outcome).toBe('unknown');
    expect(attempt).not.toHaveProperty('before');
  });

  it('keeps an item far below DynamoDB’s 400 KB: a value too large is stored as its size', () => {
    const item = toAuditItem(record({ after: { rows: Array.from({ length: 200 }, () => 'x'.repeat(2_000)) } }));
    expect(JSON.parse(item.after!)).toEqual({ truncated: true, characters: expect.any(Number) });
    expect(JSON.parse(item.after!).characters).toBeGreaterThan(MAX_JSON);
    expect(item.before).toBe('{"value":1}');
  });

  it('cuts a log line’s change, before and after as the item cuts them, and leaves small ones whole', () => {
    const deviceIds = Array.from({ length: 10_000 }, (_, i) => `dev-${String(i).padStart(8, '0')}-abcdefgh`);
    const large = record({ change: { body: { target: { kind: 'devices', deviceIds } } }, after: { deviceIds } });
    const line = boundedForLog(large);
    expect(line.change).toEqual({ truncated: true, characters: JSON.stringify(large.change).length });
    expect(line.after).toEqual({ truncated: true, characters: JSON.stringify(large.after).length });
    expect(line.before).toEqual({ value: 1 });
    expect(JSON.stringify(line).length).toBeLessThan(10_000);
    expect(boundedForLog(record({}))).toEqual(record({}));
  });
});
