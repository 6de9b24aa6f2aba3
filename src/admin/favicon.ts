export const ADMIN_FAVICON_PATH = '/admin/assets/favicon.svg';
export const SVG_TYPE = 'image/svg+xml';

/**
 * The console's tab icon, drawn here: a small dark square with a white "B". Linked from every page, so a
 * browser does not ask for /favicon.ico (a 404) on each one; it uses no style, so the image policy admits it.
 */
export const ADMIN_FAVICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
  + '<rect width="32" height="32" rx="6" fill="#1d2327"/>'
  + '<path d="M10 7h7.5a5 5 0 0 1 3.2 8.8A5.2 5.2 0 0 1 18 25H10z" fill="#fff"/>'
  + '<path d="M14 11v4h3a2 2 0 0 0 0-4zm0 7.5V21h3.6a2.2 2.2 0 0 0 0-4.5z" fill="#1d2327"/></svg>';
