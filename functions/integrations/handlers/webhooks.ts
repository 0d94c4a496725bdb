import type { integrations } from '../../../shared/contracts/integrations';
import type { AreaHandlers } from '../../_shared/http/http-area';
import type { IntegrationsDeps } from '../deps';

export const webhookHandlers: AreaHandlers<typeof integrations, IntegrationsDeps> = {
  createWebhook: ({ caller, body }, { webhooks }) => webhooks.create(caller, body),
  listWebhooks: ({ caller, query }, { webhooks }) =>
    webhooks.list(caller, query.targetKind, query.targetId, { limit: query.limit, cursor: query.cursor }),
  getWebhook: ({ caller, params }, { webhooks }) => webhooks.get(caller, params.id),
  updateWebhook: ({ caller, params, body, audit }, { webhooks }) => webhooks.update(caller, params.id, body, audit),
  deleteWebhook: ({ caller, params, audit }, { webhooks }) => webhooks.remove(caller, params.id, audit),
  rotateSecret: ({ caller, params, audit }, { webhooks }) => webhooks.rotateSecret(caller, params.id, audit),
  testWebhook: ({ caller, params }, { webhooks }) => webhooks.test(caller, params.id),
  listDeliveries: ({ caller, params, query }, { webhooks }) => webhooks.deliveries(caller, params.id, query),
  replayDelivery: ({ caller, params, audit }, { webhooks }) => webhooks.replay(caller, params.id, audit),
};
