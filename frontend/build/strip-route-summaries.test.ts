import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { stripRouteSummaries } from './strip-route-summaries';

const contracts = path.resolve(import.meta.dirname, '../../shared/contracts');

describe('stripping route summaries from the browser build', () => {
  it('empties plain-text summaries of every quoting, joined or not, and nothing else', () => {
    const code = [
      "a: defineRoute({ method: 'GET', summary: 'It\\'s one', path: '/x' }),",
      'b: defineRoute({ summary: "two, with \\"quotes\\"", path: \'/y\' }),',
      'c: defineRoute({',
      '  summary:',
      "    'three, ' +",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholders are the source text under test
      '    `and ${N} more, ${f({ a: "}" })}`,',
      '  response: z.void(),',
      '}),',
      '// the summary: a comment stays',
      'openapi: { summary: route.summary },',
    ].join('\n');
    expect(stripRouteSummaries(code)).toBe(
      [
        "a: defineRoute({ method: 'GET', summary: '', path: '/x' }),",
        "b: defineRoute({ summary: '', path: '/y' }),",
        'c: defineRoute({',
        "  summary:\n    '',",
        '  response: z.void(),',
        '}),',
        '// the summary: a comment stays',
        'openapi: { summary: route.summary },',
      ].join('\n'),
    );
  });

  it.each(readdirSync(contracts).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts')))(
    'leaves %s with no summary text and everything else as it was',
    (name) => {
      const code = readFileSync(path.join(contracts, name), 'utf8');
      const stripped = stripRouteSummaries(code);
      // Every `summary:` that held text is now empty: none is left with words.
      expect(stripped).not.toMatch(/summary:\s*['"`][^'"`]/);
      // Only summaries were removed: the rest, paths included, is unchanged.
      const withoutSummaries = (text: string) => text.replace(/summary:\s*''/g, '');
      expect(withoutSummaries(stripped).match(/path: '[^']*'/g)).toEqual(code.match(/path: '[^']*'/g));
    },
  );
});
