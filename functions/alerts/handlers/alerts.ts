import type { alerts } from '../../../shared/contracts/alerts';
import type { AreaHandlers } from '../../_shared/http/http-area';
import type { AlertsDeps } from '../deps';

export const alertHandlers: AreaHandlers<typeof alerts, AlertsDeps> = {
  createRule: ({ caller, body }, { rules }) => rules.create(caller, body),
  listRules: ({ caller, query }, { rules }) => rules.list(caller, query, query),
  previewRule: ({ caller, body }, { preview }) => preview.preview(caller, body),
  getRule: ({ caller, params }, { rules }) => rules.get(caller, params.id),
  updateRule: ({ caller, params, body, audit }, { rules }) => rules.update(caller, params.id, body, audit),
  deleteRule: ({ caller, params, audit }, { rules }) => rules.remove(caller, params.id, audit),
  listEvents: ({ caller, query }, { events }) => events.list(caller, query),
  acknowledgeEvent: ({ caller, params, audit }, { events }) => events.acknowledge(caller, params.id, audit),
};
