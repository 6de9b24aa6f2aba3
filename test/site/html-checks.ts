import { expect } from 'vitest';

/** Markup that would run script if user content leaked into it unescaped. */
export const PAYLOAD = '<script>alert(1)</script>"onload="alert(2)\' javascript:alert(3)';
/** PAYLOAD as escapeHtml writes it. */
export const ESCAPED_PAYLOAD = '&lt;script&gt;alert(1)&lt;/script&gt;&quot;onload=&quot;alert(2)&#39; javascript:alert(3)';

/** Nothing in the document can run: no script element, no event attribute, no javascript: URL. */
export function expectInert(html: string): void {
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toContain('"onload=');
  // Real tags only: escaped text has no raw "<". Quoted attribute values are removed before looking for on*=.
  for (const [tag] of html.matchAll(/<[a-z][^>]*>/gi)) {
    const attributes = tag.replace(/"[^"]*"/g, '""');
    expect(attributes, tag).not.toMatch(/\son\w+\s*=/i);
    expect(tag, tag).not.toMatch(/(?:href|src|action)\s*=\s*["']?\s*(?:javascript|data|vbscript):/i);
  }
}

/** One h1, first, and no heading level skipped on the way down. */
export function expectHeadingOutline(html: string): void {
  const levels = [...html.matchAll(/<h([1-6])[\s>]/g)].map((match) => Number(match[1]));
  expect(levels[0]).toBe(1);
  expect(levels.filter((level) => level === 1)).toHaveLength(1);
  levels.forEach((level, index) => {
    if (index > 0) expect(level - (levels[index - 1] ?? 1)).toBeLessThanOrEqual(1);
  });
}

/** The accessible skeleton every public page shares. */
export function expectAccessibleDocument(html: string): void {
  expect(html.startsWith('<!doctype html>')).toBe(true);
  expect(html).toContain('<html lang="da">');
  expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  for (const landmark of ['<header', '<nav', '<main', '<footer']) expect(html).toContain(landmark);
  expect(html).not.toMatch(/<img(?![^>]*\balt=")[^>]*>/);
  expectHeadingOutline(html);
}

export function section(html: string, tag: 'header' | 'main' | 'footer'): string {
  const match = new RegExp(`<${tag}[\\s>][\\s\\S]*?</${tag}>`).exec(html);
  if (!match) throw new Error(`no <${tag}> in the document`);
  return match[0];
}
