import type { FastifyError, FastifyInstance } from 'fastify';
import { ToolError } from '../errors/tool-error.ts';
import { sendProblem } from './problem-reply.ts';

/** The last boundary: framework errors get their CONTRACT §4 code, anything else internal_error. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
      return sendProblem(request, reply, new ToolError('payload_too_large', 'The request body is larger than 1 MiB.'));
    }
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      return sendProblem(request, reply, new ToolError('invalid_json', 'The request body could not be read.'));
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(request, reply, new ToolError('internal_error', 'The server could not complete the request.'));
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(request, reply, new ToolError('not_found', `Nothing at ${request.method} ${request.url.split('?')[0]}.`)));
}
