import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The one JSON line per request of CONTRACT §1. The request logger already carries reqId; headers are
 * never logged, so neither is Authorization.
 */
export function logRequest(request: FastifyRequest, reply: FastifyReply): void {
  request.log.info({
    method: request.method,
    url: request.url,
    statusCode: reply.statusCode,
    ms: Math.round(reply.elapsedTime * 10) / 10,
    ip: request.ip,
  }, 'request');
}
