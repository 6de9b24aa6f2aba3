const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\'': '&#39;' };

/** The one HTML escaping of the service: text and attribute values alike (attributes are always double-quoted). */
export function escapeHtml(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}
