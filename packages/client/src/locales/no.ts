import type { MessageCatalog } from "../messages.js";

/** Norwegian Bokmål (nb-NO resolves here) messages of the SDK. */
export const noMessages: MessageCatalog = {
  "error.verificationRequired": "Fullfør bekreftelsen på at du er et menneske, og prøv igjen.",
  "error.quotaExceeded": "Denne appen har nådd den månedlige grensen for innsendinger. Prøv igjen senere.",
  "error.subscriptionInactive": "Innsendinger til denne appen er satt på pause akkurat nå.",
  "error.paymentRequired": "Denne handlingen er ikke tilgjengelig i appens nåværende abonnement.",
  "error.authenticationRequired": "Logg inn for å fortsette.",
  "error.rateLimited": {"one": "For mange forespørsler. Prøv igjen om {count} sekund.", "other": "For mange forespørsler. Prøv igjen om {count} sekunder."},
  "error.timeout": "Forespørselen tok for lang tid. Sjekk tilkoblingen og prøv igjen.",
  "error.network": "Fikk ikke kontakt med serveren. Sjekk tilkoblingen og prøv igjen.",
  "error.aborted": "Forespørselen ble avbrutt.",
  "error.unexpected": "Noe gikk galt. Prøv igjen.",
  "error.unsupportedAttachment": "Denne filen kan ikke legges ved.",
  "outbox.queued": "Lagret på denne enheten. Det sendes når tilkoblingen er tilbake.",
};
