import {
  checkDemoIdpLogin,
  claimsOfAccount,
  DEMO_IDP_ACCOUNTS,
  DEMO_IDP_CSP,
  DEMO_IDP_PASSWORD,
  demoIdpLoginPage,
} from './demo-idp-accounts';

describe('the demo identity provider’s people', () => {
  it('signs in a person by e-mail (any case) and the password, and nobody with a wrong one', () => {
    expect(checkDemoIdpLogin(' Approved@Example.com ', DEMO_IDP_PASSWORD)?.sub).toBe('nsa-april-approved');
    expect(checkDemoIdpLogin('approved@example.com', 'Wrong-Passw0rd')).toBeUndefined();
    expect(checkDemoIdpLogin('approved@example.com', '')).toBeUndefined();
    expect(checkDemoIdpLogin('nobody@example.com', DEMO_IDP_PASSWORD)).toBeUndefined();
  });

  it('has one person new to the platform, one to link and one whose e-mail it has not verified', () => {
    expect(DEMO_IDP_ACCOUNTS.map((a) => [a.email, a.emailVerified])).toEqual([
      ['rosa.rivera@northside-air.example.com', true],
      ['approved@example.com', true],
      ['user@example.com', false],
    ]);
    expect(claimsOfAccount(DEMO_IDP_ACCOUNTS[2]!)).toEqual({
      sub: 'nsa-uma-user',
      email: 'user@example.com',
      email_verified: false,
      given_name: 'Uma',
      family_name: 'User',
    });
  });

  it('renders a labelled form naming the organization, with what was typed escaped', () => {
    const html = demoIdpLoginPage({
      action: '/interaction/abc',
      email: '"><script>',
      error: 'Incorrect e-mail or password.',
    });
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<h1>Sign in to Northside Air Network</h1>');
    expect(html).toContain('<label for="email">E-mail</label>');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;"');
    expect(html).toContain('role="alert"');
    expect(html).not.toContain('<script>');
    expect(DEMO_IDP_CSP).toMatch(/default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'/);
  });
});
