import { alerts } from '../../shared/contracts/alerts';
import { alertsAudit } from '../../shared/contracts/audit/alerts';
import { readEnv } from '../_shared/env';
import { httpArea } from '../_shared/http/http-area';
import { ALERTS_ENV, createAlertsDeps } from './deps';
import { alertHandlers } from './handlers/alerts';

const env = readEnv(ALERTS_ENV);

export const handler = httpArea(alerts, alertHandlers, { audit: alertsAudit, deps: () => createAlertsDeps(env) });
