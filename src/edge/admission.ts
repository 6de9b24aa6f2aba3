import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../access/actor.ts';
import { admit } from '../access/admit.ts';
import { rateLimitHeaders } from '../access/rate-limit.ts';
import type { ToolError } from '../errors/tool-error.ts';
import type { AppDeps } from '../deps.ts';
import { sendProblem } from './problem-reply.ts';

export type Admitted = { actor: Actor; headers: Record<string, string> };

export type AdmitOptions = {
  /** Headers every answer of this route carries (CORS), refusals included. */
  headers?: Record<string, string>;
  /** Lets a route add to a refusal before it is sent (MCP names its OAuth metadata on a 401). */
  refusal?: (error: ToolError) => ToolError;
  /** The protected resource (URL) this route serves: OAuth tokens granted for it are accepted here, no others. */
  audience?: string;
};

/**
 * Rate limits and authentication for one API request, with the RateLimit headers every answer carries.
 * A refused request is answered here (401, 429) and yields undefined.
 */
export async function admitRequest(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  options: AdmitOptions = {},
): Promise<Admitted | undefined> {
  const admission = await admit(deps.gate, { ip: request.ip, authorization: request.headers.authorization, audience: options.audience });
  const rateHeaders = rateLimitHeaders(admission.rate, deps.config.rateWindowSeconds);
  const headers = options.headers ? { ...options.headers, ...rateHeaders } : rateHeaders;
  if (admission.ok) return { actor: admission.actor, headers };
  const error = options.refusal ? options.refusal(admission.error) : admission.error;
  sendProblem(reply, error, deps.baseUrl, headers);
  return undefined;
}
