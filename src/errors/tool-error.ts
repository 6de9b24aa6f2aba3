import type { ProblemCode } from './problems.ts';

export type FieldError = { path: string; message: string };

/** Extra problem members some codes carry (CONTRACT §4, §11). */
export type ProblemExtras = {
  errors?: FieldError[];
  reason?: string;
  /** Seconds, for rate_limited. */
  retryAfter?: number;
  /** The scope a 403 names in WWW-Authenticate. */
  scope?: string;
  /** True when a 401 was caused by a key that was sent but is not valid. */
  invalidToken?: boolean;
  /** The RFC 9728 metadata address a 401 of the MCP endpoint names for OAuth clients. */
  resourceMetadata?: string;
};

/** The only error a tool handler throws on purpose; anything else becomes internal_error. */
export class ToolError extends Error {
  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    readonly extras: ProblemExtras = {},
  ) {
    super(detail);
    this.name = 'ToolError';
  }
}
