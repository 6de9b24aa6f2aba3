import type { ProblemCode } from './problems.ts';

export type FieldError = { path: string; message: string };

export type ShortLine = { slug: string; requested: number; available: number };

/** Members some problem bodies carry beside the standard ones (docs/behaviour.md#problem-members-an-agent-can-act-on); each goes into the body as is. */
export type ProblemMembers = {
  errors?: FieldError[];
  reason?: string;
  /** For illegal_transition: where the order may go from its current status. */
  legalNextStatuses?: readonly string[];
  /** For out_of_stock: every cart line the stock cannot cover. */
  shortLines?: readonly ShortLine[];
  /** For not_found of a deleted product: the audit entry whose revert restores it. */
  auditEntryId?: string;
  /** For precondition_failed: the record as it is now, as its get tool answers it. */
  current?: unknown;
};

/** What the transport needs beside the body to answer a problem: headers, never body members. */
export type TransportHints = {
  /** Seconds, for rate_limited. */
  retryAfter?: number;
  /** The scope a 403 names in WWW-Authenticate. */
  scope?: string;
  /** True when a 401 was caused by a key that was sent but is not valid. */
  invalidToken?: boolean;
  /** The RFC 9728 metadata address a 401 of the MCP endpoint names for OAuth clients. */
  resourceMetadata?: string;
};

export type ProblemExtras = ProblemMembers & TransportHints;

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
