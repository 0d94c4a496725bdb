import type { StoredProfile } from '../../functions/_shared/sensor-data/quality-profile';
import type {
  CalibrationRecord,
  ExclusionRecord,
  QualityStore,
  ReprocessJob,
} from '../../functions/sensor-data/domain/ports';

/** The data-quality table in memory, with the real one's conditions. */
export const memoryQualityStore = () => {
  const profiles = new Map<string, StoredProfile>();
  const calibrations = new Map<string, CalibrationRecord>();
  const exclusions = new Map<string, ExclusionRecord>();
  const jobs = new Map<string, ReprocessJob>();
  let conflicts = 0;
  const store: QualityStore = {
    profile: async (deviceId) => structuredClone(profiles.get(deviceId)),
    saveProfile: async (profile, expected) => {
      if (conflicts > 0) {
        conflicts -= 1;
        return false;
      }
      if ((profiles.get(profile.deviceId)?.version ?? 0) !== expected) return false;
      profiles.set(profile.deviceId, structuredClone(profile));
      return true;
    },
    putCalibration: async (record) => {
      calibrations.set(`${record.deviceId}#${record.id}`, structuredClone(record));
    },
    putExclusion: async (record) => {
      exclusions.set(`${record.deviceId}#${record.id}`, structuredClone(record));
    },
    getExclusion: async (deviceId, id) => structuredClone(exclusions.get(`${deviceId}#${id}`)),
    markRemoved: async (deviceId, id, by, at) => {
      const record = exclusions.get(`${deviceId}#${id}`);
      if (!record || record.removedAt !== undefined) return false;
      Object.assign(record, { removedBy: by, removedAt: at });
      return true;
    },
    calibrations: async (deviceId) => [...calibrations.values()].filter((r) => r.deviceId === deviceId),
    exclusions: async (deviceId) => [...exclusions.values()].filter((r) => r.deviceId === deviceId),
    campaignCalibrations: async (id) => [...calibrations.values()].filter((r) => r.campaignId === id),
    campaignExclusions: async (id) => [...exclusions.values()].filter((r) => r.campaignId === id),
    profiles: async (ids) => new Map(ids.flatMap((id) => (profiles.has(id) ? [[id, profiles.get(id)!]] : []))),
    job: async (deviceId) => structuredClone(jobs.get(deviceId)),
    saveJob: async (job, expected) => {
      const stored = jobs.get(job.deviceId);
      if (
        expected
          ? stored?.started !== expected.started || stored.cursor !== expected.cursor
          : stored?.status === 'running'
      ) {
        return false;
      }
      jobs.set(job.deviceId, structuredClone(job));
      return true;
    },
  };
  return { store, profiles, calibrations, exclusions, jobs, conflict: (n: number) => (conflicts = n) };
};
