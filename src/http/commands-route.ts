import { loggedToolError } from '../calls/run-call.ts';
import { ownerCommand } from '../commands/registry.ts';
import { admitRequest } from '../edge/admission.ts';
import { decodeJsonBody } from '../edge/json-body.ts';
import { sendProblem } from '../edge/problem-reply.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { RoutePlugin } from '../deps.ts';

/**
 * The owner commands of the CLI (`butik oauth …`), for a CLI that cannot open the embedded database because
 * this server holds it. Master key only, like key management, and rate-limited by the same gate.
 */
export const commandsRoute: RoutePlugin = async (app, { deps }) => {
  app.post<{ Params: { name: string } }>('/api/v1/commands/:name', async (request, reply) => {
    const admitted = await admitRequest(deps, request, reply);
    if (!admitted) return reply;
    const { actor, headers } = admitted;
    if (actor.kind !== 'master') {
      const error = actor.kind === 'anonymous'
        ? new ToolError('unauthorized', 'Owner commands need the master key.')
        : new ToolError('insufficient_scope', 'Only the master key runs owner commands.', { scope: 'master' });
      return sendProblem(reply, error, deps.baseUrl, headers);
    }
    const command = ownerCommand(request.params.name);
    if (!command) {
      return sendProblem(reply, new ToolError('not_found', `There is no owner command ${request.params.name}.`), deps.baseUrl, headers);
    }
    try {
      // The CLI sent it with the master key: its audit entries say so, on the CLI's channel.
      const result = await command.execute(deps.runtime.db, decodeJsonBody(request), { now: deps.runtime.clock(), actor, channel: 'cli', runtime: deps.runtime });
      return reply.code(200).headers(headers).send({ ok: true, result });
    } catch (error) {
      return sendProblem(reply, loggedToolError(request.log, error), deps.baseUrl, headers);
    }
  });
};
