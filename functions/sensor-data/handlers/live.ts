import type { liveRoutes } from '../../../shared/contracts/sensor-data-live';
import type { PartHandlers } from '../../_shared/http/http-area';
import type { SensorDataDeps } from '../deps';

export const liveHandlers: PartHandlers<typeof liveRoutes, SensorDataDeps> = {
  watchLive: ({ params, body, caller }, { live }) => live.watch(caller, params.id, body.idToken),
  unwatchLive: ({ params, query, caller }, { live }) => live.unwatch(caller, params.id, query.identityId),
  attachTargetPolicy: ({ body, caller }, { live }) => live.targetPolicy(caller, 'attach', body),
  detachTargetPolicy: ({ body, caller }, { live }) => live.targetPolicy(caller, 'detach', body),
};
