import { readFileSync } from 'node:fs';
import { renderToStaticMarkup } from 'react-dom/server';
import { SUBSCRIPTION_STATUSES } from '../../../../shared/billing/subscription-status';
import { SubscriptionBadge } from './status-badge';

/**
 * What a person sees of a subscription's status (spec §4: each status its own colour and icon, an unknown one grey):
 * the badge as rendered, coloured by the rules of billing.css with the values of tokens.css in each theme.
 */

const css = (file: string) => readFileSync(new URL(file, import.meta.url), 'utf8');
const tokensCss = css('../../app/tokens.css');
const [lightCss, darkCss] = tokensCss.split('@media (prefers-color-scheme: dark)') as [string, string];
const THEMES = { light: lightCss, dark: darkCss } as const;

/** The custom properties a block of tokens.css sets. */
const tokensOf = (block: string) =>
  new Map([...block.matchAll(/(--[a-z0-9-]+):\s*(#[0-9a-f]{6})\s*;/gi)].map(([, name, value]) => [name!, value!]));

/** What billing.css sets for a badge class: its text, background and border colour, by token. */
const ruleOf = (className: string) => {
  const body = new RegExp(`\\.${className}\\s*{([^}]*)}`).exec(css('./billing.css'))?.[1] ?? '';
  const token = (property: string) => new RegExp(`(?:^|;|\\s)${property}:\\s*var\\((--[a-z0-9-]+)\\)`).exec(body)?.[1];
  return { text: token('color'), background: token('background'), border: token('border-color') };
};

/** The badge a person sees: its words, its glyph and its colours in each theme. */
const seen = (status: string) => {
  const html = renderToStaticMarkup(<SubscriptionBadge status={status} />);
  const className = /class="badge subscription-badge (subscription-[a-z]+)"/.exec(html)?.[1];
  const glyph = /<span aria-hidden="true" class="subscription-glyph">([^<]*)<\/span>/.exec(html)?.[1];
  const words = html
    .replace(/<span aria-hidden="true"[^>]*>[^<]*<\/span>/, '')
    .replace(/<[^>]+>/g, '')
    .trim();
  const rule = ruleOf(className ?? 'none');
  const colours = Object.fromEntries(
    Object.entries(THEMES).map(([theme, block]) => {
      const tokens = tokensOf(block);
      return [
        theme,
        { text: tokens.get(rule.text!), background: tokens.get(rule.background!), border: tokens.get(rule.border!) },
      ];
    }),
  ) as Record<keyof typeof THEMES, { text?: string; background?: string; border?: string }>;
  return { className, glyph, words, colours };
};

const channels = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255);
const linear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const luminance = (hex: string) => {
  const [r, g, b] = channels(hex).map(linear) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
/** WCAG 2's contrast ratio. */
const contrast = (a: string, b: string) => {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
};
/** CIELAB (D65): how far apart two colours look (ΔE 1976), and how coloured one is (chroma). */
const lab = (hex: string) => {
  const [r, g, b] = channels(hex).map(linear) as [number, number, number];
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  const fx = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
  const fy = f(0.2126 * r + 0.7152 * g + 0.0722 * b);
  const fz = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)] as const;
};
const deltaE = (a: string, b: string) => Math.hypot(...lab(a).map((v, i) => v - lab(b)[i]!));
const chroma = (hex: string) => Math.hypot(lab(hex)[1], lab(hex)[2]);

const badges = SUBSCRIPTION_STATUSES.map((status) => ({ status, ...seen(status) }));
const unknown = seen('on_hold');

describe('subscription status badges as a person sees them (spec §4)', () => {
  it('write the capitalised status beside its own glyph, drawn as text in the badge colour', () => {
    expect(badges.map(({ status, words, glyph }) => [status, words, glyph])).toEqual([
      ['active', 'Active', '✓'],
      ['past_due', 'Past due', '!'],
      ['incomplete', 'Incomplete', '◷'],
      ['incomplete_expired', 'Incomplete expired', '✕'],
      ['trialing', 'Trialing', '⧗'],
      ['canceled', 'Canceled', '⊘'],
      ['unpaid', 'Unpaid', '⊖'],
      ['paused', 'Paused', '‖'],
    ]);
    expect([unknown.words, unknown.glyph]).toEqual(['On hold', '?']);
  });

  it.each(Object.keys(THEMES) as (keyof typeof THEMES)[])(
    'give each of the eight its own colour in the %s theme, none of them grey like an unknown status',
    (theme) => {
      const looks = badges.map((badge) => ({ status: badge.status, ...badge.colours[theme] }));
      const grey = unknown.colours[theme];
      for (const look of [...looks, { status: 'unknown', ...grey }]) {
        expect([look.status, look.text, look.background, look.border]).toEqual([
          look.status,
          expect.stringMatching(/^#/),
          expect.stringMatching(/^#/),
          expect.stringMatching(/^#/),
        ]);
      }
      // The unknown status is grey; every known one is clearly coloured.
      expect(chroma(grey.text!)).toBeLessThan(12);
      for (const look of looks) expect([look.status, chroma(look.text!) >= 20]).toEqual([look.status, true]);
      // Eight colours a person tells apart, with the unknown grey as a ninth: words and borders alike.
      const all = [...looks, { status: 'unknown', ...grey }];
      for (const [i, a] of all.entries()) {
        for (const b of all.slice(i + 1)) {
          expect([a.status, b.status, deltaE(a.text!, b.text!) >= 20]).toEqual([a.status, b.status, true]);
          expect([a.status, b.status, deltaE(a.border!, b.border!) >= 15]).toEqual([a.status, b.status, true]);
        }
      }
    },
  );

  it.each(Object.keys(THEMES) as (keyof typeof THEMES)[])(
    'are readable in the %s theme: text on its badge at least 4.5:1',
    (theme) => {
      for (const { status, colours } of [...badges, { status: 'unknown', ...unknown }]) {
        const { text, background } = colours[theme];
        expect([status, contrast(text!, background!) >= 4.5]).toEqual([status, true]);
      }
    },
  );
});
