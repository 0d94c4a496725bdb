import { errorPage, mfaPage, signInPage } from './hosted-pages';

describe('the hosted sign-in pages', () => {
  const fields = { state: '"><script>alert(1)</script>', redirect_uri: 'http://localhost:5173/auth/callback?a=1&b=2' };

  it('escape every value they carry and hold no script', () => {
    for (const page of [
      signInPage({ action: '/oauth2/authorize', fields, email: '<b>@example.com', error: '<img src=x>' }),
      mfaPage({ action: '/oauth2/authorize', fields, error: "it's <wrong>" }),
      errorPage('<script>x</script>'),
    ]) {
      expect(page).not.toMatch(/<script|<img|<b>/);
      expect(page).not.toMatch(/\son\w+=/);
    }
    const page = signInPage({ action: '/oauth2/authorize', fields });
    expect(page).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(page).toContain('value="http://localhost:5173/auth/callback?a=1&amp;b=2"');
  });

  it('label every field and announce the error', () => {
    const page = signInPage({ action: '/oauth2/authorize', fields: {}, error: 'Incorrect username or password.' });
    expect(page).toContain('<label for="email">E-mail</label>');
    expect(page).toContain('<input id="email" name="username" type="email" autocomplete="username" required');
    expect(page).toContain('<label for="password">Password</label>');
    expect(page).toContain('<p class="error" role="alert" id="form-error">Incorrect username or password.</p>');
    expect(page).toContain('<html lang="en">');
    expect(mfaPage({ action: '/oauth2/authorize', fields: {} })).toContain('autocomplete="one-time-code"');
  });
});
