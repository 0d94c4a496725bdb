import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { isStaff } from '../../../shared/auth/groups';
import type { Caller } from '../../../shared/auth/verify-token';
import { PRODUCT_LINES } from '../../../shared/contracts/shapes';
import { batchGetAll, queryPage } from '../../_shared/dynamodb';
import { readAll } from '../../_shared/paging';
import type { RelationTable } from '../../_shared/relations/relation-table';
import { type DataDevice, DEVICE_ATTRIBUTES } from '../../_shared/sensor-data/data-access';
import type { CampaignRef } from '../domain/sta-model';
import type { StaCatalog, VisibleDevice } from '../domain/sta-service';

/** What the SensorThings entities are made of: what the reads take of a device, never its claim or credentials. */
const PROJECTION = DEVICE_ATTRIBUTES;

const DIRECT = ['device-owner', 'device-administrator', 'device-user'] as const;
const MANAGING = new Set<string>(['device-owner', 'device-administrator']);
const CAMPAIGN_MEMBER = ['campaign-manager', 'campaign-user'] as const;

const asDevice = (item: Record<string, unknown>): DataDevice => {
  const names = item.measurementNames as Set<string> | string[] | undefined;
  return { ...(item as unknown as DataDevice), ...(names ? { measurementNames: [...names].sort() } : {}) };
};

/**
 * The devices a caller may see, for the SensorThings collections (docs/open-data.md): the public ones from the
 * devices' product-line index (filtered in DynamoDB, as the map reads them), the caller's own relations' and
 * campaigns' devices by key, and for staff every device. A relation decides over a campaign (it has no window), as the
 * access module decides. The relations are read on every request, so a revoked one leaves the very next listing;
 * each device's data is still read through its own gate, consistently.
 */
export const createStaCatalog = ({
  db,
  devicesTable,
  campaignsTable,
  relations,
}: {
  db: DynamoDBDocumentClient;
  devicesTable: string;
  campaignsTable: string;
  relations: Pick<RelationTable, 'queryAll'>;
}): StaCatalog => {
  const productLine = (line: string, publicOnly: boolean) =>
    readAll((startKey) =>
      queryPage(
        db,
        {
          TableName: devicesTable,
          IndexName: 'byProductLine',
          KeyConditionExpression: '#line = :line',
          ...(publicOnly ? { FilterExpression: '#visibility = :public' } : {}),
          ProjectionExpression: PROJECTION.map((name) => `#${name}`).join(', '),
          ExpressionAttributeNames: {
            '#line': 'productLine',
            ...(publicOnly ? { '#visibility': 'dataVisibility' } : {}),
            ...Object.fromEntries(PROJECTION.map((name) => [`#${name}`, name])),
          },
          ExpressionAttributeValues: { ':line': line, ...(publicOnly ? { ':public': 'public' } : {}) },
        },
        { startKey },
        asDevice,
      ),
    );

  return {
    visible: async (caller: Caller | undefined): Promise<VisibleDevice[]> => {
      const staff = caller !== undefined && isStaff(caller.groups);
      const [listed, direct, memberships] = await Promise.all([
        Promise.all(PRODUCT_LINES.map((line) => productLine(line, !staff))).then((lines) => lines.flat()),
        caller && !staff ? relations.queryAll('referent', caller.sub, DIRECT) : [],
        caller && !staff ? relations.queryAll('referent', caller.sub, CAMPAIGN_MEMBER) : [],
      ]);
      const campaignDevices = await Promise.all(
        [...new Set(memberships.map((m) => m.referrerId))].map(async (campaignId) =>
          (await relations.queryAll('referrer', campaignId, ['campaign-device'])).map((r) => ({
            campaignId,
            deviceId: r.referentId,
          })),
        ),
      );
      const viaCampaign = new Map<string, string[]>();
      for (const { campaignId, deviceId } of campaignDevices.flat()) {
        viaCampaign.set(deviceId, [...(viaCampaign.get(deviceId) ?? []), campaignId]);
      }
      const level = new Map<string, boolean>();
      for (const relation of direct) {
        level.set(relation.referrerId, (level.get(relation.referrerId) ?? false) || MANAGING.has(relation.type));
      }
      const byId = new Map(listed.map((device) => [device.id, device]));
      const missing = [...new Set([...level.keys(), ...viaCampaign.keys()])].filter((id) => !byId.has(id));
      for (const item of await batchGetAll(db, devicesTable, missing)) {
        const device = asDevice(item);
        byId.set(device.id, device);
      }
      return [...byId.values()]
        .filter(
          (device) => staff || device.dataVisibility === 'public' || level.has(device.id) || viaCampaign.has(device.id),
        )
        .map((device) => ({
          device,
          manages: staff || level.get(device.id) === true,
          campaignIds: level.has(device.id) || staff ? [] : (viaCampaign.get(device.id) ?? []),
        }))
        .sort((a, b) => (a.device.id < b.device.id ? -1 : 1));
    },

    campaigns: async (ids: readonly string[]): Promise<CampaignRef[]> =>
      (await batchGetAll(db, campaignsTable, ids))
        .filter((item) => typeof item.startsAt === 'number' && typeof item.endsAt === 'number')
        .map((item) => ({
          id: String(item.id),
          name: typeof item.name === 'string' ? item.name : String(item.id),
          startsAt: item.startsAt as number,
          endsAt: item.endsAt as number,
        })),
  };
};
