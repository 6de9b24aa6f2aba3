import type { Message, Refusal } from './checkout-model.ts';
import type { Place } from './form.ts';

/** A problem as the page shows it: what is wrong, and what the person can do about it. */
export type Explained = { detail: string; resolution: string };
export type Placed = { place: Place; explained: Explained };

const TRY_AGAIN = 'Prøv igen om lidt.';

/** No handler of the shop has a form on this page yet (a live shop's need a processor adapter first). */
export const NO_HANDLER: Explained = {
  detail: 'Butikkens betalingsmåder kan ikke bruges på denne side endnu.', resolution: 'Gør købet færdigt hos den tjeneste, der sendte dig hertil.',
};

/** A refused UCP call (by its code) in the shop's Danish, beside the field it concerns. */
export function explainRefusal(refusal: Refusal): Placed {
  switch (refusal.code) {
    case 'PAYMENT_FAILED':
      return { place: 'card', explained: { detail: 'Betalingen blev afvist.', resolution: 'Tjek kortnummeret, eller betal med et andet kort.' } };
    case 'OUT_OF_STOCK':
      return {
        place: 'lines',
        explained: { detail: 'En af varerne er ikke længere på lager i det antal.', resolution: 'Gå tilbage til butikken og start købet igen med de varer, der er på lager.' },
      };
    case 'PRICE_CHANGED':
      return { place: 'form', explained: { detail: 'Prisen er ændret, mens du handlede.', resolution: 'Se den nye pris herover, og tryk Betal igen.' } };
    case 'DISCOUNT_UNAVAILABLE':
      return { place: 'codes', explained: { detail: 'Rabatkoden kan ikke længere bruges.', resolution: 'Fjern koden, og tryk Betal igen.' } };
    case 'MANDATE_REQUIRED':
      // A session an agent started under AP2 is paid only with the buyer's signed mandate, which this page cannot give.
      return {
        place: 'form',
        explained: {
          detail: 'Dette køb blev startet af en indkøbsagent med en AP2-fuldmagt, og det kan kun betales med den fuldmagt.',
          resolution: 'Gør købet færdigt hos den tjeneste, der sendte dig hertil.',
        },
      };
    case 'RATE_LIMITED':
      return { place: 'form', explained: { detail: 'For mange forsøg fra din forbindelse lige nu.', resolution: 'Vent et minut, og prøv igen.' } };
    case 'IDEMPOTENCY_CONFLICT':
      return { place: 'form', explained: { detail: 'Købet er ved at blive gennemført i en anden fane.', resolution: 'Vent et øjeblik, og genindlæs siden.' } };
    case 'SERVICE_UNAVAILABLE':
    case 'INTERNAL_ERROR':
      return { place: 'form', explained: { detail: 'Butikken kunne ikke gennemføre handlingen lige nu.', resolution: TRY_AGAIN } };
    default:
      return { place: 'form', explained: { detail: refusal.detail, resolution: 'Ret oplysningerne i formularen, og prøv igen.' } };
  }
}

const DISCOUNT_DETAILS: Record<string, string> = {
  discount_code_invalid: 'Rabatkoden findes ikke.',
  discount_code_expired: 'Rabatkoden er udløbet.',
  discount_code_already_applied: 'Rabatkoden er allerede brugt i dette køb.',
  discount_code_combination_disallowed: 'Rabatkoden kan ikke bruges sammen med de andre koder.',
};

/**
 * A message of the checkout (UCP's `messages`, each with a JSONPath into the session) beside the field it
 * concerns. A missing address or option is what a new checkout lacks, so it is shown only once the person
 * tries to pay (`afterPay`).
 */
export function explainMessage(message: Message, options: { afterPay: boolean; hasOptions: boolean }): Placed | undefined {
  const { path, code } = message;
  if (path.startsWith('$.discounts')) {
    return { place: 'codes', explained: { detail: DISCOUNT_DETAILS[code] ?? 'Rabatkoden kan ikke bruges.', resolution: 'Ret koden, eller fjern den.' } };
  }
  if (code === 'out_of_stock') {
    return { place: 'lines', explained: { detail: 'En af varerne er ikke på lager i det antal.', resolution: 'Gå tilbage til butikken og start købet igen med færre varer.' } };
  }
  if (!options.afterPay || message.type !== 'error') return undefined;
  if (path.endsWith('address_country')) return { place: 'country', explained: { detail: 'Landet mangler.', resolution: 'Skriv landekoden, fx DK.' } };
  if (path.endsWith('selected_option_id')) {
    return options.hasOptions
      ? { place: 'option', explained: { detail: 'Vælg hvordan varerne skal sendes.', resolution: 'Vælg en leveringsmåde herunder, og tryk Betal igen.' } }
      : { place: 'country', explained: { detail: 'Vi sender ikke til det land.', resolution: 'Vælg en adresse i et land, vi sender til, fx DK.' } };
  }
  if (path.startsWith('$.fulfillment')) return { place: 'street', explained: { detail: 'Leveringsadressen mangler.', resolution: 'Udfyld adresse, postnummer, by og land.' } };
  return { place: 'form', explained: { detail: message.content, resolution: 'Ret oplysningerne, og prøv igen.' } };
}
