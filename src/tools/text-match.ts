/** ILIKE pattern for a plain substring: %, _ and \ typed by a caller match themselves (backslash is LIKE's escape). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
