import type { FastifyReply } from 'fastify';
import { problemFor } from '../errors/to-problem.ts';
import type { ToolError } from '../errors/tool-error.ts';

export const PROBLEM_JSON = 'application/problem+json; charset=utf-8';

/**
 * WWW-Authenticate for 401 and 403: `Bearer realm="butik"`, with the error and, for 403, the missing scope.
 * An MCP endpoint's challenge also names its RFC 9728 resource metadata (extras.resourceMetadata), so an OAuth
 * client (MCP authorization spec) can discover the authorization server; the fixed parameters stay first,
 * and REST's challenges carry no more than those.
 */
export function challengeFor(error: ToolError): string | undefined {
  const metadata = error.extras.resourceMetadata ? `, resource_metadata="${error.extras.resourceMetadata}"` : '';
  if (error.code === 'unauthorized') {
    const base = error.extras.invalidToken ? 'Bearer realm="butik", error="invalid_token"' : 'Bearer realm="butik"';
    return `${base}${metadata}`;
  }
  if (error.code === 'insufficient_scope') {
    return `Bearer realm="butik", error="insufficient_scope", scope="${error.extras.scope ?? ''}"${metadata}`;
  }
  return undefined;
}

/** The problem answer of docs/behaviour.md#errors, with the headers its code calls for. */
export function sendProblem(
  reply: FastifyReply,
  error: ToolError,
  baseUrl: string,
  headers: Record<string, string> = {},
): FastifyReply {
  const problem = problemFor(error, { baseUrl, requestId: reply.request.id });
  const challenge = challengeFor(error);
  reply.code(problem.status).headers(headers).header('content-type', PROBLEM_JSON);
  if (challenge) reply.header('www-authenticate', challenge);
  if (error.extras.retryAfter !== undefined) reply.header('retry-after', String(error.extras.retryAfter));
  return reply.send(JSON.stringify(problem));
}
