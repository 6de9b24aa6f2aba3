import { createHash } from 'node:crypto';

/**
 * A page's styles, in one of the two forms a strict Content-Security-Policy admits without 'unsafe-inline':
 * a same-origin file the page links to (cached once for every page of a site), or a `<style>` block whose
 * SHA-256 hash the policy names (a page that must stand alone, like the API reference).
 */
export type Stylesheet =
  | { readonly kind: 'linked'; readonly href: string; readonly css: string }
  | { readonly kind: 'inline'; readonly css: string; readonly hash: string };

export const CSS_TYPE = 'text/css; charset=utf-8';

/** A stylesheet served from this origin at `href` (serve `css` there with `sendCached` and `CSS_TYPE`). */
export function linkedStylesheet(href: string, css: string): Stylesheet {
  if (!href.startsWith('/') || href.startsWith('//')) throw new Error(`a linked stylesheet lives on this origin: ${href}`);
  return { kind: 'linked', href, css };
}

/** A stylesheet written into the page; the policy allows exactly these bytes by their hash. */
export function inlineStylesheet(css: string): Stylesheet {
  // The CSS is the service's own constant, never user text; this keeps a typo from ending the element early.
  if (/<\/style/i.test(css)) throw new Error('an inline stylesheet may not contain "</style"');
  return { kind: 'inline', css, hash: createHash('sha256').update(css).digest('base64') };
}

/** The style-src sources that admit these stylesheets and nothing else. */
export function styleSources(stylesheets: readonly Stylesheet[]): string[] {
  const sources = stylesheets.map((sheet) => (sheet.kind === 'linked' ? "'self'" : `'sha256-${sheet.hash}'`));
  return [...new Set(sources)];
}
