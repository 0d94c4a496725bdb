import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Keeps the guides honest: every link of a Markdown file and every citation of a guide in code, lint messages and docs
 * must name a file and a section that exist in the repository. A citation is `docs/style.md §N` (a numbered section
 * of the style guide), `spec §N` (a section of the product specification, docs/product-spec.md), a path to a
 * Markdown file under `docs/`, with or without `#anchor`; and no file may send its reader outside the repository to the
 * guides that were kept there before issue 35.
 */

export interface Problem {
  file: string;
  line: number;
  message: string;
}

/** The repository as text: paths relative to its root (forward slashes) and their content. */
export type Files = ReadonlyMap<string, string>;

export const STYLE_GUIDE = 'docs/style.md';
export const PRODUCT_SPEC = 'docs/product-spec.md';

/**
 * Citations of documents outside the repository, in words a reader cannot follow from a clone. Built from parts so
 * that this file does not cite them itself.
 */
const OUTSIDE = [
  { pattern: new RegExp(`\\b${'STYLE'}(\\.md)?\\s*§`), instead: `${STYLE_GUIDE} §N` },
  { pattern: new RegExp(`\\b${'STYLE'}\\.md\\b`), instead: STYLE_GUIDE },
  { pattern: new RegExp(`\\b${'ARCHITECTURE'}(\\.md|\\s*§)`), instead: 'docs/architecture.md#section' },
  { pattern: new RegExp(`\\b${'roadmap'}(\\.md|\\s+\\d)`, 'i'), instead: 'what the code or a doc in docs/ says' },
  { pattern: new RegExp(`\\b${'ANCHORS'}\\.md\\b`), instead: 'a doc in docs/' },
  { pattern: new RegExp(`\\.\\./shared/(spec|${'ARCHITECTURE'}|${'STYLE'})`), instead: 'docs/' },
  { pattern: new RegExp(`/work/${'shared'}\\b`), instead: 'docs/' },
] as const;

const lineOf = (text: string, index: number): number => text.slice(0, index).split('\n').length;

/** Markdown text without its fenced code blocks (kept as blank lines, so line numbers stay right). */
const withoutFences = (markdown: string): string => {
  let fenced = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line;
    })
    .join('\n');
};

/** GitHub's anchor of a heading: lower case, punctuation dropped (hyphens and underscores kept), spaces as hyphens. */
export const slugOf = (heading: string): string =>
  heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');

/** The anchors of a Markdown file's headings (a repeated heading gets `-1`, `-2`, … as on GitHub). */
export const anchorsOf = (markdown: string): Set<string> => {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of withoutFences(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = slugOf(match[1]!);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const match of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  return anchors;
};

/** The numbers of a Markdown file's numbered sections: `## 9. Names and files` is 9. */
export const sectionNumbersOf = (markdown: string): Set<number> =>
  new Set([...withoutFences(markdown).matchAll(/^#{1,6}\s+§?(\d+)\.\s/gm)].map((m) => Number(m[1])));

/** Section numbers cited right after `at`: `§14`, `§14, §17`, `§8/§9`, `§2 and §9`, across a wrapped comment line. */
const citedNumbers = (text: string, at: number): number[] => {
  const rest = /^((?:[\s*/,]|and|or|§\d+)*)/.exec(text.slice(at))?.[1] ?? '';
  return [...rest.matchAll(/§(\d+)/g)].map((m) => Number(m[1]));
};

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

const splitTarget = (target: string): { file: string; anchor?: string } => {
  const hash = target.indexOf('#');
  return hash < 0 ? { file: target } : { file: target.slice(0, hash), anchor: target.slice(hash + 1) };
};

/** The problems of every Markdown link, guide citation and outside reference in `files`. */
export const checkDocs = (files: Files, exists: (file: string) => boolean): Problem[] => {
  const problems: Problem[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchorsOfFile = (file: string) => {
    if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(files.get(file) ?? ''));
    return anchorCache.get(file)!;
  };
  const styleSections = sectionNumbersOf(files.get(STYLE_GUIDE) ?? '');
  const specSections = sectionNumbersOf(files.get(PRODUCT_SPEC) ?? '');

  /** A target (a repository path, with or without an anchor) read from `file`. */
  const checkTarget = (file: string, line: number, target: string, resolved: string) => {
    const { anchor } = splitTarget(target);
    const fileExists = resolved === '' || files.has(resolved) || exists(resolved);
    if (!fileExists) {
      problems.push({ file, line, message: `${target}: no such file` });
      return;
    }
    if (anchor && resolved.endsWith('.md') && !anchorsOfFile(resolved).has(anchor)) {
      problems.push({ file, line, message: `${target}: ${resolved} has no section #${anchor}` });
    }
  };

  for (const [file, text] of files) {
    const isMarkdown = file.endsWith('.md');

    // Links of Markdown files, relative to the file.
    if (isMarkdown) {
      const prose = withoutFences(text).replace(/`[^`\n]*`/g, (code) => ' '.repeat(code.length));
      const links = [
        ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => ({
          target: m[1]!,
          index: m.index,
        })),
        ...[...prose.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((m) => ({ target: m[1]!, index: m.index })),
      ];
      for (const { target, index } of links) {
        if (isExternal(target)) continue;
        const { file: linked } = splitTarget(target);
        const resolved = linked === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), linked));
        checkTarget(file, lineOf(prose, index), target, resolved.replace(/\/$/, ''));
      }
    }

    // Paths of docs named in any file (code comments, lint messages, docs), relative to the repository's root.
    for (const match of text.matchAll(/(?<![\w./-])(docs\/[\w./-]+\.md)(#[\w-]+)?/g)) {
      const target = `${match[1]}${match[2] ?? ''}`;
      checkTarget(file, lineOf(text, match.index), target, match[1]!);
    }

    // Numbered sections of the style guide and of the product specification.
    for (const match of text.matchAll(/docs\/style\.md/g)) {
      for (const n of citedNumbers(text, match.index + match[0].length)) {
        if (!styleSections.has(n)) {
          problems.push({ file, line: lineOf(text, match.index), message: `${STYLE_GUIDE} has no §${n}` });
        }
      }
    }
    if (file !== PRODUCT_SPEC) {
      for (const match of text.matchAll(/\bspec\b/gi)) {
        for (const n of citedNumbers(text, match.index + match[0].length)) {
          if (!specSections.has(n)) {
            problems.push({
              file,
              line: lineOf(text, match.index),
              message: `spec §${n}: ${PRODUCT_SPEC} has no §${n}`,
            });
          }
        }
      }
    }

    // Guides outside the repository.
    for (const { pattern, instead } of OUTSIDE) {
      for (const match of text.matchAll(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`))) {
        problems.push({
          file,
          line: lineOf(text, match.index),
          message: `"${match[0]}" points outside the repository: cite ${instead}`,
        });
      }
    }
  }
  // A Markdown link to a docs path is read both as a link and as a path: one problem is enough.
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.file}:${p.line}:${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};

/** Folders never read: dependencies, build output, local data, and this checker (whose patterns name what it refuses). */
const SKIPPED = new Set(['node_modules', '.git', '.local', 'cdk.out', 'dist', 'coverage', 'artifacts']);
const SKIPPED_FILES = new Set(['test/docs/doc-links.ts', 'test/docs/doc-links.test.ts']);
const READ = /\.(ts|tsx|js|mjs|cjs|json|md|css|html|yml|yaml)$/;

/** The repository's source and documentation files under `root`, as {@link Files}. */
export const readRepository = (root: string): Files => {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) walk(relative);
      } else if (READ.test(entry.name) && !SKIPPED_FILES.has(relative) && entry.name !== 'package-lock.json') {
        files.set(relative, readFileSync(path.join(root, relative), 'utf8'));
      }
    }
  };
  walk('');
  return files;
};

/** The problems of the repository at `root`. */
export const checkRepository = (root: string): Problem[] =>
  checkDocs(readRepository(root), (file) => existsSync(path.join(root, file)));
