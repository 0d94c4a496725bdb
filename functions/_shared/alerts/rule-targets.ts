import type { AlertTarget } from '../../../shared/contracts/alerts';
import type { RelationType } from '../../../shared/relations/relation-types';
import type { RelationTable } from '../relations/relation-table';

/** The relation by which a campaign or an organization holds a device (its rules watch the device). */
export const HOLDS: Record<Exclude<AlertTarget['kind'], 'device'>, RelationType> = {
  campaign: 'campaign-device',
  organization: 'organization-device',
};

/** The devices a rule's target watches: the device itself, or every device of the campaign or organization. */
export const devicesOfTarget =
  (relations: Pick<RelationTable, 'queryAll'>) =>
  async (target: AlertTarget): Promise<string[]> =>
    target.kind === 'device'
      ? [target.id]
      : (await relations.queryAll('referrer', target.id, [HOLDS[target.kind]])).map((r) => r.referentId);
