import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { managesAccess } from '../access/staff-roles.ts';
import { findStaff, staffActor } from '../access/staff.ts';
import type { Actor } from '../access/actor.ts';
import { pendingApprovalTotal } from '../policies/approvals.ts';
import type { AppDeps } from '../deps.ts';
import { problemBox, sendAdminPage } from './document.ts';
import type { Viewer } from './document.ts';

export type SignedIn = { actor: Extract<Actor, { kind: 'staff' }>; viewer: Viewer };

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The signed-in person, on every request a handler of the signed-in scope (signedInScope) sees; routes outside
     * that scope (sign-in, setup, invitation, stylesheet, icon) never read it.
     */
    staff: SignedIn;
  }
}

/**
 * The person the session names, read again from the database on every request so a removed account or a changed
 * role counts at once; undefined when there is none.
 */
async function personOf(deps: AppDeps, request: FastifyRequest, reply: FastifyReply): Promise<SignedIn | undefined> {
  const staffId = request.session.staffId;
  const member = staffId ? await findStaff(deps.runtime.db, staffId) : undefined;
  if (!member) return undefined;
  return {
    actor: staffActor(member),
    viewer: {
      email: member.email, role: member.role, csrfToken: reply.generateCsrf(), managesAccess: managesAccess(member.role),
      pendingApprovals: await pendingApprovalTotal(deps.runtime.db, deps.runtime.clock()),
    },
  };
}

const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/**
 * Makes `scope` the console's signed-in pages: every route registered in it sees `request.staff`, and a request
 * without a signed-in person is sent to the sign-in page (303) before any handler runs. The person is looked up
 * when the request arrives, before any body is read, so a scope inside (the import upload) can refuse a body
 * before parsing it. The checks that need the body run after it is read, in the order that decides what a person
 * whose session ended sees: first `keepDraft` (a form post whose page can show it again answers with the sign-in
 * form carrying what was typed), then the CSRF token of every form post, then the redirect.
 */
export function signedInScope(scope: FastifyInstance, deps: AppDeps, keepDraft: preHandlerHookHandler): void {
  scope.decorateRequest('staff', null as unknown as SignedIn);
  scope.addHook('onRequest', async (request, reply) => {
    const person = await personOf(deps, request, reply);
    if (person) request.staff = person;
  });
  scope.addHook('preHandler', keepDraft);
  scope.addHook('preHandler', (request, reply, done) => {
    if (SAFE_METHODS.has(request.method)) {
      done();
      return;
    }
    scope.csrfProtection(request, reply, done);
  });
  scope.addHook('preHandler', async (request, reply) => {
    if (!request.staff) return reply.redirect('/admin/login', 303);
    return undefined;
  });
}

/**
 * A hook for a scope of pages that are an owner's alone (API keys, connected apps, policies, staff, the import):
 * anyone else gets the page's refusal (403). As an onRequest hook it also sends a person who is not signed in to
 * the sign-in page, which the signed-in scope would only do after the body is read.
 */
export function ownersOnly(title: string, message: string) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const who = request.staff;
    if (!who) return reply.redirect('/admin/login', 303);
    if (who.viewer.managesAccess) return undefined;
    return sendAdminPage(reply, { title, viewer: who.viewer, main: problemBox(message) }, 403);
  };
}
