import { z } from 'zod';
import { Scope } from '../access/scopes.ts';
import { Timestamp } from './common.ts';

/** The shapes of key management (docs/behaviour.md#api-keys-and-scopes), shared by the routes, their OpenAPI operations and the CLI. */

export const CreateKeyInput = z.strictObject({
  name: z.string().trim().min(1).max(100).meta({ description: 'What the key is for, e.g. the agent that holds it.' }),
  scopes: z.array(Scope).min(1).meta({ description: 'The scopes the key holds; it never gets more access than these.' }),
  // A key born expired would be shown once and never work.
  expiresAt: Timestamp.refine((value) => Date.parse(value) > Date.now(), 'must lie in the future').optional()
    .meta({ description: 'When the key stops working; omitted: never. Must lie in the future.' }),
});

const KeyFields = {
  id: z.string().meta({ description: 'The key id, for rotate and revoke.' }),
  name: z.string(),
  scopes: z.array(z.string()),
  prefix: z.string().meta({ description: 'The first characters of the secret, to tell keys apart.' }),
  createdAt: Timestamp,
  expiresAt: Timestamp.nullable(),
};

export const IssuedKey = z.strictObject({
  ...KeyFields,
  key: z.string().meta({ description: 'The secret: bk_ followed by 43 base64url characters. Shown only now; store it.' }),
});

export const KeyRecord = z.strictObject({
  ...KeyFields,
  lastUsedAt: Timestamp.nullable(),
  revokedAt: Timestamp.nullable(),
});

export const RevokedKey = z.strictObject({ id: z.string(), revokedAt: Timestamp });
