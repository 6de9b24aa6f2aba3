import { useTestPasswordCost } from '../../src/access/passwords.ts';

// Every test file: passwords hashed at a low scrypt cost (src/access/passwords.ts says why this is safe).
// test/access/passwords.test.ts checks the production cost itself.
useTestPasswordCost();
