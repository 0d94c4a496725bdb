import { diffOf, formFromParams, formToParams, leafText, searchOf, targetPath } from './audit-rules';

describe("the audit page's rules", () => {
  it('shows only the fields that changed, with their values before and after', () => {
    expect(diffOf({ groups: ['Authenticated_users'] }, { groups: ['Authenticated_users', 'Employees'] })).toEqual([
      { path: 'groups', before: 'Authenticated_users', after: 'Authenticated_users, Employees', kind: 'changed' },
    ]);
    expect(
      diffOf(
        { id: 'banner', value: { on: false, text: 'Hi' }, updated: 1_763_460_000_000 },
        { id: 'banner', value: { on: true, text: 'Hi' }, updated: 1_763_460_000_000 },
      ),
    ).toEqual([{ path: 'value.on', before: 'false', after: 'true', kind: 'changed' }]);
  });

  it('lists every field of a create as added and of a delete as removed, nested ones by their path', () => {
    expect(diffOf(undefined, { id: 'x', items: [{ productId: 'p', quantity: 2 }] })).toEqual([
      { path: 'id', after: 'x', kind: 'added' },
      { path: 'items[0].productId', after: 'p', kind: 'added' },
      { path: 'items[0].quantity', after: '2', kind: 'added' },
    ]);
    expect(diffOf({ metadata: { deletionQueued: { time: 5 } } }, {})).toEqual([
      { path: 'metadata.deletionQueued.time', before: '5', kind: 'removed' },
    ]);
  });

  it('shows a field whose shape changed as one row, both values whole', () => {
    expect(diffOf({ value: 'before', updated: 1 }, { value: { mode: 'after' }, updated: 2 })).toEqual([
      { path: 'value', before: 'before', after: '{"mode":"after"}', kind: 'changed' },
      { path: 'updated', before: '1', after: '2', kind: 'changed' },
    ]);
  });

  it('shows times as dates, empty lists as none, plain values as they are', () => {
    expect(leafText('signedOutEverywhereAt', 1_763_460_000_000)).not.toMatch(/^\d+$/);
    expect(leafText('updated', 1_763_460_000_000)).toContain('2025');
    expect(leafText('count', 1_763_460_000_000)).toBe('1763460000000');
    expect(leafText('groups', [])).toBe('(none)');
    expect(leafText('enabled', false)).toBe('false');
  });

  it('links a target to its admin page when it has one', () => {
    expect(targetPath({ kind: 'user', id: 'a b' })).toBe('/admin/people/a%20b');
    expect(targetPath({ kind: 'parameter', id: 'banner' })).toBeUndefined();
    expect(targetPath({ kind: 'device', id: 'dev-1, dev-2' })).toBeUndefined();
  });

  it('keeps the search in the address, and refuses a time range that ends before it starts', () => {
    const form = { actor: ' a@b.org ', target: '', action: 'user.group.add', from: '2026-11-18T09:00', to: '' };
    const params = formToParams(form);
    expect(params).toEqual({ actor: 'a@b.org', action: 'user.group.add', from: '2026-11-18T09:00' });
    expect(formFromParams(new URLSearchParams(params))).toEqual({ ...form, actor: 'a@b.org' });
    expect(searchOf({ ...form, to: '2026-11-18T08:00' }, 'id-1')).toEqual({ error: '"From" must be before "To"' });
    expect(searchOf(form, 'id-1')).toEqual({
      search: { actor: 'id-1', action: 'user.group.add', from: new Date('2026-11-18T09:00').getTime() },
    });
  });
});
