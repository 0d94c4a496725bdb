import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { relationId } from '../../../shared/relations/relation-types';
import { type KeyRead, type ReadAhead, readKey } from '../../_shared/read-ahead';
import type { RelationTable } from '../../_shared/relations/relation-table';
import type { CampaignHolds, CampaignRecords, CampaignWindowRecord } from '../domain/campaign-series';

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
