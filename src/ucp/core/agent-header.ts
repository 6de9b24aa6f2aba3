import { parseDictionary } from 'structured-headers';
import { UcpError } from './errors.ts';

export type Agent = {
  /** The platform's profile URL, the name it is known by; '' when the header names none. */
  profile: string;
  /** The protocol version the header asks for, when it names one; otherwise the platform profile's decides. */
  version: string | undefined;
};

/**
 * UCP-Agent is an RFC 8941 dictionary: `profile="https://platform.example/profile"`, the version either a
 * member of its own or a parameter of the profile. A missing or unparsable header is refused as the samples
 * refuse a missing required header; which versions are served is decided by ucp/negotiation.ts.
 */
export function parseAgent(header: string | string[] | undefined): Agent {
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
  const version = versionValue === undefined || Array.isArray(versionValue) ? undefined : String(versionValue);
  return { profile, version };
}
