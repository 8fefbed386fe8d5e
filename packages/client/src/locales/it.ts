import type { MessageCatalog } from "../messages.js";

/** Italian messages of the SDK. */
export const itMessages: MessageCatalog = {
  "error.verificationRequired": "Completa la verifica umana e riprova.",
  "error.quotaExceeded": "Questa app ha raggiunto il limite mensile di invii. Riprova più tardi.",
  "error.subscriptionInactive": "Gli invii a questa app sono momentaneamente sospesi.",
  "error.paymentRequired": "Questa azione non è disponibile con il piano attuale dell'app.",
  "error.authenticationRequired": "Accedi per continuare.",
  "error.rateLimited": {"one": "Troppe richieste. Riprova tra {count} secondo.", "other": "Troppe richieste. Riprova tra {count} secondi."},
  "error.timeout": "La richiesta ha impiegato troppo tempo. Controlla la connessione e riprova.",
  "error.network": "Impossibile raggiungere il server. Controlla la connessione e riprova.",
  "error.aborted": "La richiesta è stata annullata.",
  "error.unexpected": "Si è verificato un errore. Riprova.",
  "error.unsupportedAttachment": "Questo file non può essere allegato.",
  "outbox.queued": "Salvato su questo dispositivo. Verrà inviato quando la connessione tornerà disponibile.",
};
