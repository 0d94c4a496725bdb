import { type DynamoDBDocumentClient, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { FirmwareTarget } from '../../../shared/contracts/devices';
import { atRestOnRecord } from '../../_shared/alerts/rest-marks';
import { isConditionFailure, updateIf } from '../../_shared/dynamodb';
import type { QualityState } from '../../_shared/sensor-data/quality-flags';
import type { DeviceSeenStore, QualityStep, SeenDevice, SeenUpdate } from '../domain/ports';

const seenDevice = (item: Record<string, unknown> | undefined): SeenDevice => ({
  ...(typeof item?.lastSeen === 'number' ? { lastSeen: item.lastSeen } : {}),
  ...(typeof item?.firmwareVersion === 'string' ? { firmwareVersion: item.firmwareVersion } : {}),
  ...(item?.firmwareTarget ? { firmwareTarget: item.firmwareTarget as FirmwareTarget } : {}),
  ...(typeof item?.rollupSentFor === 'number' ? { rollupSentFor: item.rollupSentFor } : {}),
  ...(item?.qualityState ? { qualityState: item.qualityState as QualityState } : {}),
  ...(atRestOnRecord(item) ? { alertsAtRest: true } : {}),
});

/** The fields of a record a folded write depends on, as an answer holds them. */
const recordOf = (item: Record<string, unknown>, version: number): KnownRecord => ({
  version,
  ...(typeof item.lastSeen === 'number' ? { lastSeen: item.lastSeen } : {}),
  ...(item.qualityState ? { state: item.qualityState as QualityState } : {}),
});

// A missing map cannot take `SET measurementUnits.x`: DynamoDB refuses the document path.
const isMissingMap = (error: unknown) =>
  error instanceof Error && error.name === 'ValidationException' && /document path/i.test(error.message);

/** What the store knows of a device's record after its own last write: the fields a folded write depends on. */
interface KnownRecord {
  /** `seenVersion`: every write of lastSeen or of the quality memory adds one. */
  version: number;
  lastSeen?: number;
  state?: QualityState;
}

/** The devices a process keeps the record of: a warm Lambda's share of a fleet, and a few hundred bytes each. */
const KNOWN_DEVICES = 10_000;

/** The time of the newest value a memory holds: `qualityStateAt`, what a later memory is told by. */
const newestIn = (state: QualityState) =>
  Object.values(state).reduce((newest, { p }) => Math.max(newest, p[p.length - 1]?.[0] ?? 0), 0);

interface SeenWrite {
  /** `if-later`: lastSeen set where the record's is earlier; `set`: the store knows it is; `keep`: left as it is. */
  lastSeen: 'if-later' | 'set' | 'keep';
  /** The record's `seenVersion` the write is made against (a condition): the one the store knows. */
  against?: number;
  /** The quality memory to keep, the record's being the one `against` says. */
  state?: QualityState;
}

/**
 * Ingest's write to the device record (the devices area owns the rest of it): lastSeen moves only forward,
 * measurement names join a string set, declared units are set by name, and the quality checks' memory is kept. Only a
 * device that exists and is not retired is touched.
 *
 * The memory is what the record held plus the batch, so it can go in this write only when the store knows what the
 * record holds: it keeps each device's record as its own last write left it (`seenVersion`), and writes against that
 * version. Otherwise, or when another write moved the record meanwhile (the condition fails), the write marks the
 * device seen, answers the memory it held, and the new memory follows in a second, conditional update: the one batch
 * of a device a warm process has not seen costs two writes, each later one one (docs/decisions/102-*).
 */
export const createDeviceSeenStore = ({
  db,
  tableName,
}: {
  db: DynamoDBDocumentClient;
  tableName: string;
}): DeviceSeenStore => {
  const known = new Map<string, KnownRecord>();
  const remember = (deviceId: string, record: KnownRecord) => {
    const before = known.get(deviceId);
    // Two batches of a device at once may finish out of order: the later version is the record's.
    if (before && before.version >= record.version) return;
    known.delete(deviceId);
    known.set(deviceId, record);
    if (known.size > KNOWN_DEVICES) known.delete(known.keys().next().value!);
  };

  const update = async (
    deviceId: string,
    seen: SeenUpdate,
    { lastSeen, against, state }: SeenWrite,
  ): Promise<Record<string, unknown>> => {
    const set: string[] = [];
    const names: Record<string, string> = { '#state': 'state' };
    const values: Record<string, unknown> = { ':retired': 'retired', ':one': 1 };
    let condition = 'attribute_exists(id) AND #state <> :retired';
    if (lastSeen !== 'keep') {
      set.push('lastSeen = :seen');
      values[':seen'] = seen.lastSeen;
    }
    if (lastSeen === 'if-later') condition += ' AND (attribute_not_exists(lastSeen) OR lastSeen < :seen)';
    if (against !== undefined) {
      condition += ' AND seenVersion = :version';
      values[':version'] = against;
    }
    if (state) {
      set.push('qualityState = :quality', 'qualityStateAt = :qualityAt');
      values[':quality'] = state;
      values[':qualityAt'] = newestIn(state);
    }
    Object.entries(seen.units).forEach(([name, unit], i) => {
      set.push(`measurementUnits.#u${i} = :u${i}`);
      names[`#u${i}`] = name;
      values[`:u${i}`] = unit;
    });
    const add = ['seenVersion :one'];
    if (seen.names.length) {
      add.push('measurementNames :names');
      values[':names'] = new Set(seen.names);
    }
    const input: UpdateCommandInput = {
      TableName: tableName,
      Key: { id: deviceId },
      UpdateExpression: `${set.length ? `SET ${set.join(', ')} ` : ''}ADD ${add.join(', ')}`,
      ConditionExpression: condition,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      // The write ingest makes anyway tells it the device's firmware and rollout target, its lastSeen before this
      // batch (what the work after it counts as new), its alert rest marks and the quality memory: no read of its own.
      // It changes none of those but lastSeen and the memory.
      ReturnValues: 'ALL_OLD',
    };
    try {
      return (await db.send(new UpdateCommand(input))).Attributes ?? {};
    } catch (error) {
      if (!isMissingMap(error)) throw error;
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { id: deviceId },
          UpdateExpression: 'SET measurementUnits = if_not_exists(measurementUnits, :empty)',
          ConditionExpression: 'attribute_exists(id)',
          ExpressionAttributeValues: { ':empty': {} },
        }),
      );
      return (await db.send(new UpdateCommand(input))).Attributes ?? {};
    }
  };

  /** The one write, against the record as the store knows it. @returns undefined when the record moved (or went) */
  const folded = async (deviceId: string, seen: SeenUpdate, record: KnownRecord, quality?: QualityStep) => {
    const state = quality?.(record.state);
    const later = record.lastSeen === undefined || record.lastSeen < seen.lastSeen;
    try {
      const old = await update(deviceId, seen, { lastSeen: later ? 'set' : 'keep', against: record.version, state });
      remember(deviceId, {
        version: record.version + 1,
        lastSeen: later ? seen.lastSeen : record.lastSeen,
        state: state ?? record.state,
      });
      return seenDevice(old);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      if (known.get(deviceId) === record) known.delete(deviceId);
      return undefined;
    }
  };

  /**
   * Kept unless a batch with later values kept its own meanwhile (of two batches at once, the one with the later values
   * keeps its memory), and a retired or removed device gets no record back. Its answer is the record as it now is.
   */
  const saveQualityState = async (deviceId: string, state: QualityState) => {
    const after = await updateIf(db, {
      TableName: tableName,
      Key: { id: deviceId },
      UpdateExpression: 'SET qualityState = :state, qualityStateAt = :newest ADD seenVersion :one',
      ConditionExpression:
        'attribute_exists(id) AND (attribute_not_exists(qualityStateAt) OR qualityStateAt <= :newest)',
      ExpressionAttributeValues: { ':state': state, ':newest': newestIn(state), ':one': 1 },
      ReturnValues: 'ALL_NEW',
    });
    if (typeof after?.seenVersion === 'number') remember(deviceId, recordOf(after, after.seenVersion));
  };

  return {
    markSeen: async (deviceId, seen, quality) => {
      const record = known.get(deviceId);
      if (record) {
        const device = await folded(deviceId, seen, record, quality);
        if (device) return device;
      }
      let old: Record<string, unknown> | undefined;
      let movedLastSeen = true;
      try {
        old = await update(deviceId, seen, { lastSeen: 'if-later' });
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
      if (!old) {
        movedLastSeen = false;
        try {
          old = await update(deviceId, seen, { lastSeen: 'keep' });
        } catch (error) {
          if (isConditionFailure(error)) return undefined;
          throw error;
        }
      }
      const device = seenDevice(old);
      const state = quality?.(device.qualityState);
      if (state) await saveQualityState(deviceId, state);
      else {
        const version = (typeof old.seenVersion === 'number' ? old.seenVersion : 0) + 1;
        remember(deviceId, { ...recordOf(old, version), ...(movedLastSeen ? { lastSeen: seen.lastSeen } : {}) });
      }
      return device;
    },

    reportFirmware: async (deviceId: string, version: string, at: number): Promise<boolean> =>
      (await updateIf(db, {
        TableName: tableName,
        Key: { id: deviceId },
        UpdateExpression: 'SET firmwareVersion = :version, firmwareReported = :at',
        ConditionExpression:
          'attribute_exists(id) AND #state <> :retired AND (attribute_not_exists(firmwareVersion) OR ' +
          'firmwareVersion <> :version) AND (attribute_not_exists(firmwareReported) OR firmwareReported < :at)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':version': version, ':at': at, ':retired': 'retired' },
      })) !== undefined,

    markRollupSent: async (deviceId: string, notBefore: number): Promise<void> => {
      // A device removed meanwhile gets no record back: the condition keeps the mark from creating one.
      await updateIf(db, {
        TableName: tableName,
        Key: { id: deviceId },
        UpdateExpression: 'SET rollupSentFor = :due',
        ConditionExpression: 'attribute_exists(id)',
        ExpressionAttributeValues: { ':due': notBefore },
      });
    },
  };
};
