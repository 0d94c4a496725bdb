import { isStaff } from '../../../shared/auth/groups';
import type { Caller } from '../../../shared/auth/verify-token';
import type { Device, MapDevice, MyDevice, ProductLine } from '../../../shared/contracts/devices';
import type { Relation } from '../../../shared/contracts/relations';
import { MESSAGES } from '../../../shared/messages';
import type { AccessNeed } from '../../../shared/relations/relation-rules';
import { relationId } from '../../../shared/relations/relation-types';
import type { Access } from '../../_shared/access/access';
import { type AuditNote, NO_AUDIT } from '../../_shared/audit/audit-note';
import { Conflict, Forbidden, NotFound, ServiceUnavailable, Unauthorized } from '../../_shared/errors';
import type { Log } from '../../_shared/logger';
import { type PageSource, pageAcross } from '../../_shared/paging';
import type { RelationEffects } from '../../_shared/relations/relation-effects';
import type { RelationTable } from '../../_shared/relations/relation-table';
import { claimCodeMatches, hashClaimCode } from './claim-code';
import {
  type AccessLevel,
  deviceIdOf,
  isPublicMapped,
  present,
  type StoredDevice,
  toMapDevice,
  withMove,
} from './device-model';
import type { DeviceChanges, DeviceStore, UserDirectory } from './ports';

export interface DevicesDeps {
  log: Log;
  devices: Pick<
    DeviceStore,
    | 'create'
    | 'get'
    | 'getMany'
    | 'claim'
    | 'unclaim'
    | 'setOwner'
    | 'change'
    | 'retire'
    | 'queryProductLine'
    | 'productLines'
  >;
  /** Called when a device retires: its ingress credentials stop working at once. */
  revokeCredentials: (deviceId: string) => Promise<void>;
  users: Pick<UserDirectory, 'exists'>;
  relations: Pick<RelationTable, 'create' | 'remove' | 'put' | 'queryIndex' | 'getMany'>;
  effects: RelationEffects;
  access: Access;
  now: () => number;
  newClaimCode: () => string;
}

type Page = { limit: number; cursor?: string };
type Key = Record<string, unknown>;

/** A caller's roles on a device, strongest first (ownership outranks administration outranks use). */
const ROLES = ['device-owner', 'device-administrator', 'device-user'] as const;
type DeviceRole = (typeof ROLES)[number];
const LEVEL_OF_ROLE: Record<DeviceRole, AccessLevel> = {
  'device-owner': 'own',
  'device-administrator': 'manage',
  'device-user': 'view',
};
const RANK: Record<AccessLevel, number> = { none: 0, view: 1, manage: 2, own: 3 };

/** The device as the caller saw it before the change, in the shape the route answers, for the audit log. */
const noteDevice = (audit: AuditNote, device: Device) => {
  audit.label(device.name);
  audit.before(device);
};

/** Compared with a claim code when the serial is unknown, so the answer takes as long either way. */
const NO_HASH = '0'.repeat(64);

export const createDevices = (deps: DevicesDeps) => {
  const { devices, relations, effects, access, now, log } = deps;

  /** How much the caller may do with the device: staff own everything (spec §6). */
  const levelOf = async (caller: Caller | undefined, id: string): Promise<AccessLevel> => {
    if (!caller) return 'none';
    const checks = access.forCaller(caller);
    if (!(await checks.check('device', id, { need: 'view' })).allowed) return 'none';
    if (!(await checks.check('device', id, { need: 'manage' })).allowed) return 'view';
    return (await checks.check('device', id, { need: 'own' })).allowed ? 'own' : 'manage';
  };

  const find = async (id: string): Promise<StoredDevice> => {
    const device = await devices.get(id);
    if (!device) throw new NotFound(MESSAGES.deviceNotFound(id));
    return device;
  };

  /** The device and the caller's level, refused (401 guest, 403 others) below `need`. */
  const guarded = async (caller: Caller | undefined, id: string, need: AccessNeed) => {
    const device = await find(id);
    const level = await levelOf(caller, id);
    if (RANK[level] < RANK[need]) {
      if (!caller) throw new Unauthorized();
      throw new Forbidden(need === 'own' ? MESSAGES.deviceOwnerOnly : MESSAGES.accessDenied('device'));
    }
    return { device, level };
  };

  const refuseRetired = (device: StoredDevice, caller: Caller) => {
    if (device.state === 'retired' && !isStaff(caller.groups)) throw new Conflict(MESSAGES.deviceRetiredChange);
  };

  /** Why a conditional write did not hold, read again: gone, retired, or changed meanwhile. */
  const explainLostWrite = async (id: string, retiredMessage: string): Promise<never> => {
    const now = await devices.get(id);
    if (!now) throw new NotFound(MESSAGES.deviceNotFound(id));
    if (now.state === 'retired') throw new Conflict(retiredMessage);
    throw new Conflict(MESSAGES.recordChanged);
  };

  const ownerRelation = (deviceId: string, userId: string, actorId: string): Relation => ({
    id: relationId('device-owner', deviceId, userId),
    type: 'device-owner',
    referrerId: deviceId,
    referentId: userId,
    created: now(),
    createdBy: actorId,
  });

  /**
   * One page of the user's devices held through one role, with the devices they hold through a stronger role
   * left to that role's page (an owner who is also listed as a user appears once, as owner).
   */
  const heldThrough =
    (userId: string, role: DeviceRole): PageSource<{ device: StoredDevice; role: DeviceRole }> =>
    async (startKey, limit) => {
      const page = await relations.queryIndex('referent', userId, { type: role, limit, startKey });
      const ids = page.items.map((relation) => relation.referrerId);
      const stronger = ROLES.slice(0, ROLES.indexOf(role));
      const shadowed = new Set(
        stronger.length
          ? (await relations.getMany(ids.flatMap((id) => stronger.map((type) => relationId(type, id, userId))))).map(
              (relation) => relation.referrerId,
            )
          : [],
      );
      const found = new Map((await devices.getMany(ids.filter((id) => !shadowed.has(id)))).map((d) => [d.id, d]));
      // A relation to a device without a record (seeded before its registration) lists nothing.
      const items = ids.flatMap((id) => {
        const device = found.get(id);
        return device ? [{ device, role }] : [];
      });
      return { items, lastKey: page.lastKey };
    };

  const mapped =
    <T>(source: PageSource<T>, to: (item: T) => Promise<MapDevice | undefined>): PageSource<MapDevice> =>
    async (startKey, limit) => {
      const page = await source(startKey, limit);
      const items = (await Promise.all(page.items.map(to))).filter((item): item is MapDevice => item !== undefined);
      return { items, lastKey: page.lastKey };
    };

  const productLineSources = (
    filter: 'located' | 'publicMapped' | undefined,
    only?: ProductLine,
  ): PageSource<StoredDevice>[] =>
    (only ? [only] : devices.productLines).map(
      (productLine) => (startKey: Key | undefined, limit: number) =>
        devices.queryProductLine(productLine, { limit, startKey, filter }),
    );

  return {
    /** Particle-style: the claim code is answered once, here, and kept only as a hash. */
    register: async (
      caller: Caller,
      input: { serial: string; productLine: ProductLine; model: string; firmwareVersion: string; name?: string },
    ): Promise<{ device: Device; claimCode: string }> => {
      const id = deviceIdOf(input.serial);
      const claimCode = deps.newClaimCode();
      const at = now();
      const device: StoredDevice = {
        id,
        serial: input.serial,
        name: input.name ?? input.serial,
        productLine: input.productLine,
        model: input.model,
        firmwareVersion: input.firmwareVersion,
        locationPrivacy: 'approximate',
        dataVisibility: 'private',
        state: 'provisioned',
        created: at,
        updated: at,
        claimCodeHash: hashClaimCode(id, claimCode),
        registeredBy: caller.sub,
      };
      if (!(await devices.create(device))) throw new Conflict(MESSAGES.deviceSerialRegistered(input.serial));
      return { device: present(device, await levelOf(caller, id), at), claimCode };
    },

    /**
     * A wrong code and an unknown serial get the same 403, so the code is checked before anything about the
     * device is told; only then does an already claimed or retired device answer 409.
     */
    claim: async (caller: Caller, input: { serial: string; claimCode: string }): Promise<Device> => {
      const id = deviceIdOf(input.serial);
      const device = await devices.get(id);
      const matches = claimCodeMatches(id, input.claimCode, device?.claimCodeHash ?? NO_HASH);
      if (!device || !matches) throw new Forbidden(MESSAGES.deviceClaimRefused);
      if (device.state === 'retired') throw new Conflict(MESSAGES.deviceRetired);
      if (device.ownerId !== undefined) throw new Conflict(MESSAGES.deviceAlreadyClaimed);
      const claimed = await devices.claim(id, caller.sub, now());
      // Another claim won between the read and the write.
      if (!claimed) throw new Conflict(MESSAGES.deviceAlreadyClaimed);
      const relation = ownerRelation(id, caller.sub, caller.sub);
      try {
        await relations.create(relation);
        await effects.bump([relation]);
        await effects.publish([{ change: 'added', relation }], caller.sub);
      } catch (error) {
        // No transactions: an owner without the relation (or unannounced) is taken back whole.
        log('error', 'Claim undone', { id, error: error instanceof Error ? error.message : String(error) });
        await relations.remove(relation.id);
        await devices.unclaim(id, caller.sub, now());
        await effects.bump([relation]);
        throw new ServiceUnavailable(MESSAGES.changeUndone);
      }
      return present(claimed, 'own', now());
    },

    /** Anyone sees a public device (location per its privacy); a private one needs view access. */
    get: async (caller: Caller | undefined, id: string): Promise<Device> => {
      const device = await find(id);
      const level = await levelOf(caller, id);
      if (level === 'none' && device.dataVisibility !== 'public') {
        if (!caller) throw new Unauthorized();
        throw new Forbidden(MESSAGES.accessDenied('device'));
      }
      return present(device, level, now());
    },

    listMine: async (caller: Caller, page: Page) => {
      const staff = isStaff(caller.groups);
      const result = await pageAcross(
        ROLES.map((role) => heldThrough(caller.sub, role)),
        page,
      );
      const at = now();
      return {
        items: result.items.map(
          ({ device, role }): MyDevice => ({ ...present(device, staff ? 'own' : LEVEL_OF_ROLE[role], at), role }),
        ),
        ...(result.nextCursor ? { nextCursor: result.nextCursor } : {}),
      };
    },

    /** Staff: every device, product line by product line, newest first. */
    listAll: async (query: Page & { productLine?: ProductLine }) => {
      const result = await pageAcross(productLineSources(undefined, query.productLine), query);
      const at = now();
      return {
        items: result.items.map((device) => present(device, 'own', at)),
        ...(result.nextCursor ? { nextCursor: result.nextCursor } : {}),
      };
    },

    /**
     * Map markers. `visible` pages the caller's own devices first (those the public pages will not list), then
     * the public ones; a public device the caller manages shows exactly even when it is approximate to others.
     */
    map: async (
      caller: Caller | undefined,
      query: Page & { scope: 'visible' | 'public' | 'mine' | 'all' },
    ): Promise<{ items: MapDevice[]; nextCursor?: string }> => {
      const at = now();
      const staff = caller !== undefined && isStaff(caller.groups);
      const publicLevel = async (device: StoredDevice): Promise<AccessLevel> => {
        if (staff) return 'own';
        if (!caller || device.locationPrivacy !== 'approximate') return 'none';
        return levelOf(caller, device.id);
      };
      const publicSources = productLineSources('publicMapped').map((source) =>
        mapped(source, async (device) => toMapDevice(device, await publicLevel(device), at)),
      );
      const mineSources = (skipPublic: boolean) => {
        if (!caller) throw new Unauthorized(MESSAGES.deviceMapScopeSignIn);
        return ROLES.map((role) =>
          mapped(heldThrough(caller.sub, role), async ({ device }) =>
            skipPublic && isPublicMapped(device)
              ? undefined
              : device.state === 'retired'
                ? undefined
                : toMapDevice(device, staff ? 'own' : LEVEL_OF_ROLE[role], at),
          ),
        );
      };
      let sources: PageSource<MapDevice>[];
      if (query.scope === 'all') {
        if (!caller) throw new Unauthorized();
        if (!staff) throw new Forbidden(MESSAGES.deviceMapScopeStaff);
        sources = productLineSources('located').map((source) =>
          mapped(source, async (device) => toMapDevice(device, 'own', at)),
        );
      } else if (query.scope === 'mine') {
        sources = mineSources(false);
      } else if (query.scope === 'public' || !caller) {
        sources = publicSources;
      } else {
        sources = [...mineSources(true), ...publicSources];
      }
      const result = await pageAcross(sources, query);
      return { items: result.items, ...(result.nextCursor ? { nextCursor: result.nextCursor } : {}) };
    },

    /** Managers change name, location, privacy and visibility; the owner (or staff) also the firmware version. */
    update: async (
      caller: Caller,
      id: string,
      changes: DeviceChanges,
      audit: AuditNote = NO_AUDIT,
    ): Promise<Device> => {
      const { device, level } = await guarded(caller, id, 'manage');
      noteDevice(audit, present(device, level, now()));
      if (changes.firmwareVersion !== undefined && RANK[level] < RANK.own) {
        throw new Forbidden(MESSAGES.deviceFirmwareOwnerOnly);
      }
      refuseRetired(device, caller);
      const at = now();
      const moves = withMove(device, changes.location, at);
      const updated = await devices.change(
        id,
        moves ? { ...changes, locationHistory: moves } : changes,
        at,
        isStaff(caller.groups),
      );
      if (!updated) return explainLostWrite(id, MESSAGES.deviceRetiredChange);
      return present(updated, level, now());
    },

    /**
     * The owner relation moves and both people's access versions rise, so the old owner loses management on
     * their next request. Administrators and users keep their relations: the new owner decides about them.
     */
    transfer: async (caller: Caller, id: string, newOwnerId: string, audit: AuditNote = NO_AUDIT): Promise<Device> => {
      const { device, level } = await guarded(caller, id, 'own');
      noteDevice(audit, present(device, level, now()));
      refuseRetired(device, caller);
      const oldOwnerId = device.ownerId;
      if (oldOwnerId === undefined) throw new Conflict(MESSAGES.deviceNotClaimed);
      if (oldOwnerId === newOwnerId) throw new Conflict(MESSAGES.deviceAlreadyOwner);
      if (!(await deps.users.exists(newOwnerId))) throw new NotFound(MESSAGES.deviceNewOwnerMissing(newOwnerId));
      const moved = await devices.setOwner(id, oldOwnerId, newOwnerId, now());
      if (!moved) return explainLostWrite(id, MESSAGES.deviceRetiredChange);
      const added = ownerRelation(id, newOwnerId, caller.sub);
      const oldId = relationId('device-owner', id, oldOwnerId);
      let removed: Relation | undefined;
      try {
        await relations.create(added);
        removed = await relations.remove(oldId);
        const gone = removed ?? { ...added, id: oldId, referentId: oldOwnerId };
        await effects.bump([added, gone]);
        await effects.publish(
          [
            { change: 'removed', relation: gone },
            { change: 'added', relation: added },
          ],
          caller.sub,
        );
      } catch (error) {
        log('error', 'Transfer undone', { id, error: error instanceof Error ? error.message : String(error) });
        await devices.setOwner(id, newOwnerId, oldOwnerId, now());
        await relations.remove(added.id);
        await relations.put(removed ?? { ...added, id: oldId, referentId: oldOwnerId });
        await effects.bump([added, { ...added, referentId: oldOwnerId }]);
        throw new ServiceUnavailable(MESSAGES.changeUndone);
      }
      // The caller's level after the move: read with their new access version, not this request's.
      return present(moved, await levelOf({ ...caller, accessVersion: undefined }, id), now());
    },

    /** Final: the state says retired, credentials are revoked, relations and data are kept. */
    retire: async (caller: Caller, id: string, audit: AuditNote = NO_AUDIT): Promise<Device> => {
      const { device, level } = await guarded(caller, id, 'own');
      noteDevice(audit, present(device, level, now()));
      if (device.state === 'retired') throw new Conflict(MESSAGES.deviceAlreadyRetired);
      const retired = await devices.retire(id, now());
      if (!retired) return explainLostWrite(id, MESSAGES.deviceAlreadyRetired);
      await deps.revokeCredentials(id);
      return present(retired, level, now());
    },

    /** For the credentials use cases: the device, refused below manage and when retired. */
    managed: async (caller: Caller, id: string, { active }: { active: boolean }) => {
      const { device } = await guarded(caller, id, 'manage');
      if (active && device.state === 'retired') throw new Conflict(MESSAGES.deviceRetired);
      return device;
    },

    /** Re-read after a write that must not outlive a concurrent retirement. */
    isRetired: async (id: string): Promise<boolean> => (await devices.get(id))?.state === 'retired',
  };
};

export type Devices = ReturnType<typeof createDevices>;
