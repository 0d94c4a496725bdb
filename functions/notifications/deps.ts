import type { JobsMessage } from '../../shared/contracts/events';
import { getCognitoClient, getDocumentClient, getSesClient, getSqsClient } from '../_shared/clients';
import { createMailer } from '../_shared/mail/mailer';
import { lambdaCounters } from '../_shared/metrics';
import { createQueueSender } from '../_shared/queue/queue-sender';
import { createDelivery } from './domain/delivery';
import { createNotifications } from './domain/notifications';
import { createAudienceStore } from './store/audience-store';
import { createDeliveryStore } from './store/delivery-store';
import { createNotificationStore } from './store/notification-store';
import { createPreferenceStore } from './store/preference-store';

export const NOTIFICATIONS_ENV = {
  notificationsTable: 'NOTIFICATIONS_TABLE',
  deliveriesTable: 'NOTIFICATION_DELIVERIES_TABLE',
  preferencesTable: 'NOTIFICATION_PREFERENCES_TABLE',
  relationsTable: 'RELATIONS_TABLE',
  usersTable: 'USERS_TABLE',
  userPoolId: 'USER_POOL_ID',
  jobsQueueUrl: 'JOBS_QUEUE_URL',
} as const;

/** What the worker needs beyond the API: where e-mail comes from and where its links go. */
export const NOTIFICATIONS_WORKER_ENV = {
  ...NOTIFICATIONS_ENV,
  mailFrom: 'MAIL_FROM',
  webOrigin: 'WEB_ORIGIN',
  apiUrl: 'AREA_API_URL',
} as const;

const createStores = (env: Record<keyof typeof NOTIFICATIONS_ENV, string>) => {
  const db = getDocumentClient();
  return {
    notifications: createNotificationStore({ db, tableName: env.notificationsTable }),
    deliveries: createDeliveryStore({ db, tableName: env.deliveriesTable }),
    preferences: createPreferenceStore({ db, tableName: env.preferencesTable }),
    audiences: createAudienceStore({
      db,
      cognito: getCognitoClient(),
      relationsTable: env.relationsTable,
      usersTable: env.usersTable,
      userPoolId: env.userPoolId,
    }),
    queue: createQueueSender<JobsMessage>({ sqs: getSqsClient(), queueUrl: env.jobsQueueUrl, queueName: 'jobs' }),
    now: Date.now,
  };
};

export const createNotificationsDeps = (env: Record<keyof typeof NOTIFICATIONS_ENV, string>) => ({
  notifications: createNotifications(createStores(env)),
});

export type NotificationsDeps = ReturnType<typeof createNotificationsDeps>;

export const createWorkerDeps = (env: Record<keyof typeof NOTIFICATIONS_WORKER_ENV, string>) => ({
  delivery: createDelivery({
    ...createStores(env),
    mailer: createMailer({ ses: getSesClient(), from: env.mailFrom }),
    webOrigin: env.webOrigin,
    apiUrl: env.apiUrl,
    counters: lambdaCounters,
  }),
});
