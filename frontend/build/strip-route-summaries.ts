import type { Plugin } from 'vite';

/**
 * The web app's build leaves out each route's `summary` (shared/contracts): only the OpenAPI document reads it, and
 * every contract ships in the first page, where the summaries were about 5 kB of its 170 kB gzipped (decision 014).
 * A summary whose value is not plain text (string or template literals joined by `+`) is left as it is.
 */

const QUOTES = new Set(["'", '"', '`']);

/** The end (exclusive) of the string or template literal starting at `start`, or -1 if it never closes. */
const literalEnd = (code: string, start: number): number => {
  const quote = code[start]!;
  for (let i = start + 1; i < code.length; i++) {
    const c = code[i];
    if (c === '\\') i++;
    else if (c === quote) return i + 1;
    else if (quote === '`' && c === '$' && code[i + 1] === '{') {
      // A placeholder: skip to its closing brace, over any literal inside it.
      let depth = 1;
      i += 2;
      while (i < code.length && depth > 0) {
        const d = code[i]!;
        if (QUOTES.has(d)) {
          const end = literalEnd(code, i);
          if (end < 0) return -1;
          i = end;
          continue;
        }
        if (d === '{') depth++;
        else if (d === '}') depth--;
        i++;
      }
      i--;
    }
  }
  return -1;
};

const skipSpace = (code: string, at: number): number => {
  let i = at;
  while (i < code.length && /\s/.test(code[i]!)) i++;
  return i;
};

/** The end of a value made of literals joined by `+`, or -1 when the value is anything else. */
const textValueEnd = (code: string, start: number): number => {
  let i = start;
  for (;;) {
    if (!QUOTES.has(code[i]!)) return -1;
    const end = literalEnd(code, i);
    if (end < 0) return -1;
    const next = skipSpace(code, end);
    if (code[next] !== '+') return end;
    i = skipSpace(code, next + 1);
  }
};

export const stripRouteSummaries = (code: string): string => {
  let out = '';
  let from = 0;
  for (const match of code.matchAll(/(^|[{,\s])summary\s*:\s*/g)) {
    const valueStart = match.index + match[0].length;
    if (valueStart < from) continue;
    const end = textValueEnd(code, valueStart);
    if (end < 0) continue;
    out += `${code.slice(from, valueStart)}''`;
    from = end;
  }
  return out + code.slice(from);
};

const CONTRACT = /[\\/]shared[\\/]contracts[\\/][^\\/]+\.ts$/;

/** The Vite plugin: production builds only (the dev server keeps the source as written). */
export const stripRouteSummariesPlugin = (): Plugin => ({
  name: 'strip-route-summaries',
  apply: 'build',
  enforce: 'pre',
  transform(code, id) {
    if (!CONTRACT.test(id.split('?')[0]!)) return null;
    const stripped = stripRouteSummaries(code);
    return stripped === code ? null : { code: stripped, map: null };
  },
});
