import { absoluteLinks, htmlToText, sanitizeBody } from './html';

describe('notification bodies', () => {
  it('keeps links and basic formatting, and removes scripts, event handlers, styles and javascript: links', () => {
    const dirty =
      '<p onclick="steal()">Hello <strong>there</strong> <em>you</em><script>alert(1)</script>' +
      '<style>p{}</style><img src=x onerror=alert(1)><a href="javascript:alert(1)">bad</a> ' +
      '<a href="/dashboard/devices/d1" onmouseover="x()">device</a> <a href="https://example.org/a">site</a></p>' +
      '<iframe src="https://evil.example"></iframe><ul><li>one</li></ul>';
    expect(sanitizeBody(dirty)).toBe(
      '<p>Hello <strong>there</strong> <em>you</em><a>bad</a> <a href="/dashboard/devices/d1">device</a> ' +
        '<a href="https://example.org/a" rel="noopener noreferrer">site</a></p><ul><li>one</li></ul>',
    );
  });

  it('drops relative links that are not app paths, and protocol-relative ones', () => {
    expect(sanitizeBody('<a href="dashboard/x">a</a><a href="//evil.example/x">b</a>')).toBe('<a>a</a><a>b</a>');
  });

  it('makes app links absolute for e-mail and leaves other links alone', () => {
    expect(
      absoluteLinks('<a href="/dashboard/x">x</a> <a href="https://o.example/">o</a>', 'https://app.example/'),
    ).toBe('<a href="https://app.example/dashboard/x">x</a> <a href="https://o.example/">o</a>');
  });

  it('writes the plain-text part with links as "text (url)" and one line per paragraph and item', () => {
    expect(
      htmlToText(
        '<p>Hi <a href="https://app.example/dashboard/people/u1">Ann &amp; Bo</a>.</p><ul><li>one</li><li>two</li></ul><p>end<br />now</p>',
      ),
    ).toBe('Hi Ann & Bo (https://app.example/dashboard/people/u1).\n\n- one\n- two\n\nend\nnow');
  });
});
