import { log } from '../../_shared/logger';
import { createRelationTable } from '../../_shared/relations/relation-table';
import { createSensorThings } from '../domain/sta-service';
import { createStaCatalog } from '../store/sta-catalog';
import type { CommonDeps } from './common';

/** The SensorThings service's dependencies, built from the area's common ones. */
export const createStaDeps = (common: CommonDeps) => ({
  sensorThings: createSensorThings({
    catalog: createStaCatalog({
      db: common.db,
      devicesTable: common.env.devicesTable,
      campaignsTable: common.env.campaignsTable,
      relations: createRelationTable({ db: common.db, tableName: common.env.relationsTable }),
    }),
    dataAccess: common.dataAccess,
    readings: common.readings,
    log,
    now: common.now,
  }),
});
