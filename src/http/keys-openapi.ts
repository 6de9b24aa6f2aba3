import type { z } from 'zod';
import { CreateKeyInput, IssuedKey, KeyRecord, RevokedKey } from '../schema/api-key.ts';
import { toJsonSchema } from '../tools/registry.ts';
import { failureResponses, successContent } from './openapi-responses.ts';

type Json = Record<string, unknown>;

/**
 * The key-management routes (docs/behaviour.md#api-keys-and-scopes) in the OpenAPI document, so that a developer reading /docs
 * finds how to get a key. They take the master key (security scheme masterKey), never a scoped key.
 */
export const MASTER_KEY_SCHEME: Json = {
  type: 'http',
  scheme: 'bearer',
  description: 'The master key (BUTIK_MASTER_KEY, or the file BUTIK_DATA_DIR/master.key): Authorization: Bearer <master key>.',
};

const ok = (description: string, status: string, schema: z.ZodType): Json => ({
  [status]: { description, content: successContent(toJsonSchema(schema, 'output')) },
});

const idParameter: Json = { name: 'id', in: 'path', required: true, description: 'The key id.', schema: { type: 'string' } };

function operation(fields: { id: string; summary: string; description: string; responses: Json; extra?: Json }): Json {
  return {
    operationId: fields.id,
    summary: fields.summary,
    description: fields.description,
    tags: ['keys'],
    security: [{ masterKey: [] }],
    ...fields.extra,
    // No 409 or 422 comes from these routes, but the shared set documents them harmlessly.
    responses: { ...fields.responses, ...failureResponses },
  };
}

export function keysPaths(): Json {
  return {
    '/api/v1/keys': {
      post: operation({
        id: 'create_key',
        summary: 'Create an API key',
        description: 'Issues a key with the given scopes. The secret is in the answer once and never again.',
        extra: { requestBody: { required: true, content: { 'application/json': { schema: toJsonSchema(CreateKeyInput, 'input') } } } },
        responses: ok('The key, with its secret.', '201', IssuedKey),
      }),
      get: operation({
        id: 'list_keys',
        summary: 'List API keys',
        description: 'Every key, newest last, without secrets.',
        responses: ok('The keys.', '200', KeyRecord.array()),
      }),
    },
    '/api/v1/keys/{id}/rotate': {
      post: operation({
        id: 'rotate_key',
        summary: 'Rotate an API key',
        description: 'A new secret for the same key id and scopes; the old secret stops working at once.',
        extra: { parameters: [idParameter] },
        responses: ok('The key, with its new secret.', '200', IssuedKey),
      }),
    },
    '/api/v1/keys/{id}': {
      delete: operation({
        id: 'revoke_key',
        summary: 'Revoke an API key',
        description: 'The key stops working at once, on every instance.',
        extra: { parameters: [idParameter] },
        responses: ok('When it was revoked.', '200', RevokedKey),
      }),
    },
  };
}
