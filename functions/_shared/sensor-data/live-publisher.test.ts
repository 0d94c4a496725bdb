import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { IoTDataPlaneClient, PublishCommand, ThrottlingException } from '@aws-sdk/client-iot-data-plane';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { jest } from '@jest/globals';
import { mockClient } from 'aws-sdk-client-mock';
import { createLivePublisher } from './live-publisher';

describe('the live publisher', () => {
  const dynamo = mockClient(DynamoDBDocumentClient);
  const iotMock = mockClient(IoTDataPlaneClient);
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-west-2' }));
  const iot = new IoTDataPlaneClient({ region: 'us-west-2' });
  const publisher = createLivePublisher({ db, tableName: 'watches', iot, now: () => 10_000 });
  const logged = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  beforeEach(() => {
    dynamo.reset();
    iotMock.reset();
  });

  it("publishes the readings to each current watcher's own topic, skipping expired watches", async () => {
    dynamo.on(QueryCommand).resolves({
      Items: [{ deviceId: 'd', watcher: 'w1', topic: 'local/identities/w1/devices/d/live', expiresAt: 11 }],
    });
    iotMock.on(PublishCommand).resolves({});
    expect(
      await publisher.publish('d', [
        { timestamp: 2, values: { co2: 1 } },
        { timestamp: 1, values: { co2: 0 } },
      ]),
    ).toBe(1);
    expect(dynamo.commandCalls(QueryCommand)[0]!.args[0].input.ExpressionAttributeValues).toEqual({
      ':device': 'd',
      ':now': 10,
    });
    const sent = iotMock.commandCalls(PublishCommand)[0]!.args[0].input;
    expect(sent.topic).toBe('local/identities/w1/devices/d/live');
    expect(JSON.parse(Buffer.from(sent.payload as Uint8Array).toString())).toEqual({
      deviceId: 'd',
      readings: [
        { timestamp: 1, values: { co2: 0 } },
        { timestamp: 2, values: { co2: 1 } },
      ],
    });
  });

  it('never throws: the readings are stored already', async () => {
    dynamo.on(QueryCommand).rejects(new Error('table down'));
    expect(await publisher.publish('d', [{ timestamp: 1, values: {} }])).toBe(0);
    dynamo.on(QueryCommand).resolves({ Items: [{ topic: 't1' }, { topic: 't2' }] });
    iotMock.on(PublishCommand).rejectsOnce(new Error('throttled')).resolves({});
    expect(await publisher.publish('d', [{ timestamp: 1, values: {} }])).toBe(1);
  });

  it("logs a failed publish with IoT Core's own error code (spec §8)", async () => {
    logged.mockClear();
    dynamo.on(QueryCommand).resolves({ Items: [{ topic: 't1' }] });
    iotMock
      .on(PublishCommand)
      .rejects(new ThrottlingException({ message: 'Rate exceeded', $metadata: { httpStatusCode: 429 } }));
    expect(await publisher.publish('d', [{ timestamp: 1, values: {} }])).toBe(0);
    expect(JSON.parse(String(logged.mock.calls[0]![0]))).toMatchObject({ code: 'ThrottlingException', failed: 1 });
  });
});
