import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { asToolError } from '../errors/to-problem.ts';
import { ToolError } from '../errors/tool-error.ts';
import { sendProblem } from '../edge/problem-reply.ts';
import { logRequest } from './request-log.ts';

/** The last boundary: framework errors get their code (docs/behaviour.md#errors), anything else internal_error. */
export function registerErrorHandling(app: FastifyInstance, baseUrl: () => string): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
      return sendProblem(reply, new ToolError('payload_too_large', 'The request body is larger than 1 MiB.'), baseUrl());
    }
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      return sendProblem(reply, new ToolError('invalid_json', 'The request body could not be read.'), baseUrl());
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(reply, asToolError(error), baseUrl());
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, new ToolError('not_found', `Nothing at ${request.method} ${request.url.split('?')[0]}.`), baseUrl()));
}

/**
 * Fastify's router refuses some paths before any hook runs (an undecodable %-escape, a path segment over
 * maxParamLength). They name nothing, so they are 404 problems like any other unknown path.
 */
export function frameworkErrorAnswer(baseUrl: () => string) {
  return (_error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    reply.header('x-request-id', request.id);
    sendProblem(reply, new ToolError('not_found', 'The request path cannot be decoded, or one of its segments is too long.'), baseUrl());
    // No onResponse hook runs for these, so the request's log line is written here.
    logRequest(request, reply);
  };
}
