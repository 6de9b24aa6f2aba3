import { parseDictionary } from 'structured-headers';
import { UcpError } from './errors.ts';

/** The protocol version this server implements; a platform asking for a newer one is refused. */
export const UCP_VERSION = '2026-01-11';

export type Agent = {
  /** The platform's profile URL, the name it is known by; '' when the header names none. */
  profile: string;
  version: string;
};

/**
 * UCP-Agent is an RFC 8941 dictionary: `profile="https://platform.example/profile"`, the version either a
 * member of its own or a parameter of the profile. A missing or unparsable header is refused as the samples
 * refuse a missing required header; a version newer than `newest` (ours, unless a capability is newer) is 400
 * version_unsupported.
 */
export function parseAgent(header: string | string[] | undefined, newest: string = UCP_VERSION): Agent {
  const text = Array.isArray(header) ? header.join(', ') : header;
  if (text === undefined || text.trim() === '') {
    throw new UcpError(422, 'INVALID_REQUEST', 'The UCP-Agent header is required, e.g. UCP-Agent: profile="https://platform.example/profile".');
  }
  let members: ReturnType<typeof parseDictionary>;
  try {
    members = parseDictionary(text);
  } catch {
    throw new UcpError(400, 'INVALID_REQUEST', 'The UCP-Agent header is not an RFC 8941 dictionary; send profile="https://platform.example/profile".');
  }
  const profileMember = members.get('profile');
  const profile = profileMember && !Array.isArray(profileMember[0]) ? String(profileMember[0]) : '';
  const versionValue = members.get('version')?.[0] ?? profileMember?.[1].get('version');
  const version = versionValue === undefined || Array.isArray(versionValue) ? UCP_VERSION : String(versionValue);
  if (version > newest) {
    throw new UcpError(400, 'VERSION_UNSUPPORTED', `Version ${version} is not supported. This merchant implements version ${newest}.`);
  }
  return { profile, version };
}
