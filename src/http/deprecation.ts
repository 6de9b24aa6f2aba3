import type { Deprecation } from '../tools/define-tool.ts';

/** docs/behaviour.md#versioning-and-deprecation: RFC 9745 Deprecation, RFC 8594 Sunset and their Link relations. */
export function deprecationHeaders(deprecation: Deprecation | undefined): Record<string, string> {
  if (!deprecation) return {};
  return {
    deprecation: `@${Math.floor(deprecation.since.getTime() / 1000)}`,
    sunset: deprecation.sunset.toUTCString(),
    link: `<${deprecation.link}>; rel="deprecation", <${deprecation.link}>; rel="sunset"`,
  };
}
