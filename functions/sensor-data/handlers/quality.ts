import type { qualityRoutes } from '../../../shared/contracts/sensor-data-quality';
import type { PartHandlers, PartReadAhead } from '../../_shared/http/http-area';
import type { SensorDataDeps } from '../deps';

export const qualityHandlers: PartHandlers<typeof qualityRoutes, SensorDataDeps> = {
  listCalibrations: ({ caller, params, ahead }, { dataQuality }) =>
    dataQuality.listCalibrations(caller, params.id, ahead),
  addCalibration: ({ caller, params, body }, { dataQuality }) => dataQuality.addCalibration(caller, params.id, body),
  listExclusions: ({ caller, params, ahead }, { dataQuality }) => dataQuality.listExclusions(caller, params.id, ahead),
  addExclusion: ({ caller, params, body }, { dataQuality }) => dataQuality.addExclusion(caller, params.id, body),
  removeExclusion: ({ caller, params }, { dataQuality }) =>
    dataQuality.removeExclusion(caller, params.id, params.exclusionId),
  reprocessing: ({ caller, params, ahead }, { dataQuality }) => dataQuality.reprocessing(caller, params.id, ahead),
  listCampaignCalibrations: ({ caller, params }, { dataQuality }) =>
    dataQuality.listCampaignCalibrations(caller, params.id),
  addCampaignCalibration: ({ caller, params, body }, { dataQuality }) =>
    dataQuality.addCampaignCalibration(caller, params.id, body),
  listCampaignExclusions: ({ caller, params }, { dataQuality }) =>
    dataQuality.listCampaignExclusions(caller, params.id),
  addCampaignExclusion: ({ caller, params, body }, { dataQuality }) =>
    dataQuality.addCampaignExclusion(caller, params.id, body),
  removeCampaignExclusion: ({ caller, params }, { dataQuality }) =>
    dataQuality.removeCampaignExclusion(caller, params.id, params.exclusionId),
};

/** The device's gate (device, subscription, the caller's relations), read with the session record. */
export const qualityReadAhead: PartReadAhead<typeof qualityRoutes, SensorDataDeps> = {
  listCalibrations: ({ caller, params }, { dataAccess }) => dataAccess.readAhead(caller, params.id),
  listExclusions: ({ caller, params }, { dataAccess }) => dataAccess.readAhead(caller, params.id),
  reprocessing: ({ caller, params }, { dataAccess }) => dataAccess.readAhead(caller, params.id),
};
