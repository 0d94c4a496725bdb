import type { Plugin } from 'vite';

/** A stylesheet link as the build writes it into the HTML for the entry's own styles. */
const ENTRY_STYLESHEET = /<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">/g;

/**
 * The HTML with the entry's stylesheets written into it: each `<link rel="stylesheet">` becomes a `<style>` with the
 * file's rules, and the link stays, `disabled`, so the page records it has them. A disabled stylesheet link is not
 * fetched, but the build's loader of a later chunk's styles (Vite's preload helper) counts the stylesheet links of the
 * document, and would otherwise fetch and apply these files a second time when a page that shares them is opened.
 * `files` maps a stylesheet's path to its rules; a link to a file it does not hold is left as it is.
 */
export const inlineStyles = (html: string, files: (path: string) => string | undefined): string =>
  html.replace(ENTRY_STYLESHEET, (link, path: string) => {
    const css = files(path);
    if (css === undefined) return link;
    // The HTML parser ends a style element at the first `</style`, wherever it is in the rules.
    if (/<\/style/i.test(css)) throw new Error(`${path} holds "</style", which would end its inline copy early`);
    return `<link rel="stylesheet" href="/${path}" disabled><style>${css}</style>`;
  });

/**
 * The web build writes the entry's stylesheets into its HTML (decision 113). Linked, they were the first paint's only
 * requests after the HTML: on a phone's network one more round trip before anything is drawn. The HTML grows by their
 * compressed size, about 10 kB, which it downloads in the same connection it already has. Only the build: the dev
 * server serves the styles as modules.
 */
export const inlineEntryStylesPlugin = (): Plugin => ({
  name: 'inline-entry-styles',
  apply: 'build',
  enforce: 'post',
  transformIndexHtml: {
    order: 'post',
    handler(html, { bundle }) {
      return inlineStyles(html, (path) => {
        const file = bundle?.[path];
        return file?.type === 'asset' ? String(file.source) : undefined;
      });
    },
  },
});
