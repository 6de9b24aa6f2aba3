import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

/** Whether the request line (logged at info) is written at this level. */
export function logsRequests(level: Config['logLevel']): boolean {
  return level === 'info' || level === 'debug' || level === 'trace';
}

/**
 * The one JSON line per request (docs/behaviour.md#running-it). The request logger already carries reqId; headers are
 * never logged, so neither is Authorization, and the URL is logged through `redactUrl`.
 */
export function logRequest(request: FastifyRequest, reply: FastifyReply): void {
  request.log.info({
    method: request.method,
    url: redactUrl(request.url),
    statusCode: reply.statusCode,
    ms: Math.round(reply.elapsedTime * 10) / 10,
    ip: request.ip,
  }, 'request');
}

const API_KEY = /bk_[A-Za-z0-9_-]+/g;
const SENSITIVE_NAME = /token|key|secret|pass|auth|code|sig|session|cookie/i;
const PLAIN_VALUE = /^[\w.,:-]{0,40}$/;

/**
 * Clients paste keys where they do not belong (`?token=bk_…`, `?api_key=…`), and a log line must not keep
 * them: any `bk_…` anywhere is masked, and so is every query value whose name sounds like a credential or
 * that is not plainly harmless (a page number, a slug).
 */
export function redactUrl(url: string): string {
  const masked = url.replace(API_KEY, 'bk_[redacted]');
  const question = masked.indexOf('?');
  if (question < 0) return masked;
  const query = masked.slice(question + 1).split('&').map((pair) => {
    const equals = pair.indexOf('=');
    if (equals < 0) return pair;
    const name = pair.slice(0, equals);
    const value = pair.slice(equals + 1);
    return SENSITIVE_NAME.test(name) || !PLAIN_VALUE.test(value) ? `${name}=[redacted]` : pair;
  });
  return `${masked.slice(0, question)}?${query.join('&')}`;
}
