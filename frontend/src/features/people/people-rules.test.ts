import {
  confirmsDeleteNow,
  DELETION_WINDOW_DAYS,
  deletionState,
  groupChoices,
  groupsOffered,
  peopleQuery,
  searchFromParams,
  searchToParams,
} from './people-rules';

const DAY = 24 * 60 * 60 * 1000;

describe('groups a staff member may change', () => {
  it('offers every group to Administrators', () => {
    expect(groupsOffered(['Administrators'])).toContain('Administrators');
    expect(groupsOffered(['Administrators'])).toHaveLength(6);
  });

  it('offers Employees every group but the staff groups', () => {
    expect(groupsOffered(['Employees'])).toEqual(['Distributors', 'Approved_users', 'Authenticated_users', 'None']);
  });

  it('offers nothing to others', () => {
    expect(groupsOffered(['Distributors'])).toEqual([]);
    expect(groupsOffered([])).toEqual([]);
  });

  it("splits the offer into groups to add and the person's groups the actor may remove", () => {
    const { addable, removable } = groupChoices(['Employees'], ['Administrators', 'Approved_users']);
    expect(addable).toEqual(['Distributors', 'Authenticated_users', 'None']);
    expect([...removable]).toEqual(['Approved_users']);
  });
});

describe('deletionState', () => {
  it('is not queued without a record, metadata or time', () => {
    expect(deletionState(undefined)).toEqual({ queued: false, history: [] });
    expect(deletionState({ metadata: { email: 'a@x.com' } }).queued).toBe(false);
    const unqueued = {
      history: [{ time: 1, requester: 'u1', selfRequested: true, unqueuedBy: { requester: 's1', time: 2 } }],
    };
    const state = deletionState({ metadata: { email: 'a@x.com', deletionQueued: unqueued } });
    expect(state.queued).toBe(false);
    expect(state.history).toHaveLength(1);
  });

  it('is queued with a time, and the deletion falls 2 to 4 weeks after it', () => {
    const time = Date.UTC(2026, 0, 1);
    const state = deletionState({
      metadata: { email: 'a@x.com', deletionQueued: { time, selfRequested: true, requester: 'u1', history: [] } },
    });
    expect(state).toMatchObject({ queued: true, time, selfRequested: true, requester: 'u1' });
    expect(state.window).toEqual({
      from: time + DELETION_WINDOW_DAYS.earliest * DAY,
      to: time + DELETION_WINDOW_DAYS.latest * DAY,
    });
    expect(DELETION_WINDOW_DAYS).toEqual({ earliest: 14, latest: 28 });
  });
});

describe('peopleQuery', () => {
  it('lists everyone without a filter, by e-mail prefix when one is typed', () => {
    expect(peopleQuery({})).toEqual({ kind: 'all' });
    expect(peopleQuery({ email: ' Ada@ ' })).toEqual({ kind: 'all', search: 'ada@' });
  });

  it('filters by name when a first or last name is typed, an empty side matching anyone', () => {
    expect(peopleQuery({ first: 'Ada', email: 'x' })).toEqual({ kind: 'name', first: 'Ada', last: '*' });
    expect(peopleQuery({ last: 'Adm' })).toEqual({ kind: 'name', first: '*', last: 'Adm' });
  });

  it('lists a group when a known one is chosen, over names and e-mail', () => {
    expect(peopleQuery({ group: 'Employees', first: 'Ada' })).toEqual({ kind: 'group', group: 'Employees' });
    expect(peopleQuery({ group: 'Nobody' })).toEqual({ kind: 'all' });
  });

  it('keeps the search in the address: only the fields that are set', () => {
    const params = new URLSearchParams(searchToParams({ first: ' Ada ', last: '', group: undefined }));
    expect(params.toString()).toBe('first=Ada');
    expect(searchFromParams(params)).toEqual({ email: undefined, first: 'Ada', last: undefined, group: undefined });
  });
});

describe('delete now', () => {
  it("needs the person's e-mail typed exactly (or their id when they have none)", () => {
    expect(confirmsDeleteNow('a@x.com', { id: 'u1', email: 'a@x.com' })).toBe(true);
    expect(confirmsDeleteNow(' a@x.com ', { id: 'u1', email: 'a@x.com' })).toBe(true);
    expect(confirmsDeleteNow('A@x.com', { id: 'u1', email: 'a@x.com' })).toBe(false);
    expect(confirmsDeleteNow('', { id: 'u1', email: 'a@x.com' })).toBe(false);
    expect(confirmsDeleteNow('u1', { id: 'u1' })).toBe(true);
  });
});
