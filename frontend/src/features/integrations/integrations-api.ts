import type { QueryKey } from '@tanstack/react-query';
import { useQuery } from '@tanstack/react-query';
import type { TargetKind } from '../../../../shared/contracts/integrations';
import { routeKey, routeQuery } from '../../lib/query';

/** A page of the log: the newest deliveries first. */
export const LOG_PAGE = 20;

export const listRequest = (kind: TargetKind, id: string) => ({ query: { targetKind: kind, targetId: id, limit: 50 } });

export const useWebhook = (id: string) => useQuery(routeQuery('integrations', 'getWebhook', { params: { id } }));

/** Every read a change of one webhook may touch: its record, the lists that show it and its log. */
export const webhookKeys = (id: string): QueryKey[] => [
  routeKey('integrations', 'getWebhook', { params: { id } }),
  routeKey('integrations', 'listWebhooks'),
  routeKey('integrations', 'listDeliveries'),
];

/** A webhook's log. */
export const deliveriesKey = (id: string): QueryKey =>
  routeKey('integrations', 'listDeliveries', { params: { id }, query: { limit: LOG_PAGE } });
