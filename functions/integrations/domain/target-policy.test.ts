import { MESSAGES } from '../../../shared/messages';
import { addressRefusal, urlProblem } from './target-policy';

describe('where webhooks may point', () => {
  it('in the cloud: https only, to public addresses; literal private, loopback, link-local and metadata addresses refused', () => {
    expect(urlProblem('https://hooks.example.com/in', 'public')).toBeUndefined();
    expect(urlProblem('https://93.184.216.34/in', 'public')).toBeUndefined();
    expect(urlProblem('http://hooks.example.com/in', 'public')).toBe(MESSAGES.webhookUrlHttpsOnly);
    for (const [url, address] of [
      ['https://10.0.0.5/in', '10.0.0.5'],
      ['https://192.168.1.10/in', '192.168.1.10'],
      ['https://127.0.0.1:8443/in', '127.0.0.1'],
      ['https://[::1]/in', '::1'],
      ['https://169.254.169.254/latest/meta-data', '169.254.169.254'],
      ['https://[fd00:ec2::254]/', 'fd00:ec2::254'],
      ['https://100.64.0.1/', '100.64.0.1'],
      // The URL parser reads these as 127.0.0.1: no spelling of an address slips through.
      ['https://2130706433/', '127.0.0.1'],
      ['https://0x7f.1/', '127.0.0.1'],
    ]) {
      expect(urlProblem(url!, 'public')).toMatch(new RegExp(`^url points at ${address!.replace(/[.[\]]/g, '\\$&')}, `));
    }
    // A name is checked when it is sent to, after it is resolved (the sender's filter).
    expect(urlProblem('https://localhost/in', 'public')).toBeUndefined();
  });

  it('on one machine: http to localhost and private addresses too, but never link-local or the metadata address', () => {
    expect(urlProblem('http://localhost:8095/hooks/demo', 'local')).toBeUndefined();
    expect(urlProblem('http://127.0.0.1:9000/', 'local')).toBeUndefined();
    expect(urlProblem('http://192.168.1.10/', 'local')).toBeUndefined();
    expect(urlProblem('http://169.254.169.254/latest', 'local')).toMatch(/link-local/);
    expect(urlProblem('http://[fe80::1]/', 'local')).toMatch(/link-local/);
    expect(urlProblem('http://0.0.0.0/', 'local')).toMatch(/unspecified/);
  });

  it('refuses what is not an http(s) address, and a user name or password in it', () => {
    expect(urlProblem('not a url', 'local')).toBe(MESSAGES.webhookUrlInvalid);
    expect(urlProblem('ftp://example.com/', 'local')).toBe(MESSAGES.webhookUrlInvalid);
    expect(urlProblem('file:///etc/passwd', 'local')).toBe(MESSAGES.webhookUrlInvalid);
    expect(urlProblem('https://user:pw@example.com/', 'public')).toBe(MESSAGES.webhookUrlCredentials);
  });

  it('judges an IPv4-mapped IPv6 address as the address it carries', () => {
    expect(addressRefusal('::ffff:127.0.0.1', 'public')).toMatch(/loopback/);
    expect(addressRefusal('::ffff:8.8.8.8', 'public')).toBeUndefined();
  });
});
