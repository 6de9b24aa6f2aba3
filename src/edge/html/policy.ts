import type { Stylesheet } from './stylesheet.ts';
import { styleSources } from './stylesheet.ts';

export const HTML_TYPE = 'text/html; charset=utf-8';

export type PolicyOptions = {
  /** The page's stylesheets: the only styles the browser applies. */
  stylesheets: readonly Stylesheet[];
  /**
   * Where images may load from: `self` for this origin only; `https` also admits any https host, for an OAuth
   * client's logo; `web` also admits any http(s) host and data: URLs, for product images an owner hosts
   * elsewhere. Omitted: no images at all.
   */
  images?: 'self' | 'https' | 'web';
  /**
   * CSP source expressions a form on the page may submit to, e.g. `'self'` and an OAuth client's origin.
   * Omitted: the page submits no form.
   */
  formActions?: readonly string[];
};

const IMAGE_SOURCES = { self: "'self'", https: "'self' https:", web: "'self' https: http: data:" } as const;

/**
 * The one Content-Security-Policy builder for pages. Every page it describes runs no script at all (nothing
 * is allowed beyond the listed styles, images and form targets), sets no <base>, and may not be framed, so
 * a visitor cannot be clickjacked into pressing one of its buttons.
 */
export function contentSecurityPolicy(options: PolicyOptions): string {
  const directives = [
    "default-src 'none'",
    `style-src ${styleSources(options.stylesheets).join(' ') || "'none'"}`,
    ...(options.images ? [`img-src ${IMAGE_SOURCES[options.images]}`] : []),
    "base-uri 'none'",
    `form-action ${options.formActions && options.formActions.length > 0 ? options.formActions.join(' ') : "'none'"}`,
    "frame-ancestors 'none'",
  ];
  return directives.join('; ');
}

/**
 * The policy of an SVG image served on its own (the demo product pictures). An SVG opened directly is a
 * document, so it gets a policy too: nothing may load or run, and only its own inline styles apply, which
 * is safe because the service draws every byte of it.
 */
export const SVG_IMAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'";

/** The headers every HTML answer carries: its type, no MIME sniffing, and its policy. */
export function htmlHeaders(policy: string): Record<string, string> {
  return { 'content-type': HTML_TYPE, 'x-content-type-options': 'nosniff', 'content-security-policy': policy };
}
