import { deviceConnectionOf } from './device-connection';
import { TopicLabelError } from './topics';

const cloud = {
  apiBaseUrls: { 'data-ingress': 'https://data-ingress.api.example.com/' },
  deviceIngress: {
    mqttUrl: 'mqtts://abc-ats.iot.us-west-2.amazonaws.com:443',
    mqttAlpn: 'mqtt',
    mqttUserNameSuffix: '?x-amz-customauthorizer-name=device-data-prod-devices',
    readingsRule: 'DataIngressReadings_prod',
  },
};

describe('a device’s connection details', () => {
  it('names the HTTPS route, and the broker, user name, client id and Basic Ingest topic the authorizer checks', () => {
    expect(deviceConnectionOf(cloud, 'dev-sn1001')).toEqual({
      httpsUrl: 'https://data-ingress.api.example.com/readings',
      mqtt: {
        url: 'mqtts://abc-ats.iot.us-west-2.amazonaws.com:443',
        alpn: 'mqtt',
        userName: 'dev-sn1001?x-amz-customauthorizer-name=device-data-prod-devices',
        clientId: 'dev-sn1001',
        topic: '$aws/rules/DataIngressReadings_prod/devices/dev-sn1001/readings',
      },
    });
  });

  it('leaves out what the environment does not configure', () => {
    expect(deviceConnectionOf({ apiBaseUrls: {} }, 'dev-1')).toEqual({});
    const local = deviceConnectionOf(
      {
        apiBaseUrls: { 'data-ingress': 'http://localhost:3000/data-ingress' },
        deviceIngress: {
          mqttUrl: 'mqtt://localhost:1883',
          mqttUserNameSuffix: '',
          readingsRule: 'DataIngressReadings_local',
        },
      },
      'dev-1',
    );
    expect(local.mqtt).toEqual({
      url: 'mqtt://localhost:1883',
      userName: 'dev-1',
      clientId: 'dev-1',
      topic: '$aws/rules/DataIngressReadings_local/devices/dev-1/readings',
    });
  });

  it('refuses an id that would change the topic', () => {
    expect(() => deviceConnectionOf(cloud, 'a/#')).toThrow(TopicLabelError);
  });
});
