import { inlineStyles } from './inline-entry-styles';

const html = (links: string) =>
  `<head>\n    <script type="module" crossorigin src="/assets/index-a.js"></script>\n${links}  </head>`;
const files: Record<string, string> = {
  'assets/app-1.css': '.a{color:red}',
  'assets/index-2.css': '.b{color:blue}',
};

describe("the entry's styles written into the HTML (decision 113)", () => {
  it('replaces each stylesheet link with its rules, in order, and keeps the link disabled for the loader of later chunks', () => {
    const page = inlineStyles(
      html(
        '    <link rel="stylesheet" crossorigin href="/assets/app-1.css">\n' +
          '    <link rel="stylesheet" crossorigin href="/assets/index-2.css">\n',
      ),
      (path) => files[path],
    );
    expect(page).toBe(
      html(
        '    <link rel="stylesheet" href="/assets/app-1.css" disabled><style>.a{color:red}</style>\n' +
          '    <link rel="stylesheet" href="/assets/index-2.css" disabled><style>.b{color:blue}</style>\n',
      ),
    );
  });

  it('leaves a link to a file the build does not hold, and every other tag, as they are', () => {
    const links =
      '    <link rel="stylesheet" crossorigin href="/assets/elsewhere-3.css">\n' +
      '    <link rel="modulepreload" crossorigin href="/assets/app-1.css">\n';
    expect(inlineStyles(html(links), (path) => files[path])).toBe(html(links));
  });

  it('refuses rules that would end the style element early', () => {
    expect(() =>
      inlineStyles(
        html('    <link rel="stylesheet" crossorigin href="/assets/app-1.css">\n'),
        () => '.a::after{content:"</STYLE>"}',
      ),
    ).toThrow('assets/app-1.css holds "</style", which would end its inline copy early');
  });
});
