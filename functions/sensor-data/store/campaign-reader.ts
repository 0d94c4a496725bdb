import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { relationId } from '../../../shared/relations/relation-types';
import { type KeyRead, type ReadAhead, readKey } from '../../_shared/read-ahead';
import type { RelationTable } from '../../_shared/relations/relation-table';
import type { CampaignHolds, CampaignRecords, CampaignWindowRecord } from '../domain/campaign-series';
import type { CampaignLinks } from '../domain/data-quality';

/**
 * A campaign's name and window from the campaigns area's table (read only here, as the access module reads it for
 * campaign windows): consistent, so a changed window counts on the next request.
 */
export const createCampaignReader = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): CampaignRecords => {
  const keyRead = (campaignId: string): KeyRead => ({
    table: tableName,
    key: { id: campaignId },
    consistent: true,
    attributes: ['id', 'name', 'startsAt', 'endsAt'],
  });
  return {
    keyRead,
    get: async (campaignId: string, ahead?: ReadAhead): Promise<CampaignWindowRecord | undefined> => {
      const item = await readKey(db, keyRead(campaignId), ahead);
      if (!item || typeof item.startsAt !== 'number' || typeof item.endsAt !== 'number') return undefined;
      return {
        id: campaignId,
        name: typeof item.name === 'string' ? item.name : campaignId,
        startsAt: item.startsAt,
        endsAt: item.endsAt,
      };
    },
  };
};

/** The devices a campaign holds, from the relations table (listed by index, confirmed by id). */
export const createCampaignHolds = ({
  relations,
}: {
  relations: Pick<RelationTable, 'queryAll' | 'keyRead'>;
}): CampaignHolds => ({
  deviceIds: async (campaignId) =>
    (await relations.queryAll('referrer', campaignId, ['campaign-device'])).map((relation) => relation.referentId),
  holdRead: (campaignId, deviceId) => relations.keyRead(relationId('campaign-device', campaignId, deviceId)),
});

/**
 * The campaigns holding a device and the devices a campaign holds (docs/data-quality.md "Who may"): listed by index,
 * each confirmed by reading its campaign-device relation by id, so one taken out a moment ago gives no right.
 */
export const createCampaignLinks = ({
  relations,
}: {
  relations: Pick<RelationTable, 'queryAll' | 'getMany'>;
}): CampaignLinks => {
  const confirmed = async (pairs: { campaignId: string; deviceId: string }[]) => {
    const found = new Set(
      (await relations.getMany(pairs.map((p) => relationId('campaign-device', p.campaignId, p.deviceId)))).map(
        (relation) => relation.id,
      ),
    );
    return pairs.filter((p) => found.has(relationId('campaign-device', p.campaignId, p.deviceId)));
  };
  return {
    campaignsHolding: async (deviceId) =>
      (
        await confirmed(
          (
            await relations.queryAll('referent', deviceId, ['campaign-device'])
          ).map((r) => ({
            campaignId: r.referrerId,
            deviceId,
          })),
        )
      ).map((p) => p.campaignId),
    devicesOf: async (campaignId) =>
      [
        ...new Set(
          (
            await confirmed(
              (
                await relations.queryAll('referrer', campaignId, ['campaign-device'])
              ).map((r) => ({
                campaignId,
                deviceId: r.referentId,
              })),
            )
          ).map((p) => p.deviceId),
        ),
      ].sort(),
  };
};
