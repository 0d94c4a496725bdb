import type { notifications } from '../../../shared/contracts/notifications';
import type { AreaHandlers } from '../../_shared/http/http-area';
import type { NotificationsDeps } from '../deps';

export const notificationHandlers: AreaHandlers<typeof notifications, NotificationsDeps> = {
  createNotification: ({ body, caller }, { notifications }) => notifications.create(body, caller),
  queueNotification: ({ body, caller }, { notifications }) => notifications.queue(body, caller),
  listNotifications: ({ body: { limit, cursor, ...filters }, caller }, { notifications }) =>
    notifications.list(filters, { limit, cursor }, caller),
  getNotification: ({ params, caller }, { notifications }) => notifications.get(params.id, caller),
  updateNotification: ({ params, body, caller, audit }, { notifications }) =>
    notifications.update(params.id, body, caller, audit),
  deleteNotification: ({ params, caller, audit }, { notifications }) => notifications.remove(params.id, caller, audit),
  listUserNotifications: ({ params, query, caller }, { notifications }) =>
    notifications.listForUser(params.id, query.state, { limit: params.x, cursor: query.cursor }, caller),
  previewAudience: ({ body }, { notifications }) => notifications.previewAudience(body.audience),
  listDeliveries: ({ params, query }, { notifications }) => notifications.deliveries(params.id, query),
  getPreferences: ({ caller }, { notifications }) => notifications.preferences(caller.sub),
  updatePreferences: ({ body, caller }, { notifications }) => notifications.setPreferences(caller.sub, body.email),
  unsubscribe: ({ query }, { notifications }) => notifications.unsubscribe(query.token, query.topic),
};
