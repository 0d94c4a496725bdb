import { AREAS } from './areas';
import { normalizePath } from './define-route';

/**
 * API Gateway builds a tree of path segments and allows one variable segment per parent: `/user/{name}` and
 * `/user/{id}` in one API fail the deployment ("a sibling ({id}) of this resource already has a variable path
 * part"), although CDK synthesizes them. The local gateway matches by pattern and would not notice.
 */
describe('contract paths', () => {
  it.each(Object.entries(AREAS))('%s: one variable name per path segment, as API Gateway requires', (_name, area) => {
    const variableAt = new Map<string, Set<string>>();
    for (const route of Object.values(area.routes)) {
      const segments = normalizePath(route.path).split('/').filter(Boolean);
      segments.forEach((segment, index) => {
        if (!/^\{[^}]+\}$/.test(segment)) return;
        const parent = `/${segments.slice(0, index).join('/')}`;
        variableAt.set(parent, (variableAt.get(parent) ?? new Set()).add(segment));
      });
    }
    const clashes = [...variableAt].filter(([, names]) => names.size > 1).map(([p, n]) => `${p}: ${[...n].join(' ')}`);
    expect(clashes).toEqual([]);
  });
});
