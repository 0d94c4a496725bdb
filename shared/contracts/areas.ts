import { alerts } from './alerts';
import { api } from './api';
import { campaigns } from './campaigns';
import { codeReleases } from './code-releases';
import { customer } from './customer';
import { dataIngress } from './data-ingress';
import { datasets } from './datasets';
import { devices } from './devices';
import { integrations } from './integrations';
import { migrate } from './migrate';
import { notifications } from './notifications';
import { organizations } from './organizations';
import { relations } from './relations';
import { sensorData } from './sensor-data';
import { system } from './system';
import { users } from './users';

/** Every service area, in one list: the gateway, the CDK API stack, OpenAPI and the authz matrix walk it. */
export const AREAS = {
  alerts,
  campaigns,
  'code-releases': codeReleases,
  customer,
  'data-ingress': dataIngress,
  datasets,
  devices,
  integrations,
  migrate,
  notifications,
  organizations,
  relations,
  'sensor-data': sensorData,
  system,
  users,
  api,
} as const;

export type AreaName = keyof typeof AREAS;
export const AREA_NAMES = Object.keys(AREAS) as AreaName[];
