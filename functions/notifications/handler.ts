import { notificationsAudit } from '../../shared/contracts/audit/notifications';
import { notifications } from '../../shared/contracts/notifications';
import { readEnv } from '../_shared/env';
import { httpArea } from '../_shared/http/http-area';
import { createNotificationsDeps, NOTIFICATIONS_ENV } from './deps';
import { notificationHandlers } from './handlers/notifications';

const env = readEnv(NOTIFICATIONS_ENV);

export const handler = httpArea(notifications, notificationHandlers, {
  audit: notificationsAudit,
  deps: () => createNotificationsDeps(env),
});
