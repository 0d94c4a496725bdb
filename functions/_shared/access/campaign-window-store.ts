import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Window } from '../../../shared/campaigns/window';
import { batchGetAll } from '../dynamodb';
import type { CampaignWindows } from './access';

/**
 * Campaign windows as the access module reads them: consistent reads by id from the campaigns table (every
 * area that checks access holds a read grant on it). A campaign's window changes raise its members' access
 * versions, so a cached decision never outlives the window it carries.
 */
export const createCampaignWindowStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): CampaignWindows => ({
  windows: async (campaignIds) => {
    const items = await batchGetAll(db, tableName, campaignIds);
    const windows = new Map<string, Window>();
    for (const item of items) {
      if (typeof item.id === 'string' && typeof item.startsAt === 'number' && typeof item.endsAt === 'number') {
        windows.set(item.id, { startsAt: item.startsAt, endsAt: item.endsAt });
      }
    }
    return windows;
  },
});
