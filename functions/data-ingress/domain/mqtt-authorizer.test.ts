import {
  createMqttAuthorizer,
  credentialIdOfPrincipal,
  type MqttAuthorizerEvent,
  policyAllows,
  principalIdOf,
  REFRESH_AFTER_SECONDS,
} from './mqtt-authorizer';

const ARN = 'arn:aws:iot:us-west-2:123456789012';
const RULE = 'DataIngressReadings_prod';
const FIRMWARE_RULE = 'DataIngressFirmwareStatus_prod';
const GOOD = 'dc_goodCredential1.s3cr3t-s3cr3t-s3cr3t-s3cr3t';
const OTHER = 'dc_otherDevice22.s3cr3t-s3cr3t-s3cr3t-s3cr3t';
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

// The credential table, as the HTTPS ingest's verifier answers it: a live token → its device id.
const live = new Map<string, string>([
  [GOOD, 'dev-1'],
  [OTHER, 'dev-2'],
]);
const refusals: string[] = [];
const { authorize } = createMqttAuthorizer({
  verifyCredential: async (token) => live.get(token),
  iotArnPrefix: ARN,
  rules: { readings: RULE, firmwareStatus: FIRMWARE_RULE },
  refused: (reason) => refusals.push(reason),
});

const connect = (username: unknown, password: unknown, clientId: unknown = 'dev-1'): MqttAuthorizerEvent =>
  ({
    protocols: ['tls', 'mqtt'],
    protocolData: { mqtt: { username, password, clientId } },
    connectionMetadata: { id: 'c0ffee' },
  }) as MqttAuthorizerEvent;

describe('the devices’ MQTT authorizer', () => {
  it('lets a device in with its own credential, scoped to its own client id and topics, nothing else', async () => {
    const answer = await authorize(connect('dev-1', base64(GOOD)));
    expect(answer).toEqual({
      isAuthenticated: true,
      principalId: principalIdOf('dc_goodCredential1'),
      disconnectAfterInSeconds: 86_400,
      refreshAfterInSeconds: REFRESH_AFTER_SECONDS,
      policyDocuments: [
        {
          Version: '2012-10-17',
          Statement: [
            { Effect: 'Allow', Action: ['iot:Connect'], Resource: [`${ARN}:client/dev-1`] },
            {
              Effect: 'Allow',
              Action: ['iot:Publish'],
              Resource: [
                `${ARN}:topic/devices/dev-1/readings`,
                `${ARN}:topic/devices/dev-1/status`,
                `${ARN}:topic/devices/dev-1/firmware-status`,
                `${ARN}:topic/$aws/rules/${RULE}/devices/dev-1/readings`,
                `${ARN}:topic/$aws/rules/${FIRMWARE_RULE}/devices/dev-1/firmware-status`,
              ],
            },
          ],
        },
      ],
    });
    expect(REFRESH_AFTER_SECONDS).toBe(300);
    if (!answer.isAuthenticated) throw new Error('refused');
    // IoT Core's principal id: alphanumeric, at most 128 characters, and naming the credential for the ingest rule.
    expect(answer.principalId).toMatch(/^[a-zA-Z0-9]{1,128}$/);
    expect(credentialIdOfPrincipal(answer.principalId)).toBe('dc_goodCredential1');
    const policies = answer.policyDocuments;
    expect(policyAllows(policies, 'iot:Publish', `${ARN}:topic/devices/dev-1/readings`)).toBe(true);
    expect(policyAllows(policies, 'iot:Publish', `${ARN}:topic/devices/dev-2/readings`)).toBe(false);
    expect(policyAllows(policies, 'iot:Publish', `${ARN}:topic/devices/dev-1/live`)).toBe(false);
    expect(policyAllows(policies, 'iot:Subscribe', `${ARN}:topicfilter/devices/dev-1/readings`)).toBe(false);
    expect(policyAllows(policies, 'iot:Receive', `${ARN}:topic/devices/dev-1/readings`)).toBe(false);
    expect(policyAllows(policies, 'iot:Connect', `${ARN}:client/dev-2`)).toBe(false);
    // Basic Ingest: its own readings through this environment's readings rule, not another device's, rule or channel.
    expect(policyAllows(policies, 'iot:Publish', `${ARN}:topic/$aws/rules/${RULE}/devices/dev-1/readings`)).toBe(true);
    expect(policyAllows(policies, 'iot:Publish', `${ARN}:topic/$aws/rules/${RULE}/devices/dev-2/readings`)).toBe(false);
    expect(
      policyAllows(policies, 'iot:Publish', `${ARN}:topic/$aws/rules/DataIngressReadings_dev/devices/dev-1/readings`),
    ).toBe(false);
    expect(policyAllows(policies, 'iot:Publish', `${ARN}:topic/$aws/rules/${RULE}/devices/dev-1/status`)).toBe(false);
    // Its firmware reports through the firmware status rule only, and only its own.
    const report = (rule: string, device: string, channel = 'firmware-status') =>
      policyAllows(policies, 'iot:Publish', `${ARN}:topic/$aws/rules/${rule}/devices/${device}/${channel}`);
    expect(report(FIRMWARE_RULE, 'dev-1')).toBe(true);
    expect(report(FIRMWARE_RULE, 'dev-2')).toBe(false);
    expect(report(RULE, 'dev-1')).toBe(false);
    expect(report(FIRMWARE_RULE, 'dev-1', 'readings')).toBe(false);
  });

  it('reads the device id before the query string IoT Core lets a device add to its user name', async () => {
    const answer = await authorize(connect('dev-1?x-amz-customauthorizer-name=device-data-prod-devices', base64(GOOD)));
    expect(answer.isAuthenticated).toBe(true);
  });

  it.each([
    ['a wrong secret', 'dev-1', base64('dc_goodCredential1.wrong-wrong-wrong-wrong-wrong')],
    ['an unknown credential', 'dev-1', base64('dc_neverIssued00.s3cr3t-s3cr3t-s3cr3t-s3cr3t')],
    ['another device’s credential', 'dev-1', base64(OTHER)],
    ['its credential under another device’s name', 'dev-2', base64(GOOD)],
    ['an unknown device', 'dev-404', base64(GOOD)],
  ])('refuses %s', async (_case, username, password) => {
    expect(await authorize(connect(username, password, username))).toEqual({ isAuthenticated: false });
  });

  it('refuses a credential once it is revoked, on the next connection or refresh', async () => {
    const token = 'dc_revokedSoon000.s3cr3t-s3cr3t-s3cr3t-s3cr3t';
    live.set(token, 'dev-1');
    expect((await authorize(connect('dev-1', base64(token)))).isAuthenticated).toBe(true);
    live.delete(token);
    expect(await authorize(connect('dev-1', base64(token)))).toEqual({ isAuthenticated: false });
  });

  it('refuses a client id that is not the device id, so no device can take over another’s connection', async () => {
    expect(await authorize(connect('dev-1', base64(GOOD), 'dev-2'))).toEqual({ isAuthenticated: false });
    const withoutClientId = connect('dev-1', base64(GOOD));
    delete withoutClientId.protocolData?.mqtt?.clientId;
    expect(await authorize(withoutClientId)).toEqual({ isAuthenticated: false });
  });

  it.each([
    ['a password that is not base64', 'dev-1', '%%%not-base64%%%'],
    ['a password of the raw token (not base64)', 'dev-1', GOOD],
    ['an empty password', 'dev-1', ''],
    ['no password', 'dev-1', undefined],
    ['no user name', undefined, base64(GOOD)],
    ['a wildcard in the user name', 'dev-*', base64(GOOD)],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: an IoT policy variable, not JavaScript
    ['a policy variable in the user name', '${iot:ClientId}', base64(GOOD)],
    ['a topic level in the user name', 'dev-1/readings', base64(GOOD)],
    ['an empty user name', '', base64(GOOD)],
  ])('refuses %s', async (_case, username, password) => {
    expect(await authorize(connect(username, password, username))).toEqual({ isAuthenticated: false });
  });

  it('refuses an event without MQTT data (an HTTP publish, a malformed call)', async () => {
    expect(await authorize({} as MqttAuthorizerEvent)).toEqual({ isAuthenticated: false });
    expect(await authorize(undefined as unknown as MqttAuthorizerEvent)).toEqual({ isAuthenticated: false });
  });

  it('says why it refused, never with the password', () => {
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals.join(' ')).not.toContain('s3cr3t');
  });

  it('reads back only principal ids it issued', () => {
    expect(credentialIdOfPrincipal(principalIdOf('dc_abc'))).toBe('dc_abc');
    expect(credentialIdOfPrincipal('a1b2c3d4e5f6')).toBeUndefined();
    expect(credentialIdOfPrincipal('not hex')).toBeUndefined();
    expect(credentialIdOfPrincipal(undefined)).toBeUndefined();
  });
});
