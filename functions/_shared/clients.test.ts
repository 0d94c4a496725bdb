import { awsEndpointSettings, clientSettings } from './clients';

describe("the SDK clients' endpoint settings", () => {
  it('reads the variables the SDK reads, the service-specific endpoint first', () => {
    expect(
      awsEndpointSettings('DYNAMODB', {
        AWS_REGION: 'us-west-2',
        AWS_ENDPOINT_URL: 'http://localhost:1',
        AWS_ENDPOINT_URL_DYNAMODB: 'http://localhost:8000',
      }),
    ).toEqual({
      service: 'DYNAMODB',
      region: 'us-west-2',
      useFips: false,
      useDualstack: false,
      endpoint: 'http://localhost:8000',
    });
    expect(awsEndpointSettings('S3', { AWS_DEFAULT_REGION: 'us-west-2', AWS_ENDPOINT_URL: 'http://x' }).endpoint).toBe(
      'http://x',
    );
    expect(
      awsEndpointSettings('S3', {
        AWS_REGION: 'us-west-2',
        AWS_ENDPOINT_URL_S3: 'http://x',
        AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: 'true',
      }).endpoint,
    ).toBeUndefined();
  });

  it('builds a client with the region and variants, or refuses the configuration with the reason', () => {
    expect(clientSettings('SQS', { AWS_REGION: 'us-west-2', AWS_USE_FIPS_ENDPOINT: 'true' })).toEqual({
      region: 'us-west-2',
      useFipsEndpoint: true,
      useDualstackEndpoint: false,
    });
    expect(() => clientSettings('SQS', {})).toThrow('Invalid Configuration: Missing Region');
    expect(() =>
      clientSettings('IOT_DATA_PLANE', {
        AWS_REGION: 'us-west-2',
        AWS_USE_FIPS_ENDPOINT: 'true',
        AWS_ENDPOINT_URL_IOT_DATA_PLANE: 'https://abc-ats.iot.us-west-2.amazonaws.com',
      }),
    ).toThrow('Invalid Configuration: FIPS and custom endpoint are not supported');
    expect(() =>
      clientSettings('S3', {
        AWS_REGION: 'us-west-2',
        AWS_USE_DUALSTACK_ENDPOINT: 'true',
        AWS_ENDPOINT_URL: 'http://x',
      }),
    ).toThrow('Invalid Configuration: Dualstack and custom endpoint are not supported');
    expect(() =>
      clientSettings('S3', {
        AWS_REGION: 'us-west-2',
        AWS_USE_DUALSTACK_ENDPOINT: 'true',
        AWS_USE_FIPS_ENDPOINT: 'true',
      }),
    ).toThrow('Invalid Configuration: FIPS and DualStack together are not supported');
  });
});
