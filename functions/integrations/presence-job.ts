import { scheduledJob } from '../_shared/schedule/scheduled-job';
import { createIntegrationsDeps, readIntegrationsEnv } from './deps';

const env = readIntegrationsEnv();

/**
 * The presence job (SCHEDULED_JOBS IntegrationsPresenceJob, every minute): device.online and device.offline for the
 * webhooks that take them, from the devices' last-seen times at the event's time (docs/integrations.md, "Presence").
 */
export const handler = scheduledJob('IntegrationsPresenceJob', ({ now }, { presence }) => presence.run(now), {
  deps: () => createIntegrationsDeps(env),
});
