import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { HttpRequest } from './load-types.ts';

/**
 * Before anything is timed: every scenario request must answer 200 with a result, and the baseline (or the MCP
 * endpoint) must answer it exactly as Butik's REST route does. A benchmark of wrong answers measures nothing.
 */
export async function send(base: string, request: HttpRequest): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${base}${request.path}`, { method: request.method, headers: request.headers, body: request.body });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  // Streamable HTTP may answer a POST as a one-event SSE stream.
  const json = type.startsWith('text/event-stream')
    ? text.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('')
    : text;
  let body: unknown = text;
  try {
    body = JSON.parse(json);
  } catch {
    // Left as text: the caller reports it.
  }
  return { status: response.status, body };
}

const Envelope = z.object({ ok: z.literal(true), result: z.unknown() });
const McpResult = z.object({ jsonrpc: z.literal('2.0'), result: z.object({ structuredContent: z.unknown() }) });

function describe(request: HttpRequest): string {
  return `${request.path} ${request.body}`;
}

/** The tool result of a 200 REST answer, or a reason why there is none. */
export async function restResult(base: string, request: HttpRequest): Promise<{ ok: true; result: unknown } | { ok: false; reason: string }> {
  const response = await send(base, request);
  const envelope = Envelope.safeParse(response.body);
  if (response.status !== 200 || !envelope.success) {
    return { ok: false, reason: `${describe(request)} → ${response.status} ${JSON.stringify(response.body).slice(0, 300)}` };
  }
  return { ok: true, result: envelope.data.result };
}

/** Every request answers 200 on Butik; where the baseline serves the same requests, with the same JSON. */
export async function checkAgainstBaseline(butik: string, baseline: string | undefined, requests: HttpRequest[]): Promise<string[]> {
  const problems: string[] = [];
  for (const request of requests) {
    const ours = await restResult(butik, request);
    if (!ours.ok) { problems.push(`Butik: ${ours.reason}`); continue; }
    if (baseline === undefined) continue;
    const theirs = await restResult(baseline, request);
    if (!theirs.ok) { problems.push(`baseline: ${theirs.reason}`); continue; }
    if (!isDeepStrictEqual(ours.result, theirs.result)) problems.push(`baseline answers differently: ${describe(request)}`);
  }
  return problems;
}

export type McpCheck = { state: 'ok' } | { state: 'unavailable'; reason: string } | { state: 'broken'; reason: string };

/**
 * The MCP tools/call of each search answers what REST answers (an array result comes as
 * structuredContent {result}, docs/behaviour.md#results-carried-twice). No /api/mcp route at all (404) means the scenario is not available yet.
 */
export async function checkMcp(butik: string, pairs: Array<{ mcp: HttpRequest; rest: HttpRequest }>): Promise<McpCheck> {
  for (const { mcp, rest } of pairs) {
    const response = await send(butik, mcp);
    const answer = `tools/call ${mcp.body} → ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`;
    if (response.status === 404) return { state: 'unavailable', reason: answer };
    const parsed = McpResult.safeParse(response.body);
    if (response.status !== 200 || !parsed.success) return { state: 'broken', reason: answer };
    const expected = await restResult(butik, rest);
    if (!expected.ok) return { state: 'broken', reason: expected.reason };
    if (!isDeepStrictEqual(parsed.data.result.structuredContent, { result: expected.result })) {
      return { state: 'broken', reason: `MCP and REST answer ${describe(rest)} differently` };
    }
  }
  return { state: 'ok' };
}
