import { devicesAudit } from '../../shared/contracts/audit/devices';
import { devices } from '../../shared/contracts/devices';
import { readEnv } from '../_shared/env';
import { httpArea } from '../_shared/http/http-area';
import { createDevicesDeps, DEVICES_ENV } from './deps';
import { deviceHandlers } from './handlers/devices';

const env = readEnv(DEVICES_ENV);

export const handler = httpArea(devices, deviceHandlers, { audit: devicesAudit, deps: () => createDevicesDeps(env) });
