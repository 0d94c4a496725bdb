import type { AlertTarget } from '../../../shared/contracts/alerts';
import type { RelationType } from '../../../shared/relations/relation-types';
import { relationId } from '../../../shared/relations/relation-types';
import type { DeviceReader } from '../../_shared/alerts/device-reader';
import { devicesOfTarget, HOLDS } from '../../_shared/alerts/rule-targets';
import type { RelationTable } from '../../_shared/relations/relation-table';
import type { TargetReader } from '../domain/ports';

/** A person's devices: the relations that make them its owner, administrator or user. */
const PERSON_DEVICE_TYPES: RelationType[] = ['device-owner', 'device-administrator', 'device-user'];

/** The objects a rule names, read through the relations (the relations area's table) and the device records. */
export const createTargetReader = ({
  relations,
  devices,
}: {
  relations: Pick<RelationTable, 'queryAll' | 'getMany'>;
  devices: Pick<DeviceReader, 'facts'>;
}): TargetReader => ({
  device: devices.facts,

  devicesOf: devicesOfTarget(relations),

  holdersOf: async (deviceId: string) =>
    (await relations.queryAll('referent', deviceId, ['campaign-device', 'organization-device'])).map((r) => ({
      kind: r.type === 'campaign-device' ? ('campaign' as const) : ('organization' as const),
      id: r.referrerId,
    })),

  holds: async (target: AlertTarget, deviceId: string) => {
    if (target.kind === 'device') return target.id === deviceId;
    return (await relations.getMany([relationId(HOLDS[target.kind], target.id, deviceId)])).length > 0;
  },

  devicesOfPerson: async (userId: string, limit: number) => {
    const held = await relations.queryAll('referent', userId, PERSON_DEVICE_TYPES);
    return [...new Set(held.map((r) => r.referrerId))].slice(0, limit);
  },
});
