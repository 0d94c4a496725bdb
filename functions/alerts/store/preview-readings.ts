import type { ReadingsStore } from '../../_shared/sensor-data/readings-store';
import type { PreviewReadings } from '../domain/ports';

/** A device's readings for a preview, oldest first, through the one readings adapter (one copy of each time). */
export const createPreviewReadings = (store: Pick<ReadingsStore, 'query'>): PreviewReadings => ({
  readings: (deviceId, { from, to }, limit) => store.query(deviceId, { from, to, order: 'asc', limit }),
});
