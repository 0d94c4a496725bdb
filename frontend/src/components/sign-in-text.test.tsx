import { renderToStaticMarkup } from 'react-dom/server';
import { SignInText } from './sign-in-text';

/** What a person reads in the members panel's "Signs in with" cell (issue 21). */
const cell = (name: Parameters<typeof SignInText>[0]['name'], loading = false) =>
  renderToStaticMarkup(<SignInText name={name} loading={loading} testId="cell" />);

describe('the "Signs in with" cell', () => {
  it('names the identity provider by the label the API gives', () => {
    expect(cell({ id: 'rosa', name: 'Rosa Rivera', signsInWith: ['Northside Air Network'] })).toBe(
      '<span data-testid="cell">Northside Air Network</span>',
    );
  });

  it('names both ways for a password account with a linked provider, and password alone for the rest', () => {
    expect(cell({ id: 'april', signsInWith: ['E-mail and password', 'Northside Air Network'] })).toContain(
      '>E-mail and password, Northside Air Network<',
    );
    expect(cell({ id: 'mo', signsInWith: ['E-mail and password'] })).toContain('>E-mail and password<');
  });

  it('says so, muted, while loading and where the API told nothing', () => {
    expect(cell(undefined, true)).toBe('<span data-testid="cell" class="muted">Loading…</span>');
    expect(cell({ id: 'mo', name: 'Mo' })).toBe('<span data-testid="cell" class="muted">Not shown</span>');
    expect(cell(null)).toContain('>Not shown<');
  });
});
