import { passwordPolicyViolation } from './cognito-compat';

describe("the local identity provider's password policy", () => {
  it('accepts the demo password', () => {
    expect(passwordPolicyViolation('Local-Demo-Passw0rd')).toBeUndefined();
  });

  it.each([
    ['too short', 'Ab1', 'not long enough'],
    ['no lowercase', 'ABCDEFGHIJ1', 'lowercase'],
    ['no uppercase', 'abcdefghij1', 'uppercase'],
    ['no digit', 'Abcdefghijk', 'numeric'],
  ])('rejects a password with %s, as Cognito words it', (_label, password, problem) => {
    const violation = passwordPolicyViolation(password);
    expect(violation).toMatch(/^Password does not conform to policy: /);
    expect(violation).toContain(problem);
  });
});
