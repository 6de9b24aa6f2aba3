import { Warning } from '../schema/warning.ts';
import { toJsonSchema } from '../tools/registry.ts';

type Json = Record<string, unknown>;

const WARNING_SCHEMA = toJsonSchema(Warning, 'output');

/**
 * `{"ok": true, "result": …}`: every success of the API, tools and key routes alike (the failures below likewise).
 * `warnings` appears beside the result when an accepted input is probably a mistake (a price under 1 krone).
 */
export function successContent(result: Json): Json {
  return {
    'application/json': {
      schema: {
        type: 'object',
        required: ['ok', 'result'],
        additionalProperties: false,
        properties: {
          ok: { type: 'boolean', const: true },
          result,
          warnings: {
            type: 'array',
            description: 'Present only when the call succeeded but its input looks like a mistake; the change was made.',
            items: WARNING_SCHEMA,
          },
        },
      },
    },
  };
}

export const failureResponses: Json = {
  400: { $ref: '#/components/responses/BadRequest' },
  401: { $ref: '#/components/responses/Unauthorized' },
  403: { $ref: '#/components/responses/Forbidden' },
  404: { $ref: '#/components/responses/NotFound' },
  409: { $ref: '#/components/responses/Conflict' },
  422: { $ref: '#/components/responses/Unprocessable' },
  429: { $ref: '#/components/responses/RateLimited' },
  500: { $ref: '#/components/responses/InternalError' },
  503: { $ref: '#/components/responses/ServiceUnavailable' },
  default: { $ref: '#/components/responses/Problem' },
};
