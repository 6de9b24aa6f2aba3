import { describe, expect, it } from 'vitest';
import { slugify } from '../../src/domain/slugify.ts';
import { Layout } from '../../src/schema/layout.ts';
import { escapeHtml } from '../../src/edge/html/escape.ts';
import { html, link, safeHref, safeSrc } from '../../src/edge/html/template.ts';
import { renderBodyText } from '../../src/site/markup.ts';
import { renderLayout } from '../../src/site/sections.ts';
import { expectHeadingOutline, expectInert } from '../site/html-checks.ts';

describe('escapeHtml and the html template', () => {
  it('escapes the five characters that can open markup or leave an attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
  });

  it('escapes interpolated strings and numbers but not nested templates', () => {
    const user = '<b onclick="x">';
    expect(html`<p title="${user}">${user}${html`<i>${42}</i>`}</p>`.value)
      .toBe('<p title="&lt;b onclick=&quot;x&quot;&gt;">&lt;b onclick=&quot;x&quot;&gt;<i>42</i></p>');
  });

  it('joins arrays and leaves out null, undefined and false', () => {
    expect(html`${['<a>', html`<br>`, null, undefined, false, 0]}`.value).toBe('&lt;a&gt;<br>0');
  });
});

describe('safe URLs', () => {
  it.each(['https://butik.test/a?b=1#c', 'http://butik.test', '/services', '/info/om-os?x=1', 'mailto:hej@butik.test'])('keeps %s as a link', (url) => {
    expect(safeHref(url)).toBe(url);
  });

  it.each([
    'javascript:alert(1)', ' javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'java\tscript:alert(1)', 'data:text/html,x', 'vbscript:x',
    '//evil.test', '/\\evil.test', 'services', 'https://x.test/"onload="a', 'ftp://x.test', '', null, undefined,
  ])('drops %s as a link', (url) => {
    expect(safeHref(url)).toBeUndefined();
  });

  it('keeps only http(s) and site paths as image sources', () => {
    expect(safeSrc('https://img.test/a.png')).toBe('https://img.test/a.png');
    expect(safeSrc('/images/demo/a-b.svg')).toBe('/images/demo/a-b.svg');
    expect(safeSrc('mailto:a@b.dk')).toBeUndefined();
    expect(safeSrc('data:image/png;base64,AAAA')).toBeUndefined();
  });

  it('renders the label alone when the link target is unsafe', () => {
    expect(link('javascript:alert(1)', '<b>Klik</b>').value).toBe('<span>&lt;b&gt;Klik&lt;/b&gt;</span>');
    expect(link('/services', 'Ydelser', { current: true }).value).toBe('<a href="/services" aria-current="page">Ydelser</a>');
  });
});

describe('renderBodyText', () => {
  it('turns "##" lines into headings and blank lines into paragraphs', () => {
    expect(renderBodyText('Intro\r\n\r\n## Levering ##\r\nVi sender i dag.\n  \nSidste linje\nnæste linje').value)
      .toBe('<p>Intro</p><h2>Levering</h2><p>Vi sender i dag.</p><p>Sidste linje<br>næste linje</p>');
  });

  it('makes "###" a level below and lists from "- " lines', () => {
    expect(renderBodyText('### Under\n\n- a\n- b', 3).value).toBe('<h4>Under</h4><ul><li>a</li><li>b</li></ul>');
  });

  it('keeps every character of the text as text', () => {
    const rendered = renderBodyText('<script>alert(1)</script>\n\n## <img src=x onerror=alert(1)>\n\n- <a href="javascript:x">x</a>').value;
    expectInert(rendered);
    expect(rendered).toContain('&lt;script&gt;');
  });
});

describe('renderLayout', () => {
  const layout = Layout.parse({
    version: 1,
    sections: [
      { type: 'text', heading: 'Først', body: '## Under\n\nTekst' },
      { type: 'hero', heading: 'Anden hero' },
      { type: 'columns', columns: [{ type: 'text', heading: 'Venstre', body: 'a' }, { type: 'hero', heading: 'Højre' }] },
    ],
  });

  it('keeps one h1 and never skips a heading level', () => {
    const rendered = renderLayout(layout, 'Sidetitel').value;
    expect(rendered.startsWith('<h1>Sidetitel</h1>')).toBe(true);
    expectHeadingOutline(rendered);
  });

  it('uses a leading hero heading as the h1', () => {
    const rendered = renderLayout(Layout.parse({ version: 1, sections: [{ type: 'hero', heading: 'Velkommen' }, { type: 'text', body: '## A\n\nB' }] }), 'Titel').value;
    expect(rendered).not.toContain('Titel');
    expect(rendered).toContain('<h1>Velkommen</h1>');
    expectHeadingOutline(rendered);
  });
});

describe('slugify', () => {
  it.each([
    ['Synsprøve', 'synsproeve'],
    ['Æbler & Åer', 'aebler-aaer'],
    ['Crème brûlée — Ñandú', 'creme-brulee-nandu'],
    ['  --Hej   verden--  ', 'hej-verden'],
    ['Straße', 'strasse'],
    ['!!!', ''],
  ])('turns %s into %s', (text, slug) => {
    expect(slugify(text)).toBe(slug);
  });

  it('cuts at the maximum length without a trailing hyphen', () => {
    expect(slugify('ab cd', 3)).toBe('ab');
  });
});
