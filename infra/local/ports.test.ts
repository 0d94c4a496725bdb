import { readFileSync } from 'node:fs';
import { DEFAULT_PORTS } from './ports';

/** The README's services table says where `npm start` serves each part: every port it names is one the stack opens. */
describe("the README's local services table", () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const table = readme.slice(readme.indexOf('| what'), readme.indexOf('### Demo accounts'));
  const named = [...table.matchAll(/(?:https?|mqtt|ws):\/\/localhost:(\d+)/g)].map(([, port]) => Number(port));

  it('names every port of the local stack, and no other', () => {
    expect([...new Set(named)].sort()).toEqual([...new Set(Object.values(DEFAULT_PORTS))].sort());
  });
});
