import type { Caller } from '../../../shared/auth/verify-token';
import type { Relation } from '../../../shared/contracts/relations';
import { createObjectNames, nameKey } from './object-names';

const caller = (groups: string[] = []) => ({ sub: 'me', groups }) as unknown as Caller;

/** The caller may view exactly `viewable`; `org-1` lists `dev-listed`. */
const setup = (viewable: string[]) => {
  const checks: string[] = [];
  const reads: Record<string, readonly string[]>[] = [];
  const names = createObjectNames({
    access: {
      forCaller: () =>
        ({
          check: async (kind: string, id: string) => {
            checks.push(`${kind}#${id}`);
            return { allowed: viewable.includes(id) };
          },
        }) as never,
    },
    relations: {
      getMany: async (ids: readonly string[]) =>
        ids
          .filter((id) => id === 'organization-device#org-1#dev-listed')
          .map(
            (id) => ({ id, type: 'organization-device', referrerId: 'org-1', referentId: 'dev-listed' }) as Relation,
          ),
    },
    store: {
      names: async (ids) => {
        reads.push(ids);
        const all = new Map<string, string>();
        for (const [kind, list] of Object.entries(ids)) {
          for (const id of list) if (id !== 'dev-gone') all.set(nameKey(kind as 'device', id), `Name ${id}`);
        }
        return all;
      },
    },
  });
  return { names, checks, reads };
};

describe('names beside ids', () => {
  it('answers only what the caller may view, once per object, in one store read', async () => {
    const { names, reads } = setup(['dev-mine', 'org-1', 'dev-gone']);
    const answer = await names.names(caller(), {
      objects: [
        { kind: 'device', id: 'dev-mine' },
        { kind: 'device', id: 'dev-mine' },
        { kind: 'device', id: 'dev-other' },
        { kind: 'device', id: 'dev-gone' },
        { kind: 'organization', id: 'org-1' },
      ],
    });
    expect(answer.items).toEqual([
      { kind: 'device', id: 'dev-mine', name: 'Name dev-mine' },
      { kind: 'organization', id: 'org-1', name: 'Name org-1' },
    ]);
    expect(reads).toEqual([{ device: ['dev-mine', 'dev-gone'], organization: ['org-1'], campaign: [] }]);
  });

  it('names the devices a viewable organization lists, and nothing through one the caller may not view', async () => {
    const member = setup(['org-1']);
    const within = { kind: 'organization', id: 'org-1' } as const;
    const objects = [
      { kind: 'device', id: 'dev-listed' },
      { kind: 'device', id: 'dev-unlisted' },
    ] as const;
    expect((await member.names.names(caller(), { objects: [...objects], within })).items).toEqual([
      { kind: 'device', id: 'dev-listed', name: 'Name dev-listed' },
    ]);
    const outsider = setup([]);
    expect((await outsider.names.names(caller(), { objects: [...objects], within })).items).toEqual([]);
    expect(outsider.reads).toEqual([]);
  });

  it('answers staff every name that exists without asking the access module', async () => {
    const { names, checks } = setup([]);
    const answer = await names.names(caller(['Employees']), { objects: [{ kind: 'campaign', id: 'camp-1' }] });
    expect(answer.items).toEqual([{ kind: 'campaign', id: 'camp-1', name: 'Name camp-1' }]);
    expect(checks).toEqual([]);
  });
});
