import { UcpError } from './core/errors.ts';
import { isUcpVersion, servedVersions } from './core/versions.ts';
import type { UcpVersion } from './core/versions.ts';

/**
 * The version a request is answered in: the one its UCP-Agent header names, else the one its platform's profile
 * declares, else the shop's declared version. A version the shop does not serve (newer than the declared one, or
 * no release Butik implements) is refused before anything is read or written.
 */
export function negotiateVersion(asked: { header: string | undefined; profile: string | null }, declared: UcpVersion): UcpVersion {
  const wanted = asked.header ?? asked.profile ?? declared;
  const served = servedVersions(declared);
  if (isUcpVersion(wanted) && served.includes(wanted)) return wanted;
  throw new UcpError(400, 'VERSION_UNSUPPORTED', `Version ${wanted} is not supported. This business implements version ${declared}`
    + (served.length > 1 ? ` and also serves ${served.slice(1).join(', ')}.` : '.'), { versionRefusal: true });
}
