import type { DomainEvent } from '../../../shared/contracts/events';
import type { AuthEvent, IdentityUser } from '../../../shared/contracts/users';
import { MESSAGES } from '../../../shared/messages';
import { callerOf } from '../../../test/support/callers';
import { silentLog } from '../../../test/support/log';
import { NotFound } from '../../_shared/errors';
import type { Mail } from '../../_shared/mail/mailer';
import { createPeople, namePrefixMatches, type PeopleDeps, temporaryPassword } from './people';
import type { IdentityProvider, StoredUser } from './ports';
import { AUTH_EVENTS_UNAVAILABLE } from './ports';

const GROUP_PRECEDENCE: Record<string, number> = {
  Administrators: 1,
  Employees: 2,
  Distributors: 3,
  Approved_users: 4,
  Authenticated_users: 5,
  None: 6,
};

interface FakePerson {
  user: IdentityUser;
  groups: Set<string>;
  password?: { value: string; permanent: boolean };
}

const person = (id: string, groups: string[] = [], names: Partial<IdentityUser> = {}): FakePerson => ({
  user: {
    id,
    email: `${id}@example.com`,
    emailVerified: true,
    status: 'CONFIRMED',
    enabled: true,
    created: 1,
    updated: 1,
    ...names,
  },
  groups: new Set(groups),
});

const setup = (options: { authEventsAddOn?: boolean } = {}) => {
  const pool = new Map<string, FakePerson>();
  const calls: string[] = [];
  const find = (name: string) => {
    const found = pool.get(name) ?? [...pool.values()].find((p) => p.user.email === name);
    if (!found) throw new NotFound(MESSAGES.userMissing(name));
    return found;
  };
  const view = (p: FakePerson): IdentityUser => ({ ...p.user, groups: [...p.groups].sort(), mfa: [] });
  const identity: Omit<IdentityProvider, 'deleteUser'> = {
    listGroups: async () =>
      Object.entries(GROUP_PRECEDENCE).map(([GroupName, Precedence]) => ({ GroupName, Precedence })),
    getGroup: async (name) => ({ GroupName: name, Precedence: GROUP_PRECEDENCE[name]! }),
    listUsers: async ({ emailPrefix }) => ({
      items: [...pool.values()].filter((p) => p.user.email?.startsWith(emailPrefix ?? '')).map((p) => p.user),
    }),
    listAllUsers: async () => [...pool.values()].map((p) => p.user),
    listUsersInGroup: async (group) => ({
      items: [...pool.values()].filter((p) => p.groups.has(group)).map((p) => p.user),
    }),
    listAllUsersInGroup: async (group) => [...pool.values()].filter((p) => p.groups.has(group)).map((p) => p.user),
    getUser: async (name) => view(find(name)),
    listGroupsForUser: async (name) =>
      [...find(name).groups].map((GroupName) => ({ GroupName, Precedence: GROUP_PRECEDENCE[GroupName]! })),
    addUserToGroup: async (name, group) => {
      calls.push(`add ${name} ${group}`);
      find(name).groups.add(group);
    },
    removeUserFromGroup: async (name, group) => {
      calls.push(`remove ${name} ${group}`);
      find(name).groups.delete(group);
    },
    setEnabled: async (name, enabled) => {
      calls.push(`${enabled ? 'enable' : 'disable'} ${name}`);
      find(name).user.enabled = enabled;
    },
    globalSignOut: async (name) => {
      calls.push(`signOut ${name}`);
    },
    resetPassword: async (name) => {
      calls.push(`reset ${find(name).user.id}`);
    },
    setPassword: async (name, value, permanent) => {
      find(name).password = { value, permanent };
    },
    updateNames: async (name, change) => {
      const p = find(name);
      for (const key of ['givenName', 'familyName', 'displayName'] as const) {
        if (change[key] === '') delete p.user[key];
        else if (change[key] !== undefined) p.user[key] = change[key];
      }
    },
    listAuthEvents: async () =>
      options.authEventsAddOn
        ? { items: [{ id: 'c1', type: 'SignIn', time: 5, response: 'Pass', source: 'identity-provider' }] }
        : AUTH_EVENTS_UNAVAILABLE,
  };

  const records = new Map<string, StoredUser>();
  const slept: number[] = [];
  const sessions = new Map<string, { disabled?: boolean; signedOutAt?: number; groups?: string[] }>();
  const mails: Mail[] = [];
  const published: DomainEvent[] = [];
  const failures = { publish: false, mail: false };
  let clock = 1_000;
  let ids = 0;
  const recorded: AuthEvent[] = [{ id: 'p1', type: 'SignIn', time: 3, response: 'Pass', source: 'platform' }];

  const deps: PeopleDeps = {
    log: silentLog,
    identity,
    users: {
      get: async (id) => (records.has(id) ? structuredClone(records.get(id)) : undefined),
      getMany: async (wanted) =>
        [...new Set(wanted)].filter((id) => records.has(id)).map((id) => structuredClone(records.get(id)!)),
      save: async (user, readVersion) => {
        if (records.get(user.id)?.updated !== readVersion) return false;
        records.set(user.id, structuredClone(user));
        return true;
      },
      findIdsByEmail: async (email) => [...records.values()].filter((r) => r.email === email).map((r) => r.id),
      scanIds: async (_filters, { limit }) => ({ ids: [...records.keys()].slice(0, limit), nextCursor: undefined }),
    },
    sessions: {
      setDisabled: async (userId, disabled) => {
        sessions.set(userId, { ...sessions.get(userId), disabled });
      },
      signOutEverywhere: async (userId, now) => {
        sessions.set(userId, { ...sessions.get(userId), signedOutAt: now });
      },
      setGroups: async (userId, groups) => {
        sessions.set(userId, { ...sessions.get(userId), groups: [...groups] });
      },
    },
    mailer: {
      send: async (mail) => {
        if (failures.mail) throw new Error('SES down');
        mails.push(mail);
        return `m${mails.length}`;
      },
    },
    backups: {
      bucket: 'backups',
      putJson: async (key, value) => {
        written.set(key, value);
      },
    },
    events: {
      publish: async (batch) => {
        if (failures.publish) throw new Error('queue down');
        published.push(...batch);
      },
    },
    recordedAuthEvents: { list: async () => ({ items: recorded }) },
    findCustomerIdByEmail: async (email) => (email === 'paying@example.com' ? 'cus_1' : undefined),
    webOrigin: 'https://app.example.com',
    now: () => clock++,
    newId: () => `e${++ids}`,
    newPassword: () => 'Temp-Passw0rd-1',
    sleep: async (ms) => {
      slept.push(ms);
      clock += ms;
    },
  };
  const written = new Map<string, unknown>();
  const add = (p: FakePerson, record = true) => {
    pool.set(p.user.id, p);
    if (record) {
      records.set(p.user.id, {
        id: p.user.id,
        email: p.user.email!,
        metadata: { email: p.user.email! },
        ...(p.user.givenName ? { givenName: p.user.givenName } : {}),
        ...(p.user.familyName ? { familyName: p.user.familyName } : {}),
        cartItems: [],
        rolesList: [...p.groups],
        created: 1,
        updated: 1,
      });
    }
    return p;
  };
  add(person('admin', ['Administrators'], { givenName: 'Ada', familyName: 'Admin' }));
  add(person('employee', ['Employees']));
  add(person('ann', ['Authenticated_users'], { givenName: 'Ann', familyName: 'Smith' }));
  add(person('bob', ['Approved_users'], { givenName: 'bob', familyName: 'smithers' }));
  return {
    people: createPeople(deps),
    pool,
    records,
    slept,
    sessions,
    mails,
    published,
    failures,
    calls,
    written,
    add,
  };
};

const admin = callerOf('admin', ['Administrators']);
const employee = callerOf('employee', ['Employees']);
const ann = callerOf('ann');

describe('self-or-staff routes', () => {
  it('let the person and staff through, and refuse anyone else with 403', async () => {
    const { people } = setup();
    await expect(people.getUser(ann, 'ann')).resolves.toMatchObject({ id: 'ann', groups: ['Authenticated_users'] });
    await expect(people.getUser(employee, 'ann')).resolves.toMatchObject({ id: 'ann' });
    await expect(people.getUser(callerOf('bob'), 'ann')).rejects.toThrow(MESSAGES.selfOrStaffOnly);
    await expect(people.listGroupsForUser(callerOf('bob'), 'ann')).rejects.toMatchObject({ status: 403 });
    await expect(people.getUserRecord(callerOf('bob'), 'ann')).rejects.toMatchObject({ status: 403 });
    await expect(people.adminUserGlobalSignOut(callerOf('bob'), 'ann')).rejects.toMatchObject({ status: 403 });
  });

  it('answer a missing person with 404 "missing" (to staff; others are refused before the lookup)', async () => {
    const { people } = setup();
    await expect(people.getUser(admin, 'nobody')).rejects.toThrow(MESSAGES.userMissing('nobody'));
    await expect(people.getUserRecord(admin, 'nobody')).rejects.toMatchObject({ status: 404 });
    await expect(people.getUser(ann, 'nobody')).rejects.toMatchObject({ status: 403 });
  });
});

describe('the user record', () => {
  it('is answered without the store-only fields, and found by e-mail for staff', async () => {
    const { people } = setup();
    const record = await people.getUserRecord(admin, 'ann@example.com');
    expect(record).toMatchObject({ id: 'ann', metadata: { email: 'ann@example.com' } });
    expect(record).not.toHaveProperty('email');
  });

  it('gets its billing customer id looked up from the e-mail when missing, and keeps it', async () => {
    const { people, add, records } = setup();
    add(person('payer', [], { email: 'paying@example.com' }));
    expect((await people.getUserRecord(callerOf('payer'), 'payer')).subscriptionId).toBe('cus_1');
    expect(records.get('payer')!.subscriptionId).toBe('cus_1');
    expect((await people.getUserRecord(ann, 'ann')).subscriptionId).toBeUndefined();
  });

  it('lists ids from the table with Items and Count, and batch-gets records naming the missing ones', async () => {
    const { people } = setup();
    const listed = await people.listUserIdsFromDdb({ parameters: { limit: 2 }, filters: {} });
    expect(listed).toEqual({ Items: [{ id: 'admin' }, { id: 'employee' }], Count: 2 });
    const batch = await people.usersDdbWithBatchGet(['ann', 'ghost', 'ann']);
    expect(batch.items.map((r) => r.id)).toEqual(['ann']);
    expect(batch.missing).toEqual(['ghost']);
  });
});

describe('group changes', () => {
  it('need the actor in the path to be the caller', async () => {
    const { people } = setup();
    await expect(people.addUserToGroup(admin, { id: 'ann', group: 'Distributors', actor: 'employee' })).rejects.toThrow(
      MESSAGES.actorMismatch,
    );
  });

  it('of Administrators or Employees need an Administrator', async () => {
    const { people, calls } = setup();
    for (const group of ['Administrators', 'Employees']) {
      await expect(people.addUserToGroup(employee, { id: 'ann', group, actor: 'employee' })).rejects.toThrow(
        MESSAGES.staffRoleNeedsAdministrator,
      );
      await expect(people.removeUserFromGroup(employee, { id: 'admin', group, actor: 'employee' })).rejects.toThrow(
        MESSAGES.staffRoleNeedsAdministrator,
      );
    }
    expect(calls).toEqual([]);
    await expect(
      people.addUserToGroup(employee, { id: 'ann', group: 'Distributors', actor: 'employee' }),
    ).resolves.toEqual({
      id: 'ann',
      done: true,
    });
  });

  it('write the session record and the record roles at once, and send role.changed for staff groups only', async () => {
    const { people, sessions, records, published } = setup();
    await people.addUserToGroup(admin, { id: 'ann', group: 'Distributors', actor: 'admin' });
    expect(sessions.get('ann')!.groups).toEqual(['Authenticated_users', 'Distributors']);
    expect(records.get('ann')!.rolesList).toEqual(['Authenticated_users', 'Distributors']);
    expect(published).toEqual([]);

    await people.addUserToGroup(admin, { id: 'ann', group: 'Employees', actor: 'admin' });
    await people.removeUserFromGroup(admin, { id: 'ann', group: 'Employees', actor: 'admin' });
    expect(published).toEqual([
      {
        kind: 'role.changed',
        eventId: 'e1',
        change: 'added',
        userId: 'ann',
        group: 'Employees',
        actorId: 'admin',
        at: expect.any(Number),
      },
      {
        kind: 'role.changed',
        eventId: 'e2',
        change: 'removed',
        userId: 'ann',
        group: 'Employees',
        actorId: 'admin',
        at: expect.any(Number),
      },
    ]);
    expect(sessions.get('ann')!.groups).toEqual(['Authenticated_users', 'Distributors']);
  });

  it('send no event when nothing changed', async () => {
    const { people, published } = setup();
    await people.addUserToGroup(admin, { id: 'admin', group: 'Administrators', actor: 'admin' });
    expect(published).toEqual([]);
  });

  it('are undone, and answered 503, when the event cannot be sent', async () => {
    const { people, failures, pool, sessions, records } = setup();
    failures.publish = true;
    await expect(
      people.addUserToGroup(admin, { id: 'ann', group: 'Administrators', actor: 'admin' }),
    ).rejects.toMatchObject({
      status: 503,
      message: MESSAGES.roleChangeUndone,
    });
    expect([...pool.get('ann')!.groups]).toEqual(['Authenticated_users']);
    expect(sessions.get('ann')!.groups).toEqual(['Authenticated_users']);
    expect(records.get('ann')!.rolesList).toEqual(['Authenticated_users']);
  });
});

describe('account state', () => {
  it('disables in the session record before the identity provider, and enables after it', async () => {
    const { people, sessions, calls, pool } = setup();
    await people.setEnabled(employee, 'ann', false);
    expect(sessions.get('ann')!.disabled).toBe(true);
    expect(pool.get('ann')!.user.enabled).toBe(false);
    await people.setEnabled(employee, 'ann', true);
    expect(sessions.get('ann')!.disabled).toBe(false);
    expect(calls).toEqual(['disable ann', 'enable ann']);
  });

  it('refuses disabling yourself, and an Employee acting on an Administrator', async () => {
    const { people, calls } = setup();
    await expect(people.setEnabled(admin, 'admin', false)).rejects.toMatchObject({
      status: 400,
      message: MESSAGES.cannotDisableSelf,
    });
    await expect(people.setEnabled(employee, 'admin', false)).rejects.toThrow(MESSAGES.administratorNeedsAdministrator);
    await expect(people.forceResetPassword(employee, 'admin')).rejects.toMatchObject({ status: 403 });
    await expect(people.adminResetUserPassword(employee, 'admin')).rejects.toMatchObject({ status: 403 });
    await expect(people.adminUserGlobalSignOut(employee, 'admin')).rejects.toMatchObject({ status: 403 });
    expect(calls).toEqual([]);
  });

  it('signs out everywhere in the session record (by user id, when named by e-mail) and at the identity provider', async () => {
    const { people, sessions, calls, slept } = setup();
    await people.adminUserGlobalSignOut(employee, 'ann@example.com');
    const at = sessions.get('ann')!.signedOutAt!;
    // It answers only once the sign-out's second is over, so the next sign-in's auth_time is a later second.
    expect(slept).toHaveLength(1);
    expect(slept[0]).toBeGreaterThan(0);
    expect(slept[0]).toBeLessThanOrEqual(1_000);
    expect(Math.floor((at + slept[0]! + 1) / 1000)).toBeGreaterThan(Math.floor(at / 1000));
    expect(calls).toEqual(['signOut ann']);
    await people.adminUserGlobalSignOut(callerOf('bob'), 'bob');
    expect(calls).toContain('signOut bob');
  });

  it('forces a temporary password that only the person receives, by e-mail', async () => {
    const { people, pool, mails } = setup();
    await people.forceResetPassword(employee, 'ann');
    expect(pool.get('ann')!.password).toEqual({ value: 'Temp-Passw0rd-1', permanent: false });
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toEqual(['ann@example.com']);
    expect(mails[0]!.text).toContain('Temp-Passw0rd-1');
  });
});

describe('new user notice', () => {
  it('e-mails every administrator once, with a link to the admin page of the person', async () => {
    const { people, mails, add } = setup();
    add(person('admin2', ['Administrators']));
    expect(await people.newUserNotice(ann, 'ann')).toEqual({ id: 'ann', sent: true });
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to.slice().sort()).toEqual(['admin2@example.com', 'admin@example.com']);
    expect(mails[0]!.subject).toBe(MESSAGES.newUserNoticeSubject('Ann Smith'));
    expect(mails[0]!.text).toContain('https://app.example.com/admin/people/ann');
    expect(await people.newUserNotice(admin, 'ann')).toEqual({ id: 'ann', sent: false });
    expect(mails).toHaveLength(1);
  });

  it('is not marked sent when the mail fails, so a later call sends it', async () => {
    const { people, failures, mails } = setup();
    failures.mail = true;
    await expect(people.newUserNotice(ann, 'ann')).rejects.toThrow('SES down');
    failures.mail = false;
    expect(await people.newUserNotice(ann, 'ann')).toEqual({ id: 'ann', sent: true });
    expect(mails).toHaveLength(1);
  });
});

describe('names and search', () => {
  it('updates the names at the identity provider and mirrors them into the record; empty clears', async () => {
    const { people, records } = setup();
    const updated = await people.updateUser(ann, 'ann', { givenName: 'Anne', familyName: '', displayName: 'A. S.' });
    expect(updated).toMatchObject({ givenName: 'Anne', displayName: 'A. S.' });
    expect(updated.familyName).toBeUndefined();
    expect(records.get('ann')).toMatchObject({ givenName: 'Anne', displayName: 'A. S.' });
    expect(records.get('ann')).not.toHaveProperty('familyName');
  });

  it('filters by first and last name prefixes, case-insensitively, "*" matching any', async () => {
    const { people } = setup();
    const ids = async (first: string, last: string) =>
      (await people.filterUsersByFirstLast(first, last)).items.map((u) => u.id).sort();
    expect(await ids('*', 'SMITH')).toEqual(['ann', 'bob']);
    expect(await ids('an', 'smi')).toEqual(['ann']);
    expect(await ids('*', '*')).toEqual(['admin', 'ann', 'bob', 'employee']);
    expect(namePrefixMatches('x', undefined)).toBe(false);
  });
});

describe('auth events', () => {
  it("answer the identity provider's log when it keeps one, else the platform's own record", async () => {
    expect(
      (await setup({ authEventsAddOn: true }).people.adminListUserAuthEvents(ann, 'ann', { limit: 5 })).items[0]!
        .source,
    ).toBe('identity-provider');
    expect((await setup().people.adminListUserAuthEvents(ann, 'ann', { limit: 5 })).items[0]!.source).toBe('platform');
  });
});

describe('backup', () => {
  it('writes users.json and groups.json with the members of each group', async () => {
    const { people, written } = setup();
    const result = await people.backupUserPool('nightly/2024-01-01');
    expect(result).toEqual({
      bucket: 'backups',
      keys: ['nightly/2024-01-01/users.json', 'nightly/2024-01-01/groups.json'],
      users: 4,
      groups: 6,
    });
    const groups = written.get('nightly/2024-01-01/groups.json') as {
      groups: { GroupName: string; members: string[] }[];
    };
    expect(groups.groups.find((g) => g.GroupName === 'Administrators')!.members).toEqual(['admin']);
  });
});

describe('temporary passwords', () => {
  it('meet the policy: length and every required class', () => {
    const policy = {
      minLength: 10,
      requireLowercase: true,
      requireUppercase: true,
      requireDigits: true,
      requireSymbols: false,
    };
    for (let seed = 0; seed < 50; seed += 1) {
      let state = seed;
      const random = (below: number) => {
        state = (state * 1103515245 + 12345) % 2 ** 31;
        return state % below;
      };
      const password = temporaryPassword(policy, random);
      expect(password).toHaveLength(16);
      expect(password).toMatch(/[a-z]/);
      expect(password).toMatch(/[A-Z]/);
      expect(password).toMatch(/[0-9]/);
    }
  });
});
