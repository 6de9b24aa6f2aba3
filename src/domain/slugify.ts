/** Longest slug the service accepts (the Slug schema in src/schema/common.ts). */
export const MAX_SLUG_LENGTH = 200;

/**
 * A URL slug from free text (a service slug is generated from the title when omitted):
 * lowercase, æ → ae, ø → oe, å → aa, other accents folded to ASCII, every run of anything else → "-",
 * no leading or trailing "-". May be shorter than two characters, or empty; the caller decides.
 */
export function slugify(text: string, maxLength = MAX_SLUG_LENGTH): string {
  const folded = text.toLowerCase()
    .replaceAll('æ', 'ae').replaceAll('ø', 'oe').replaceAll('å', 'aa').replaceAll('ß', 'ss')
    .normalize('NFKD').replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return folded.slice(0, maxLength).replace(/-+$/, '');
}
