import { isStaff } from '../../../shared/auth/groups';
import type { Caller } from '../../../shared/auth/verify-token';
import type { NamedKind, ObjectName } from '../../../shared/contracts/relations';
import { relationId } from '../../../shared/relations/relation-types';
import type { Access } from '../../_shared/access/access';
import type { RelationTable } from '../../_shared/relations/relation-table';

/** The names of objects by kind and id, in one read; ids without a record are left out. */
export interface ObjectNameStore {
  names: (ids: Record<NamedKind, readonly string[]>) => Promise<Map<string, string>>;
}

export const nameKey = (kind: NamedKind, id: string) => `${kind}#${id}`;

export interface NamesRequest {
  objects: readonly { kind: NamedKind; id: string }[];
  within?: { kind: 'organization' | 'campaign'; id: string };
}

export interface ObjectNamesDeps {
  access: Pick<Access, 'forCaller'>;
  relations: Pick<RelationTable, 'getMany'>;
  store: ObjectNameStore;
}

/**
 * Names beside ids (docs/relations.md, "Names"): a name is answered to whoever may view its object (staff: all), and
 * a device's name also to whoever may view an organization or campaign that lists it, since that list already shows
 * them the device. Everything else is left out without saying why, so an id that exists cannot be told from one
 * that does not.
 */
export const createObjectNames = ({ access, relations, store }: ObjectNamesDeps) => ({
  names: async (caller: Caller, { objects, within }: NamesRequest): Promise<{ items: ObjectName[] }> => {
    const unique = [...new Map(objects.map((o) => [nameKey(o.kind, o.id), o])).values()];
    const mine = access.forCaller(caller);
    const staff = isStaff(caller.groups);
    const listed = new Set<string>();
    const devices = unique.filter((o) => o.kind === 'device').map((o) => o.id);
    if (within && !staff && devices.length > 0 && (await mine.check(within.kind, within.id)).allowed) {
      const type = within.kind === 'organization' ? 'organization-device' : 'campaign-device';
      const held = await relations.getMany(devices.map((id) => relationId(type, within.id, id)));
      for (const relation of held) listed.add(relation.referentId);
    }
    const allowed = await Promise.all(
      unique.map(
        async ({ kind, id }) => staff || (kind === 'device' && listed.has(id)) || (await mine.check(kind, id)).allowed,
      ),
    );
    const permitted = unique.filter((_, index) => allowed[index]);
    if (permitted.length === 0) return { items: [] };
    const idsOf = (kind: NamedKind) => permitted.filter((o) => o.kind === kind).map((o) => o.id);
    const names = await store.names({
      device: idsOf('device'),
      organization: idsOf('organization'),
      campaign: idsOf('campaign'),
    });
    return {
      items: permitted.flatMap(({ kind, id }) => {
        const name = names.get(nameKey(kind, id));
        return name === undefined ? [] : [{ kind, id, name }];
      }),
    };
  },
});

export type ObjectNames = ReturnType<typeof createObjectNames>;
