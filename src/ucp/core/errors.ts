/** How a UCP error tells the platform who can fix it (message_error.severity). */
export type Severity = 'recoverable' | 'requires_buyer_input' | 'requires_buyer_review';

export type UcpErrorOptions = {
  severity?: Severity;
  retryAfter?: number;
  /** The WWW-Authenticate of a refused buyer's token (identity linking, RFC 6750 §3). */
  challenge?: string;
  /**
   * A business outcome rather than a refusal of the request (an unknown item, too little stock): from 2026-04-08
   * on it is answered with 200 and this standard error code in `messages` (checkout-rest.md, "Business Outcomes").
   */
  outcome?: 'not_found' | 'out_of_stock' | 'item_unavailable' | 'capabilities_incompatible';
  /** The refusal of a protocol version: its status and body are the declared version's (ucp/checkout/shapes.ts). */
  versionRefusal?: boolean;
};

/**
 * A failed UCP call: the HTTP status, the samples' upper-case code and the words the platform shows. Its
 * body is the UCP error structure with the samples' `code` and `detail` beside it.
 */
export class UcpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly options: UcpErrorOptions = {},
  ) {
    super(message);
  }
}

export type UcpErrorBody = {
  status: 'requires_escalation';
  messages: Array<{ type: 'error'; code: string; content: string; severity: Severity }>;
  code: string;
  detail: string;
};

export function errorBody(error: UcpError): UcpErrorBody {
  return {
    status: 'requires_escalation',
    messages: [{ type: 'error', code: error.code.toLowerCase(), content: error.message, severity: error.options.severity ?? 'recoverable' }],
    code: error.code,
    detail: error.message,
  };
}

export const notFound = (what: 'Checkout session' | 'Order' | 'Cart') => new UcpError(404, 'RESOURCE_NOT_FOUND', `${what} not found`);
export const invalidRequest = (message: string, options: UcpErrorOptions = {}) => new UcpError(400, 'INVALID_REQUEST', message, options);
