import { isDatabaseUnavailable } from '../db/errors.ts';
import { PROBLEMS } from './problems.ts';
import type { ProblemCode } from './problems.ts';
import type { ProblemExtras, ProblemMembers } from './tool-error.ts';
import { ToolError } from './tool-error.ts';

/** RFC 9457 problem details plus the legacy ok/error members kept for one compatibility window. */
export type Problem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: ProblemCode;
  resolution: string;
  ok: false;
  error: { code: ProblemCode; message: string };
} & ProblemMembers;

export type ProblemContext = {
  baseUrl: string;
  requestId: string;
  /** Over MCP the resolution speaks of `_meta` and inputSchema instead of headers and OpenAPI. */
  channel?: 'rest' | 'mcp' | 'cli' | 'admin';
};

export function problemFor(error: ToolError, context: ProblemContext): Problem {
  const entry: { status: number; title: string; resolution: string; mcpResolution?: string } = PROBLEMS[error.code];
  return {
    type: `${context.baseUrl}/problems/${error.code}`,
    title: entry.title,
    status: entry.status,
    detail: error.detail,
    instance: `urn:butik:request:${context.requestId}`,
    code: error.code,
    resolution: context.channel === 'mcp' ? entry.mcpResolution ?? entry.resolution : entry.resolution,
    ...bodyMembers(error.extras),
    ok: false,
    error: { code: error.code, message: error.detail },
  };
}

/** The extras that belong in the body: everything but the transport's hints. */
function bodyMembers(extras: ProblemExtras): ProblemMembers {
  const { retryAfter: _retryAfter, scope: _scope, invalidToken: _invalidToken, resourceMetadata: _resourceMetadata, ...members } = extras;
  return members;
}

/** Long enough for a PostgreSQL restart or failover; an agent that honours it rarely sees the 503 twice. */
export const DATABASE_RETRY_AFTER_S = 5;

/**
 * The one boundary for unknown errors: the cause is logged by the caller, never serialized. A database
 * that is away is the server's passing trouble, not a fault of the request: 503 with Retry-After.
 */
export function asToolError(error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  if (isDatabaseUnavailable(error)) {
    return new ToolError('service_unavailable', 'The database is not reachable right now; nothing was changed.', {
      retryAfter: DATABASE_RETRY_AFTER_S,
    });
  }
  return new ToolError('internal_error', 'The server could not complete the request.');
}
