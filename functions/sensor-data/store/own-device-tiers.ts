import type { TierRow } from '../../../shared/sensor-data/tiers';
import type { RelationTable } from '../../_shared/relations/relation-table';
import type { DataAccessModule } from '../../_shared/sensor-data/data-access';
import type { DeviceTiers } from '../../_shared/sensor-data/device-tier';

/** The relations that make a device a person's own: they bought it or run it (a user of it is let in, not its holder). */
const HOLDING = ['device-owner', 'device-administrator'] as const;

/**
 * The tiers in force of the devices a person owns or administers (the public-API allowance is made of them): their
 * relations by the person's side, then each device's record and tier side by side.
 */
export const createOwnDeviceTiers =
  ({
    relations,
    dataAccess,
    tiers,
  }: {
    relations: Pick<RelationTable, 'queryAll'>;
    dataAccess: Pick<DataAccessModule, 'readDevice'>;
    tiers: Pick<DeviceTiers, 'tierReader'>;
  }) =>
  async (personId: string): Promise<TierRow[]> => {
    const held = await relations.queryAll('referent', personId, HOLDING);
    const deviceIds = [...new Set(held.map((relation) => relation.referrerId))];
    const rows = await Promise.all(
      deviceIds.map(async (deviceId) => {
        const [device, tierFor] = await Promise.all([dataAccess.readDevice(deviceId), tiers.tierReader(deviceId)]);
        return device ? tierFor(device.productLine).tier : undefined;
      }),
    );
    return rows.filter((row): row is TierRow => row !== undefined);
  };
