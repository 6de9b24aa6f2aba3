import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { loggedToolError } from '../calls/run-call.ts';
import { addStaff, listStaff, removeStaff, resetStaffPassword, StaffEmail, StaffPassword, StaffRoleInput } from '../access/staff.ts';
import { endStaffSessions } from '../access/staff-sessions.ts';
import { admitRequest } from '../edge/admission.ts';
import { decodeJsonBody } from '../edge/json-body.ts';
import { sendProblem } from '../edge/problem-reply.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { RoutePlugin } from '../services.ts';
import { parseInput } from '../tools/invoke.ts';

const AddStaff = z.strictObject({ email: StaffEmail, role: StaffRoleInput, password: StaffPassword });
const ResetPassword = z.strictObject({ email: StaffEmail, password: StaffPassword });
const RemoveStaff = z.strictObject({ email: StaffEmail });

type Handler = (request: FastifyRequest) => Promise<{ status: number; result: unknown }>;

/**
 * Staff accounts for `butik staff …` while a server holds the embedded database: master key only, like the
 * key routes, so only someone who can read the data directory's master key file manages people through it.
 * The console itself manages staff through the same functions.
 */
export const staffRoutes: RoutePlugin = async (app, { services }) => {
  const { db } = services.runtime;
  const route = (handler: Handler) => async (request: FastifyRequest, reply: FastifyReply) => {
    const admitted = await admitRequest(services, request, reply);
    if (!admitted) return reply;
    const { actor, headers } = admitted;
    if (actor.kind !== 'master') {
      const error = actor.kind === 'anonymous'
        ? new ToolError('unauthorized', 'Managing staff accounts needs the master key.')
        : new ToolError('insufficient_scope', 'Only the master key manages staff accounts.', { scope: 'master' });
      return sendProblem(reply, error, services.baseUrl, headers);
    }
    try {
      const { status, result } = await handler(request);
      return reply.code(status).headers(headers).send({ ok: true, result });
    } catch (error) {
      return sendProblem(reply, loggedToolError(request.log, error), services.baseUrl, headers);
    }
  };

  app.get('/api/v1/staff', route(async () => ({ status: 200, result: await listStaff(db) })));
  app.post('/api/v1/staff', route(async (request) => ({ status: 201, result: await addStaff(db, parseInput(AddStaff, decodeJsonBody(request))) })));
  app.post('/api/v1/staff/remove', route(async (request) => {
    const { email } = parseInput(RemoveStaff, decodeJsonBody(request));
    return { status: 200, result: await removeStaff(db, email) };
  }));
  app.post('/api/v1/staff/reset-password', route(async (request) => {
    const { email, password } = parseInput(ResetPassword, decodeJsonBody(request));
    return { status: 200, result: await resetStaffPassword(db, email, password, (staffId) => endStaffSessions(db, staffId)) };
  }));
};
