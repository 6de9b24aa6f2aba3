import fastifyFormbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { isCsrfRefusal } from '../edge/form-csrf.ts';
import { sendHtml } from '../edge/html/respond.ts';
import { Quantity } from '../schema/cart.ts';
import { Slug } from '../schema/common.ts';
import { readSettings } from '../shop/settings.ts';
import { loadChrome } from '../site/chrome.ts';
import { SITE_FORM_POLICY, renderDocument } from '../site/document.ts';
import type { PageView } from '../site/document.ts';
import { UcpError } from '../ucp/core/errors.ts';
import { checkoutFromButikCart, handoffParty, storefrontParty } from '../ucp/handoff.ts';
import type { HandoffParty } from '../ucp/handoff.ts';
import type { OperationName, RunOperation } from '../ucp/call/call.ts';
import { readCheckout, readRefusal } from './checkout-model.ts';
import type { CheckoutModel, Refusal } from './checkout-model.ts';
import { explainMessage, explainRefusal, NO_HANDLER } from './explain.ts';
import type { Explained } from './explain.ts';
import { checkForm, completeBody, formOf, readSubmission, updateBody } from './form.ts';
import type { CheckoutForm, Problems } from './form.ts';
import { CARD_HANDLER_NAME, checkoutPath, checkoutView, confirmationView, endedView, notice } from './views.ts';

/** The checkout form is a few short fields; anything bigger is not a person's form. */
const FORM_LIMIT = 16 * 1024;
/** Butik's session ids are random UUIDs; anything else names no session and is not looked up. */
const SessionId = z.uuid();
const BuyForm = z.object({ product: Slug, quantity: z.coerce.number().pipe(Quantity).default(1) });

const NOT_READY: Explained = { detail: 'Købet mangler oplysninger.', resolution: 'Udfyld felterne, og tryk Betal igen.' };

type IdRequest = FastifyRequest<{ Params: { id: string } }>;
type Outcome = { ok: true; model: CheckoutModel } | { ok: false; status: number; refusal: Refusal };

/**
 * The buyer's pages (docs/ucp.md#the-buyers-page): /checkout/<session id>, where a person finishes a UCP checkout
 * session (one a platform handed over through continue_url, or one the shop's Buy button started), and
 * POST /checkout, the Buy button. Every change runs through the UCP operations, the code the REST and MCP bindings
 * run, so the page has no path of its own to an order. Registered only while UCP is on, inside the storefront's
 * scope, which provides the CSRF cookie (edge/form-csrf.ts).
 */
export const handoffRoutes = async (app: FastifyInstance, { deps, run }: { deps: AppDeps; run: RunOperation }) => {
  const db = deps.database.db;
  const testMode = deps.config.ucp.mode === 'test';
  await app.register(fastifyFormbody, { bodyLimit: FORM_LIMIT });

  async function send(reply: FastifyReply, view: PageView, status = 200): Promise<FastifyReply> {
    const chrome = await loadChrome(db, deps.runtime.clock());
    reply.header('referrer-policy', 'no-referrer');
    return sendHtml(reply, { status, body: renderDocument(chrome, { ...view, referrer: 'no-referrer' }), policy: SITE_FORM_POLICY, cacheControl: 'no-store' });
  }
  const missing = (reply: FastifyReply) =>
    send(reply, notice('Købet findes ikke', 'Vi kan ikke finde det køb, linket peger på.', 'Tjek, at du har hele linket, eller start et nyt køb i butikken.'), 404);

  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    if (isCsrfRefusal(error)) {
      request.log.warn({ code: error.code }, 'checkout form refused: CSRF');
      return send(reply, notice('Formularen er udløbet', 'Siden var for gammel, eller din browser sendte ikke cookien fra butikken.', 'Gå tilbage, genindlæs siden, og prøv igen.'), 403);
    }
    const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'checkout page failed');
    const view = status === 413
      ? notice('Noget gik galt', 'Formularen var for stor.', 'Gå tilbage, og send formularen med kortere tekster.')
      : notice('Noget gik galt', 'Butikken kunne ikke vise siden lige nu.', 'Prøv igen om lidt.');
    return send(reply, view, status);
  });

  // The anonymous UCP endpoints' limit per client address: the page drives the same operations.
  app.addHook('onRequest', async (request, reply) => {
    const limit = await deps.gate.limiter.consume('ucp', request.ip);
    if (!limit.exceeded) return;
    reply.header('retry-after', String(limit.resetSeconds));
    return send(reply, notice('For mange forsøg', 'Der er kommet for mange forespørgsler fra din forbindelse.', `Vent ${limit.resetSeconds} sekunder, og prøv igen.`), 429);
  });

  async function call(operation: OperationName, id: string, party: HandoffParty, request: FastifyRequest, body: Record<string, unknown> = {}): Promise<Outcome> {
    const answer = await run({ operation, id, agent: party.agent, caller: party.caller, body, idempotencyKey: undefined, requestId: request.id, log: request.log });
    const json: unknown = JSON.parse(answer.text);
    return answer.status < 300 ? { ok: true, model: readCheckout(json) } : { ok: false, status: answer.status, refusal: readRefusal(json) };
  }

  /** Who acts on the session, or undefined (and the 404 page sent) when the id names none. */
  async function partyFor(request: IdRequest, reply: FastifyReply): Promise<HandoffParty | undefined> {
    if (!SessionId.safeParse(request.params.id).success) {
      await missing(reply);
      return undefined;
    }
    try {
      return await handoffParty(db, request.params.id, request.ip);
    } catch (error) {
      if (!(error instanceof UcpError) || error.status !== 404) throw error;
      await missing(reply);
      return undefined;
    }
  }

  function showForm(reply: FastifyReply, model: CheckoutModel, form: CheckoutForm, problems: Problems, status = 200) {
    return send(reply, checkoutView(model, form, problems, { csrfToken: reply.generateCsrf(), testMode }), status);
  }

  /** The page of a session: its form while open, the confirmation once completed, a notice once canceled. */
  function showSession(reply: FastifyReply, model: CheckoutModel) {
    if (model.status === 'completed') return send(reply, confirmationView(model));
    if (model.status === 'canceled') return send(reply, endedView(), 410);
    return showForm(reply, model, formOf(model), placedProblems(model, false));
  }

  const redirectToPage = (reply: FastifyReply, id: string) => reply.redirect(checkoutPath(id), 303);

  app.get<{ Params: { id: string } }>('/checkout/:id', async (request, reply) => {
    const party = await partyFor(request, reply);
    if (!party) return reply;
    const outcome = await call('get_checkout', request.params.id, party, request);
    if (!outcome.ok) return outcome.status === 404 ? missing(reply) : send(reply, refusalNotice(outcome.refusal), outcome.status);
    return showSession(reply, outcome.model);
  });

  app.post<{ Params: { id: string } }>('/checkout/:id', { preHandler: app.csrfProtection }, async (request, reply) => {
    const id = request.params.id;
    const party = await partyFor(request, reply);
    if (!party) return reply;
    const current = await call('get_checkout', id, party, request);
    if (!current.ok) return current.status === 404 ? missing(reply) : send(reply, refusalNotice(current.refusal), current.status);
    if (current.model.status === 'completed' || current.model.status === 'canceled') return redirectToPage(reply, id);

    const submission = readSubmission(request.body);
    const problems = checkForm(submission);
    if (Object.keys(problems).length > 0) return showForm(reply, current.model, submission.form, problems, 422);

    const updated = await call('update_checkout', id, party, request, updateBody(submission.form, current.model));
    if (!updated.ok) return refused(reply, updated, id, party, request, submission.form);
    if (!submission.pay) return redirectToPage(reply, id);

    // Paying: whatever the session still lacks (even a discount code it only warns about) is shown, not paid past.
    const model = updated.model;
    const blocking = placedProblems(model, true);
    if (Object.keys(blocking).length > 0) return showForm(reply, model, submission.form, blocking, 422);
    if (model.status !== 'ready_for_complete') return showForm(reply, model, submission.form, { form: NOT_READY }, 422);
    const handler = model.handlers.find((candidate) => candidate.name === CARD_HANDLER_NAME);
    if (!handler) return showForm(reply, model, submission.form, { form: NO_HANDLER }, 422);
    const completed = await call('complete_checkout', id, party, request, completeBody(handler.id, submission.card));
    if (!completed.ok) return refused(reply, completed, id, party, request, submission.form);
    return redirectToPage(reply, id);
  });

  /** A refused update or completion: an ended session shows its page; anything else the form again, as typed. */
  async function refused(reply: FastifyReply, outcome: Extract<Outcome, { ok: false }>, id: string, party: HandoffParty, request: FastifyRequest, form: CheckoutForm) {
    if (outcome.refusal.code === 'CHECKOUT_NOT_MODIFIABLE') return redirectToPage(reply, id);
    const again = await call('get_checkout', id, party, request);
    if (!again.ok) return send(reply, refusalNotice(outcome.refusal), outcome.status);
    const { place, explained } = explainRefusal(outcome.refusal);
    return showForm(reply, again.model, form, { [place]: explained }, outcome.status);
  }

  app.post('/checkout', { preHandler: app.csrfProtection }, async (request, reply) => {
    const parsed = BuyForm.safeParse(request.body);
    if (!parsed.success) {
      return send(reply, notice('Varen kan ikke købes', 'Antallet skal være et helt tal fra 1 og op.', 'Gå tilbage til varen, og ret antallet.'), 422);
    }
    return startCheckout(request, reply, { line_items: [{ item: { id: parsed.data.product }, quantity: parsed.data.quantity }] });
  });

  // The cart view a chat shows (mcp/apps/) links here. A link out of a chat can only be a GET, so the visit starts
  // the session as the Buy button's POST does: a session charges and reserves nothing, one left alone expires, and
  // the limit above counts these visits. The cart's id is as unguessable as a session's.
  app.get<{ Params: { cartId: string } }>('/checkout/cart/:cartId', async (request, reply) => {
    const { cartId } = request.params;
    const body = SessionId.safeParse(cartId).success ? await checkoutFromButikCart(db, cartId) : undefined;
    if (!body) {
      return send(reply, notice('Kurven kan ikke købes', 'Kurven findes ikke, er tom eller er allerede betalt.', 'Bed assistenten om en ny kurv, eller køb varerne i butikken.'), 404);
    }
    return startCheckout(request, reply, body);
  });

  /** A new session for the person in the shop itself, and its page; what the shop cannot sell is explained instead. */
  async function startCheckout(request: FastifyRequest, reply: FastifyReply, lines: Record<string, unknown>) {
    const shop = await readSettings(db);
    const party = storefrontParty(request.ip);
    const answer = await run({
      operation: 'create_checkout', id: '', agent: party.agent, caller: party.caller, idempotencyKey: undefined, requestId: request.id, log: request.log,
      body: { ...lines, currency: shop.currency },
    });
    const json: unknown = JSON.parse(answer.text);
    if (answer.status >= 300) {
      const refusal = readRefusal(json);
      return send(reply, answer.status === 400
        ? notice('Varen kan ikke købes', 'Der er ikke nok på lager, eller varen sælges ikke længere.', 'Vælg et mindre antal, eller se butikkens andre varer.')
        : refusalNotice(refusal), answer.status);
    }
    return redirectToPage(reply, readCheckout(json).id);
  }
};

/** The problems the session itself reports (its messages), each beside its field; the first for a place wins. */
function placedProblems(model: CheckoutModel, afterPay: boolean): Problems {
  const problems: Problems = {};
  for (const message of model.messages) {
    const placed = explainMessage(message, { afterPay, hasOptions: model.options.length > 0 });
    if (placed) problems[placed.place] ??= placed.explained;
  }
  return problems;
}

function refusalNotice(refusal: Refusal): PageView {
  const { explained } = explainRefusal(refusal);
  return notice('Købet kan ikke vises', explained.detail, explained.resolution);
}
