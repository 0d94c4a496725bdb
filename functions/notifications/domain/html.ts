import sanitizeHtml from 'sanitize-html';

const ALLOWED_TAGS = [
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'a',
  'ul',
  'ol',
  'li',
  'code',
  'pre',
  'blockquote',
  'h2',
  'h3',
  'h4',
  'hr',
];

/**
 * A notification body on its way in: links and basic formatting stay; scripts, styles, event handlers, images,
 * forms and `javascript:` links go. Links are absolute http(s)/mailto or paths of this app (`/…`).
 */
export const sanitizeBody = (html: string): string =>
  sanitizeHtml(html, {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: { a: ['href', 'title', 'rel'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    transformTags: {
      a: (tagName, attribs) => {
        const href = attribs.href ?? '';
        // A relative link must be a path of the app: "dashboard/x" or "../x" would resolve against the e-mail's page.
        const safe = /^(https?:|mailto:)/i.test(href) || href.startsWith('/') ? href : undefined;
        const external = safe !== undefined && /^https?:/i.test(safe);
        return {
          tagName,
          attribs: {
            ...(safe !== undefined ? { href: safe } : {}),
            ...(attribs.title ? { title: attribs.title } : {}),
            ...(external ? { rel: 'noopener noreferrer' } : {}),
          },
        };
      },
    },
  }).trim();

/** The app's own links (`/…`) made absolute for e-mail, which has no page to resolve them against. */
export const absoluteLinks = (html: string, origin: string): string =>
  html.replace(/href="\/(?!\/)/g, `href="${origin.replace(/\/$/, '')}/`);

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&nbsp;': ' ',
};

/** The plain-text part of an e-mail: paragraphs and list items on their own lines, each link as "text (url)". */
export const htmlToText = (html: string): string => {
  const marked = html
    .replace(/<a\b[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, (_all, href: string, text: string) =>
      text.trim() && text.trim() !== href ? `${text} (${href})` : href,
    )
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '- ')
    .replace(/<\/(p|h2|h3|h4|blockquote|pre|ul|ol)>/gi, '\n\n')
    .replace(/<\/li>/gi, '\n')
    .replace(/<hr\s*\/?>/gi, '\n---\n');
  const text = sanitizeHtml(marked, { allowedTags: [], allowedAttributes: {} }).replace(
    /&(amp|lt|gt|quot|#39|nbsp);/g,
    (entity) => ENTITIES[entity] ?? entity,
  );
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
};

/** Text as HTML text (names and ids in a trigger's body). */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
