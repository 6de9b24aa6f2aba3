import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * The idempotency key a UCP write runs under: the caller's Idempotency-Key, or, for a signed write that sent none,
 * one made from its signature. A signature is valid for minutes (`created`, verify-request.ts), so a copy of a
 * signed create sent again inside that window would otherwise create a second session; under the signature's key it
 * gets the first call's answer instead, on any instance, as an explicit key would. Reads never need one.
 */
export function idempotencyKeyOf(request: { method: string; headers: IncomingHttpHeaders }, signedBy: string | undefined): string | undefined {
  const header = request.headers['idempotency-key'];
  if (typeof header === 'string' && header.trim() !== '') return header.trim();
  if (signedBy === undefined || request.method === 'GET' || typeof request.headers.signature !== 'string') return undefined;
  return `signature:${createHash('sha256').update(request.headers.signature).digest('base64url')}`;
}
