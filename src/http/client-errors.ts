import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { PROBLEMS } from '../errors/problems.ts';
import { problemFor } from '../errors/to-problem.ts';
import { ToolError } from '../errors/tool-error.ts';

type Log = { debug(object: object, message: string): void };

/**
 * Errors Node's HTTP parser raises before Fastify sees a request (oversized headers, a request that does
 * not arrive in time, garbage). Fastify's own answer is not a problem body; this one is (docs/behaviour.md#errors), and
 * it is written straight to the socket because there is no request object to reply through.
 */
export function clientErrorHandler(baseUrl: () => string, log: Log) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const problem = clientProblem(error.code);
    log.debug({ code: error.code }, 'client error');
    if (socket.writable) {
      const { status } = PROBLEMS[problem.code];
      const body = JSON.stringify(problemFor(problem, { baseUrl: baseUrl(), requestId: randomUUID() }));
      const length = Buffer.byteLength(body);
      socket.write(`HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Bad Request'}\r\nContent-Type: application/problem+json; charset=utf-8\r\n`
        + `Content-Length: ${length}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`);
    }
    socket.destroy();
  };
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

function clientProblem(code: string | undefined): ToolError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ToolError('request_headers_too_large', 'The request headers are larger than the server accepts (16 KiB in all).');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ToolError('request_timeout', 'The request did not arrive completely in time.');
    default:
      return new ToolError('invalid_json', 'The request could not be read as HTTP.');
  }
}
