import { APP_NAME, pageTitle } from './page-title';

describe('pageTitle', () => {
  it("puts the page's heading first, then the app's name", () => {
    expect(pageTitle('Rooftop station')).toBe(`Rooftop station · ${APP_NAME}`);
  });

  it('says Admin on the admin area’s pages, whose headings the dashboard shares', () => {
    expect(pageTitle('Devices', true)).toBe(`Devices · Admin · ${APP_NAME}`);
  });

  it('joins the lines and spaces of a heading into one line', () => {
    expect(pageTitle('  New version of\n   Lake shore survey ')).toBe(`New version of Lake shore survey · ${APP_NAME}`);
  });

  it("is the app's name alone without a heading, or where the heading is the app's name", () => {
    expect(pageTitle(undefined)).toBe(APP_NAME);
    expect(pageTitle('   ')).toBe(APP_NAME);
    expect(pageTitle(APP_NAME)).toBe(APP_NAME);
  });
});
