/** How a UCP error tells the platform who can fix it (message_error.severity). */
export type Severity = 'recoverable' | 'requires_buyer_input' | 'requires_buyer_review';

/**
 * A failed UCP call: the HTTP status, the samples' upper-case code and the words the platform shows. Its
 * body is the UCP error structure with the samples' `code` and `detail` beside it.
 */
export class UcpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly options: { severity?: Severity; retryAfter?: number } = {},
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
export const invalidRequest = (message: string) => new UcpError(400, 'INVALID_REQUEST', message);
