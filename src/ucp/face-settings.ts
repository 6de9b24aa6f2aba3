import { ConfigError } from '../config.ts';
import type { Config } from '../config.ts';
import { NEWEST_VERSION, UCP_VERSIONS, isUcpVersion } from './core/versions.ts';
import type { UcpVersion } from './core/versions.ts';
import { loadPaymentHandlers } from './payments/payment-handlers.ts';
import type { PaymentHandlerDeclaration } from './payments/payment-handlers.ts';

/** What the UCP face makes of its raw settings: the payment handlers it advertises and the version it declares. */
export type UcpFaceSettings = { paymentHandlers: PaymentHandlerDeclaration[]; version: UcpVersion };

const loaded = new WeakMap<Config['ucp'], UcpFaceSettings>();

/**
 * The payment-handler file read and checked (ids unique, the mock processor only in test mode) and the declared
 * version checked against those Butik implements, once per configuration: ucpFace asks first, so a bad file or
 * version stops the start-up with a ConfigError naming the variable, as a bad environment does; the operations and
 * routes then read the same answer.
 */
export function ucpFaceSettings(config: Config['ucp']): UcpFaceSettings {
  const known = loaded.get(config);
  if (known) return known;
  const settings = { paymentHandlers: paymentHandlersOf(config), version: versionOf(config.version) };
  loaded.set(config, settings);
  return settings;
}

function paymentHandlersOf(config: Config['ucp']): PaymentHandlerDeclaration[] {
  try {
    return loadPaymentHandlers(config.mode, config.paymentHandlersFile);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  BUTIK_UCP_PAYMENT_HANDLERS: ${(error as Error).message}`);
  }
}

function versionOf(version: string | undefined): UcpVersion {
  if (version === undefined) return NEWEST_VERSION;
  if (isUcpVersion(version)) return version;
  throw new ConfigError(`Invalid configuration:\n  BUTIK_UCP_VERSION: Butik implements UCP ${UCP_VERSIONS.join(', ')}, not ${version}`);
}
